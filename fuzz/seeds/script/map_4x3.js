var h = [];
for (var i = 0; i < 12; i++) h.push(gameRand(500));
setMapData(4, 3, Array(12).fill(1), h,
  [{name: "A0CommandCentre", position: [192, 192], direction: 0, modules: 0, player: 0}],
  [{name: "ConstructionDroid", position: [320, 64], direction: 0, player: 1}],
  [{name: "OilResource", position: [64, 320], direction: 0}]);
