var name = 'x'.repeat(1 << 19), s = [];
name += name;
for (var i = 0; i < 1000; i++) s.push({name: name, position: [64, 64], direction: 0});
setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], s);
