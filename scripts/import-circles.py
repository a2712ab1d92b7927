#!/usr/bin/env python3
"""Import circles between the files of each crate.

For every crate under crates/*/src, builds the graph of which .rs file imports which other module
file of the same crate, and prints every cycle in it. An import is a path that starts with `crate::`
or `super::` (in a `use` tree or anywhere in the code: `crate::x::f()`); it points at the file of the
longest module prefix of the path that has a file (`crate::cmd::fix::output` -> src/cmd/fix.rs,
`crate::Config` -> src/lib.rs). `mod` declarations are not imports (a parent declaring a child is
not an edge), comments and string literals are ignored, and `super::` inside an inline
`mod tests { ... }` goes up from the inline module, not from the file.

Output: per crate, each strongly connected group of files (the files that reach each other), the
edges inside it with the line of the first import, and its elementary cycles (at most 40 per
group). Exit status 1 if any crate has a cycle, 0 if none, 2 on a usage error.

Usage: scripts/import-circles.py [CRATE_DIR...]   (default: every crates/*/ with a src/)
Standard library only.
"""

import os
import re
import sys
from collections import defaultdict

MAX_CYCLES_SHOWN = 40


def strip_comments_and_strings(text):
    """The text with comments, string literals and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and nxt == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 258]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            close = '"' + m.group(1)
            j = text.find(close, i + len(m.group(0)))
            j = n if j < 0 else j + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:  # a lifetime
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_of_file(src, path):
    """Module path (tuple of names) of a file under src/."""
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel in (["lib"], ["main"]):
        return ()
    if rel[-1] == "mod":
        rel = rel[:-1]
    return tuple(rel)


def parse_use_tree(s, i, prefix, out):
    """Parses a use tree at s[i:] (whitespace removed), appending full paths to out; returns the
    index after the tree."""
    segs = list(prefix)
    while i < len(s):
        if s[i] == "{":
            i += 1
            while i < len(s) and s[i] != "}":
                i = parse_use_tree(s, i, segs, out)
                if i < len(s) and s[i] == ",":
                    i += 1
            return i + 1
        if s[i] == "*":
            out.append(segs)
            return i + 1
        m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", s[i:])
        if not m:
            out.append(segs)
            return i
        name = m.group(0)
        i += len(name)
        if name == "self" and segs:
            pass  # `a::{self, b}`: the module a itself
        else:
            segs = segs + [name]
        if s.startswith("::", i):
            i += 2
            continue
        if s.startswith("as", i):  # `x as y` (whitespace removed)
            m2 = re.match(r"as[A-Za-z_][A-Za-z0-9_]*", s[i:])
            if m2:
                i += len(m2.group(0))
        out.append(segs)
        return i
    out.append(segs)
    return i


def paths_in(code):
    """(line, path segments) for every `crate::`/`super::` path, in use trees and in the code."""
    found = []
    line_starts = [0]
    for m in re.finditer("\n", code):
        line_starts.append(m.end())

    def line_of(pos):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    use_spans = []
    for m in re.finditer(r"\buse\s+([^;]*);", code):
        tree = re.sub(r"\s+", "", m.group(1))
        if tree.startswith("::"):
            tree = tree[2:]
        paths = []
        parse_use_tree(tree, 0, [], paths)
        for p in paths:
            if p and p[0] in ("crate", "super"):
                found.append((m.start(), p))
        use_spans.append((m.start(), m.end()))

    def in_use(pos):
        return any(a <= pos < b for a, b in use_spans)

    for m in re.finditer(r"(?<![A-Za-z0-9_:])((?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+)", code):
        if in_use(m.start()):
            continue
        found.append((m.start(), m.group(1).split("::")))
    return [(line_of(pos), pos, p) for pos, p in found]


def inline_module_at(code, file_mod):
    """A function pos -> module path, following inline `mod name { ... }` blocks."""
    events = []  # (pos, +1 open name / -1 close)
    depth = 0
    stack = []  # (name, depth at which its body opened)
    opens = []
    i = 0
    mod_re = re.compile(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
    pending = {m.end() - 1: m.group(1) for m in mod_re.finditer(code)}
    spans = []  # (start, end, name path)
    for i, c in enumerate(code):
        if c == "{":
            depth += 1
            if i in pending:
                stack.append((pending[i], depth, i))
        elif c == "}":
            if stack and stack[-1][1] == depth:
                name, _, start = stack.pop()
                spans.append((start, i, tuple(s[0] for s in stack) + (name,)))
            depth -= 1
    del events, opens

    def at(pos):
        best = ()
        for start, end, path in spans:
            if start < pos < end and len(path) > len(best):
                best = path
        return file_mod + best

    return at


def resolve(path, here, modules):
    """The file a path points at: the longest module prefix with a file."""
    if path[0] == "crate":
        segs = list(path[1:])
        base = []
    else:
        base = list(here)
        segs = list(path)
        while segs and segs[0] == "super":
            if not base:
                return None
            base.pop()
            segs.pop(0)
    full = base + segs
    for k in range(len(full), -1, -1):
        f = modules.get(tuple(full[:k]))
        if f:
            return f
    return None


def sccs(nodes, edges):
    """Tarjan's strongly connected components."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def cycles_in(comp, edges, limit):
    """Elementary cycles of one component (each once, starting at its smallest file)."""
    members = set(comp)
    found = []
    for start in comp:
        allowed = {v for v in members if v >= start}
        path = [start]

        def walk(v):
            if len(found) >= limit:
                return
            for w in sorted(edges.get(v, ())):
                if w not in allowed:
                    continue
                if w == start:
                    found.append(list(path))
                elif w not in path:
                    path.append(w)
                    walk(w)
                    path.pop()

        walk(start)
    return found


