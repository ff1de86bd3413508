var evil = {valueOf: function () { for (;;) {} }};
setMapData(2, 2, [evil, 0, 0, 0], [0, 0, 0, 0], [], [], []);
