var big = new Array(1 << 20).fill(1), kept = [];
for (var i = 0; i < 200; i++) kept.push(big.slice());
