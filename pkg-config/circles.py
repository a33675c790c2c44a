#!/usr/bin/env python3
"""Lists the file circles in src/: groups of files that use each other, directly or through
others (the strongly connected components of the file `use` graph with more than one file).

A file uses another when one of its paths (`use` trees and inline `crate::`/`super::`/`self::`
paths) names an item or module that file defines. Re-exports are followed to the defining
file, so a child that imports through its parent's `pub use` depends on the child that defines
the item, not on the parent. Module declarations (`mod x;`) are not uses.

    python3 pkg-config/circles.py          # one line per circle, then "circles: N"
    python3 pkg-config/circles.py --edges  # also each circle's edges
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
DEF_RE = r"\b(?:fn|struct|enum|union|const|static|type|trait|macro_rules!)\s+{}\b"


def strip(text):
    """Drops comments, string and char literals (keeps the line structure roughly)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = text.find('"' + m.group(1), i + len(m.group(0)))
            i = n if end < 0 else end + 1 + len(m.group(1))
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 12]) or text.startswith("'\\u{", i):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            i += len(m.group(0)) if m else 1
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


class File:
    def __init__(self, path, modpath):
        self.path = path
        self.modpath = modpath  # tuple of segments below the crate root
        self.text = strip(open(path, encoding="utf-8").read())
        self.children = {}  # name -> File
        self.aliases = {}  # name -> absolute path (tuple)
        self.globs = []  # absolute module paths
        self.refs = []  # absolute paths this file names


FILES = {}


def load(path, modpath):
    f = File(path, modpath)
    FILES[path] = f
    stem = os.path.splitext(path)[0]
    base_dir = os.path.dirname(path) if os.path.basename(path) in ("lib.rs", "mod.rs") else stem
    for m in re.finditer(r'(#\[path\s*=\s*""\]\s*)?(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', f.text):
        name = m.group(2)
        raw = open(path, encoding="utf-8").read()
        explicit = re.search(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+' + name + r"\s*;", raw)
        if explicit:
            child = os.path.join(os.path.dirname(path), explicit.group(1))
        else:
            child = os.path.join(base_dir, name + ".rs")
            if not os.path.exists(child):
                child = os.path.join(base_dir, name, "mod.rs")
        if os.path.exists(child):
            f.children[name] = load(os.path.normpath(child), modpath + (name,))
    return f


def expand(tree):
    """`a::{b, c::d as e, *}` -> [(["a","b"], "b"), (["a","c","d"], "e"), (["a","*"], None)]."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "@", tree))
    out = []

    def walk(prefix, s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch == "{"
            depth -= ch == "}"
            cur += ch
        if cur:
            parts.append(cur)
        for p in parts:
            brace = p.find("{")
            if brace >= 0:
                head = [x for x in p[:brace].split("::") if x]
                walk(prefix + head, p[brace + 1:p.rindex("}")])
                continue
            alias = None
            if "@" in p:
                p, alias = p.split("@", 1)
                alias = None if alias == "_" else alias
            segs = [x for x in p.split("::") if x]
            if segs == ["self"]:
                segs = []
            full = prefix + segs
            if not full:
                continue
            name = alias or (full[-1] if full[-1] != "*" else None)
            out.append((full, name))

    walk([], tree)
    return out


def inline_mods(text):
    """(start, end, name) of each inline module block `mod name { ... }`."""
    spans = []
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += text[i] == "{"
            depth -= text[i] == "}"
            if depth == 0:
                break
            i += 1
        spans.append((m.start(), i, m.group(1)))
    return spans


def absolute(f, segs, at=0):
    """Absolute module path of `segs` as written at offset `at` of file f, or None for an
    external path."""
    base = list(f.modpath) + [name for start, end, name in f.inline if start < at < end]
    if segs[0] == "crate":
        return tuple(segs[1:])
    if segs[0] in ("self", "super"):
        i = 0
        while i < len(segs) and segs[i] in ("self", "super"):
            if segs[i] == "super":
                base = base[:-1]
            i += 1
        return tuple(base + segs[i:])
    if segs[0] in f.children:
        return tuple(base + segs)
    if segs[0] in f.aliases:
        return f.aliases[segs[0]] + tuple(segs[1:])
    return None


def by_modpath():
    return {f.modpath: f for f in FILES.values()}


def collect():
    for f in FILES.values():
        f.inline = inline_mods(f.text)
        uses = []
        for m in re.finditer(r"\buse\s+([^;]+);", f.text):
            uses.extend((segs, name, m.start()) for segs, name in expand(m.group(1)))
        # Two passes: an alias may be written relative to another alias.
        for _ in range(2):
            for segs, name, at in uses:
                a = absolute(f, segs, at)
                if a is None:
                    continue
                if segs[-1] == "*":
                    if a[:-1] not in f.globs:
                        f.globs.append(a[:-1])
                elif name:
                    f.aliases[name] = a
        for segs, _, at in uses:
            a = absolute(f, segs, at)
            if a is not None:
                f.refs.append(a[:-1] if a and a[-1] == "*" else a)
        # Paths through a module brought in by name (`use crate::chain;` then `chain::Cert`).
        mods = by_modpath()
        for name, target in f.aliases.items():
            if target in mods:
                for m in re.finditer(r"(?<![\w:])" + re.escape(name) + r"((?:::\w+)+)", f.text):
                    f.refs.append(target + tuple(m.group(1).split("::")[1:]))
        for m in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)", f.text):
            a = absolute(f, m.group(1).split("::"), m.start())
            if a is not None:
                f.refs.append(a)


def defines(f, name):
    return re.search(DEF_RE.format(re.escape(name)), f.text) is not None


def resolve(path, seen=None):
    """The file that defines the item named by an absolute path."""
    seen = seen or set()
    if path in seen:
        return None
    seen.add(path)
    mods = by_modpath()
    cur = mods[()]
    for i, seg in enumerate(path):
        if seg in cur.children:
            cur = cur.children[seg]
            continue
        if defines(cur, seg):
            return cur
        if seg in cur.aliases:
            return resolve(cur.aliases[seg] + tuple(path[i + 1:]), seen)
        for g in cur.globs:
            target = resolve(g + (seg,) + tuple(path[i + 1:]), seen)
            if target is not None and target is not mods.get(g):
                return target
        return cur
    # The path names a module, not an item: a module is a container, not a dependency.
    return None


def circles():
    graph = {}
    for f in FILES.values():
        edges = set()
        for ref in f.refs:
            t = resolve(ref)
            if t is not None and t is not f:
                edges.add(t.path)
        graph[f.path] = edges
    # Tarjan's strongly connected components.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
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
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return graph, sorted(comps, key=lambda c: (-len(c), c))


def main():
    load(os.path.normpath(os.path.join(ROOT, "lib.rs")), ())
    collect()
    graph, comps = circles()
    rel = lambda p: os.path.relpath(p, os.path.join(ROOT, ".."))
    for c in comps:
        print(f"{len(c)} files: " + " ".join(rel(p) for p in c))
        if "--edges" in sys.argv:
            for a in c:
                for b in sorted(graph[a]):
                    if b in c:
                        print(f"    {rel(a)} -> {rel(b)}")
    print(f"circles: {len(comps)}")


if __name__ == "__main__":
    main()
