#!/usr/bin/env python3
"""The module circle of a crate: the strongly connected components of its module graph.

A module is a source file (`lib.rs` is the root, `a/mod.rs` and `a.rs` are `a`); module A
uses B when A's code names a path into B (`use crate::b::x`, `crate::b::f()`,
`super::b::…`), outside comments and test code (`#[cfg(test)]` modules). Edges to the
root (its re-exports of other crates) are left out. Modules in one component all reach
each other through such paths: the largest component is the tangle to shrink.

Usage: tools/module_cycles.py CRATE_SRC MAX [--list]
Prints the component sizes; fails (exit 1) when the largest has more than MAX modules.
"""
import os
import re
import sys


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3].replace(os.sep, "/")
    parts = rel.split("/")
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    for line in text.splitlines():
        # A `//` outside a string literal starts a comment (good enough for paths).
        code, in_str, i = [], False, 0
        while i < len(line):
            c = line[i]
            if c == '"' and (i == 0 or line[i - 1] != "\\"):
                in_str = not in_str
            if not in_str and line.startswith("//", i):
                break
            code.append(c)
            i += 1
        out.append("".join(code))
    return "\n".join(out)


def test_only_files(src, files):
    """Files declared by a `#[cfg(test)]` `mod x;` (with or without `#[path]`)."""
    out = set()
    for path in files:
        text = open(path, encoding="utf-8").read()
        for m in re.finditer(
            r"#\[cfg\(test\)\]\s*(?:#\[path\s*=\s*\"([^\"]+)\"\]\s*)?mod\s+(\w+)\s*;", text
        ):
            here = os.path.dirname(path)
            if not path.endswith(("mod.rs", "lib.rs", "main.rs")):
                here = os.path.join(here, os.path.basename(path)[:-3])
            if m.group(1):
                out.add(os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))))
            else:
                for cand in (os.path.join(here, m.group(2) + ".rs"),
                             os.path.join(here, m.group(2), "mod.rs")):
                    out.add(os.path.normpath(cand))
    return out


def without_test_modules(text):
    m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    return text[: m.start()] if m else text


def expand_use(tree):
    """`a::{b, c::{d}}` → ["a::b", "a::c::d"] (glob and self kept as written)."""
    tree = re.sub(r"\s+", "", tree)
    m = re.match(r"^(.*?)\{(.*)\}$", tree)
    if not m:
        return [tree]
    prefix, inner = m.groups()
    parts, depth, cur = [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c == "{"
        depth -= c == "}"
        cur += c
    if cur:
        parts.append(cur)
    return [p for part in parts for p in expand_use(prefix + part)]


def paths_in(text):
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        yield from expand_use(m.group(1))
    for m in re.finditer(r"\b((?:crate|super)(?:::super)*::(?:\w+::)*\w+)", text):
        yield m.group(1)


def resolve(path, here, modules):
    """The module a path leads into: the longest known module prefix."""
    segs = path.split("::")
    if segs[0] == "crate":
        base, segs = [], segs[1:]
    elif segs[0] == "super":
        base = list(here)
        while segs and segs[0] == "super":
            base = base[:-1]
            segs = segs[1:]
    else:
        return None
    full = base + segs
    for n in range(len(full), 0, -1):
        if tuple(full[:n]) in modules:
            return tuple(full[:n])
    return None


def sccs(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2 or not args[1].isdigit():
        sys.exit(__doc__)
    src, bound = args[0], int(args[1])
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".rs")
    )
    tests = test_only_files(src, files)
    files = [f for f in files if os.path.normpath(f) not in tests]
    modules = {module_of(src, f): f for f in files}
    graph = {m: set() for m in modules}
    for m, f in modules.items():
        text = without_test_modules(strip_comments(open(f, encoding="utf-8").read()))
        for p in paths_in(text):
            to = resolve(p, m, modules)
            if to is not None and to != m and to != ():
                graph[m].add(to)
    graph.pop((), None)
    for targets in graph.values():
        targets.discard(())
    comps = sorted(sccs(graph), key=len, reverse=True)
    largest = comps[0] if comps else []
    name = lambda m: "::".join(m)
    print(f"{src}: {len(graph)} modules; largest strongly connected component: "
          f"{len(largest)} modules (bound {bound}); next: {[len(c) for c in comps[1:4]]}")
    if "--list" in sys.argv:
        print("  " + ", ".join(sorted(name(m) for m in largest)))
    if len(largest) > bound:
        print(f"the module circle grew past {bound}: "
              + ", ".join(sorted(name(m) for m in largest)))
        sys.exit(1)


if __name__ == "__main__":
    main()
