var ok = true;
String(3n ** 40000000n);
