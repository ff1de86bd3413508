async function f() { await 0; return f(); }
f();
