#!/usr/bin/env python3
"""Fails when files of src/values or src/report import each other in a circle.

Each .rs file is a node (a folder's mod.rs stands for the folder's module). A file
depends on another when its code names it: `use crate::values::x`, `use super::x`, or
a path such as `super::x::f(...)` or `crate::report::x::T` in the code; a mod.rs
re-exporting a child (`pub use child::T`) depends on it too, since a caller of the
folder's `T` then reaches the child. Only `mod child;` is no dependency. Test modules
(`#[cfg(test)] mod ... { }`) are left out. Glob imports (`use ...::*`) are refused
too: they hide which items cross a boundary.

Usage: scripts/check-module-cycles.py [--graph] [ROOT]   (ROOT: the crate, default .)
"""
import os
import re
import sys

AREAS = ["values", "report"]
# Folders whose children may use the folder's own types: report/mod.rs holds ReportData
# and the other report types beside run(), which calls the children. Until the types
# move to a leaf module of their own, children naming them are not counted as circles;
# the check still counts every other dependency, and run() depending on the children.
TYPES_IN_FOLDER = [("report",)]
PATH = re.compile(r"\b(crate|super|self)((?:::(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|\*))+)")


def module_of(path, src):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    return rel


def strip(text):
    """The code without comments, string literals and #[cfg(test)] modules."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\[\s\S]|[^"\\])*"', '""', text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def expand(tail):
    """`::a::{b, c::d}` -> [[a, b], [a, c, d]] (one level of braces is enough here)."""
    tail = tail.strip(":")
    m = re.match(r"((?:[A-Za-z_]\w*::)*)\{(.*)\}$", tail, re.S)
    head = [p for p in tail.split("::") if p] if not m else [p for p in m.group(1).split("::") if p]
    if not m:
        return [head]
    return [head + [p for p in item.strip().split("::") if p] for item in m.group(2).split(",") if item.strip()]


USE = re.compile(r"(pub(\([^)]*\))?\s+)?use\s")


def graph(root):
    src = os.path.join(root, "src")
    files = {}
    for area in AREAS:
        for d, _, names in os.walk(os.path.join(src, area)):
            for n in names:
                if n.endswith(".rs"):
                    p = os.path.join(d, n)
                    files[tuple(module_of(p, src))] = p
    children = lambda m: [c[-1] for c in files if len(c) == len(m) + 1 and c[:-1] == m]
    refs, reexports, globs = {m: [] for m in files}, {}, []
    for mod, p in files.items():
        is_folder = p.endswith("mod.rs")
        for line in strip(open(p).read()).split(";"):
            line = " ".join(line.split())
            if USE.match(line) and line.endswith("*"):
                globs.append((p, line))
            found = [(m.group(1), m.group(2)) for m in PATH.finditer(line)]
            bare = re.match(r"(pub(\([^)]*\))?\s+)?use\s+([a-z_]\w*)::", line)
            if bare and bare.group(3) not in ("crate", "super", "self", "std", "core", "alloc"):
                found.append(("self", "::" + bare.group(3) + line[bare.end(3):]))
            if is_folder and not re.match(r"(pub(\([^)]*\))?\s+)?(use|mod)\s", line):
                # A folder's code names its children directly (`study::kept(...)`).
                found += [("self", "::" + c) for c in children(mod) if re.search(rf"(?<![:\w]){c}::", line)]
            public = is_folder and line.startswith("pub")
            for kind, tail in found:
                for parts in expand(tail):
                    alias = None
                    if parts and " as " in parts[-1]:
                        parts[-1], alias = [x.strip() for x in parts[-1].split(" as ")]
                    if kind == "crate":
                        target = parts
                    elif kind == "super":
                        up = list(mod[:-1])
                        while parts and parts[0] == "super":
                            up, parts = up[:-1], parts[1:]
                        target = up + parts
                    else:
                        target = list(mod) + parts
                    if public and USE.match(line) and target:
                        # The folder only passes the item on: who names it through the
                        # folder depends on the file that defines it.
                        reexports[(mod, alias or target[-1])] = target
                    else:
                        refs[mod].append(target)

    def resolve(target, depth=0):
        for k in range(len(target), 0, -1):
            t = tuple(target[:k])
            if t in files:
                passed = reexports.get((t, target[k])) if k < len(target) else None
                return resolve(passed, depth + 1) if passed and depth < 8 else t
        return None

    edges = {m: set() for m in files}
    for mod, targets in refs.items():
        for target in targets:
            t = resolve(target)
            if t is not None and t != mod and not (t in TYPES_IN_FOLDER and mod[:-1] == t):
                edges[mod].add(t)
    return files, edges, globs


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
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
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else "."
    files, edges, globs = graph(root)
    name = lambda m: "::".join(m)
    if "--graph" in sys.argv:
        for m in sorted(edges):
            print(f"{name(m)} -> {', '.join(name(t) for t in sorted(edges[m])) or '-'}")
    found = cycles(edges)
    for c in found:
        print("circle: " + " <-> ".join(name(m) for m in c))
    for p, line in globs:
        print(f"glob import: {os.path.relpath(p, root)}: {' '.join(line.split())}")
    print(f"{len(files)} files, {sum(len(e) for e in edges.values())} dependencies, "
          f"{len(found)} circles, {len(globs)} glob imports")
    return 1 if found or globs else 0


if __name__ == "__main__":
    sys.exit(main())
