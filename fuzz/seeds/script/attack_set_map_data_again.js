var s = [];
for (var i = 0; i < 65535; i++) s.push({name: 'Boulder1', position: [64, 64], direction: 0});
for (var k = 0; k < 100; k++)
  setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], s);
