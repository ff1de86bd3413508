[1, 2, 3].forEach(function () {
  for (;;) {}
});