def crate_graph(crate_dir):
    src = os.path.join(crate_dir, "src")
    files = []
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                files.append(os.path.join(root, name))
    modules = {module_of_file(src, f): f for f in sorted(files)}
    edges = defaultdict(dict)  # file -> {file: (line, path text)}
    for f in sorted(files):
        with open(f, encoding="utf-8") as fh:
            code = strip_comments_and_strings(fh.read())
        file_mod = module_of_file(src, f)
        at = inline_module_at(code, file_mod)
        for line, pos, path in paths_in(code):
            target = resolve(path, at(pos), modules)
            if target and target != f and target not in edges[f]:
                edges[f][target] = (line, "::".join(path))
    return src, files, edges


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    crates = argv[1:] or sorted(
        os.path.join(root, "crates", d)
        for d in os.listdir(os.path.join(root, "crates"))
        if os.path.isdir(os.path.join(root, "crates", d, "src"))
    )
    any_cycle = False
    total = 0
    for crate in crates:
        if not os.path.isdir(os.path.join(crate, "src")):
            print(f"import-circles: {crate}: no src/ folder", file=sys.stderr)
            return 2
        src, files, edges = crate_graph(crate)
        name = os.path.relpath(crate, root)
        groups = [c for c in sccs(files, edges) if len(c) > 1]
        if not groups:
            print(f"{name}: no cycles ({len(files)} files)")
            continue
        any_cycle = True
        for comp in groups:
            total += 1
            rel = [os.path.relpath(f, src) for f in comp]
            print(f"{name}: cycle between {len(comp)} files: {', '.join(rel)}")
            for a in comp:
                for b, (line, text) in sorted(edges[a].items()):
                    if b in comp:
                        print(f"    {os.path.relpath(a, src)}:{line} -> {os.path.relpath(b, src)}  ({text})")
            cyc = cycles_in(comp, edges, MAX_CYCLES_SHOWN)
            for c in cyc:
                loop = [os.path.relpath(f, src) for f in c] + [os.path.relpath(c[0], src)]
                print(f"    cycle: {' -> '.join(loop)}")
            if len(cyc) >= MAX_CYCLES_SHOWN:
                print(f"    (the first {MAX_CYCLES_SHOWN} cycles shown)")
    if any_cycle:
        print(f"import-circles: {total} group(s) of files import each other in a circle", file=sys.stderr)
        return 1
    print("import-circles: no cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
