#!/usr/bin/env python3
"""Measures the crate's module structure from the `use` lines and `crate::` paths of src/.

    python3 pkg-config/layers.py            # the four figures
    python3 pkg-config/layers.py --verbose  # and every upward edge, circle and root import

Figures:
  upward edges   module edges (file -> module path it names) that point up the layer table of
                 tests/it/layering.rs (the same table the layering test enforces)
  file circles   strongly connected groups of two or more files in the file import graph
                 (a name imported through a module's re-export counts at its defining file; a
                 `pub use` is a facade, not a use, unless the file's own code names the item)
  root imports   internal `crate::Name` paths that go through lib.rs's re-export list
  root names     public names lib.rs re-exports (pub use) plus its public modules
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SRC = os.path.join(ROOT, "src")
LAYERING = os.path.join(ROOT, "tests", "it", "layering.rs")


def strip(text):
    """The code of a Rust file without comments and without the contents of literals."""
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
        elif re.match(r'b?r#*"', text[i:i + 20]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            i += m.end()
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def modules():
    """{module path tuple: file} for every file of src/ (lib.rs is the empty path)."""
    files = {}
    for d, _, names in os.walk(SRC):
        for name in names:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(d, name)
            rel = os.path.relpath(path, SRC)[:-3].split(os.sep)
            if rel == ["lib"]:
                rel = []
            elif rel[-1] == "mod":
                rel = rel[:-1]
            files[tuple(rel)] = path
    # `#[path = "x.rs"] mod name;` maps a file to another module path.
    for mod, path in list(files.items()):
        code = open(path, encoding="utf-8").read()
        for m in re.finditer(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)', code):
            target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
            for k, v in list(files.items()):
                if os.path.normpath(v) == target:
                    del files[k]
            files[mod + (m.group(2),)] = target
    return files


def use_trees(text):
    """(prefix, tree) of each `use` declaration; trees expanded to (path, alias) lists."""
    for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text):
        yield m.start(), m.end(), bool(m.group(1)), expand(re.sub(r"\s+", "", m.group(2)))


def expand(tree):
    out = []
    depth, start, i = 0, 0, 0
    brace = tree.find("{")
    if brace < 0:
        alias = None
        if "as" in tree and re.search(r"\bas\b", tree.replace("as", " as ", 0)):
            pass
        parts = re.split(r"(?<=\w)as(?=[A-Za-z_])", tree) if re.search(r"\w+as[A-Za-z_]\w*$", tree) and "::" in tree and not tree.split("::")[-1].startswith("as") else [tree]
        path = tree
        m = re.match(r"^(.*?)as([A-Za-z_]\w*)$", tree)
        # `a::Bas` vs `a::B as C`: whitespace was removed, so find the alias by the raw form.
        return [(tree, None)]
    prefix = tree[:brace]
    inner = tree[brace + 1:tree.rfind("}")]
    items = []
    for j, ch in enumerate(inner):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(inner[start:j])
            start = j + 1
    items.append(inner[start:])
    for item in items:
        if not item:
            continue
        if item == "self":
            out.append((prefix.rstrip(":"), None))
        else:
            out.extend(expand(prefix + item))
    return out


def inline_modules(code):
    """[(start, end, name)] of the inline `mod name { ... }` blocks of a file."""
    spans = []
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        spans.append((m.start(), i, m.group(1)))
    return spans


def inline_path(spans, pos):
    return tuple(name for start, end, name in spans if start < pos < end)


class Crate:
    def __init__(self):
        self.files = modules()
        self.code = {m: strip(open(p, encoding="utf-8").read()) for m, p in self.files.items()}
        # name -> absolute path, per module (its `use` items, which children and paths reach)
        self.imports = {}
        self.globs = {}
        self.file_of = {}
        self.pub_root = []
        for file_mod, code in self.code.items():
            spans = inline_modules(code)
            for start, _, public, paths in use_trees(code):
                mod = file_mod + inline_path(spans, start)
                names = self.imports.setdefault(mod, {})
                globs = self.globs.setdefault(mod, [])
                for raw, _ in paths:
                    raw_path, alias = split_alias(raw)
                    absolute = self.absolute(mod, raw_path.split("::"))
                    if absolute is None:
                        continue
                    if absolute[-1] == "*":
                        globs.append(absolute[:-1])
                    else:
                        names[alias or absolute[-1]] = absolute
                    if mod == () and public:
                        self.pub_root.append(alias or absolute[-1])

    def absolute(self, mod, segs):
        """The path from the crate root, or None for another crate's path."""
        segs = [s for s in segs if s]
        if not segs:
            return None
        if segs[0] == "crate":
            return tuple(segs[1:])
        if segs[0] in ("self", "super"):
            base = list(mod)
            while segs and segs[0] in ("self", "super"):
                if segs.pop(0) == "super":
                    base = base[:-1]
            return tuple(base + segs)
        if mod + (segs[0],) in self.files:
            return mod + tuple(segs)
        return None

    def resolve(self, path, seen=None):
        """(defining module, item) of a path from the crate root, following re-exports."""
        mod = ()
        rest = list(path)
        while rest and mod + (rest[0],) in self.files:
            mod += (rest.pop(0),)
        if not rest:
            return mod, None
        name = rest[0]
        seen = seen or set()
        if (mod, name) in seen:
            return mod, name
        seen.add((mod, name))
        target = self.imports.get(mod, {}).get(name)
        if target is not None and tuple(target) != tuple(path):
            return self.resolve(tuple(target) + tuple(rest[1:]), seen)
        if not re.search(r"\b(fn|struct|enum|trait|type|const|static|mod|union)\s+" + re.escape(name) + r"\b|macro_rules!\s*" + re.escape(name) + r"\b", self.code.get(mod, "")):
            for glob in self.globs.get(mod, []):
                found = self.resolve(tuple(glob) + (name,) + tuple(rest[1:]), seen)
                if found[1] is not None or found[0] != glob:
                    return found
        return mod, name

    def references(self):
        """(source file module, written absolute path, is a re-export) of every crate path."""
        for file_mod, code in self.code.items():
            spans, inline = [], inline_modules(code)
            for start, end, public, paths in use_trees(code):
                spans.append((start, end))
                mod = file_mod + inline_path(inline, start)
                for raw, _ in paths:
                    raw_path, _ = split_alias(raw)
                    absolute = self.absolute(mod, raw_path.split("::"))
                    if absolute is not None:
                        yield file_mod, tuple(s for s in absolute if s != "*"), public
            outside = list(code)
            for s, e in spans:
                outside[s:e] = " " * (e - s)
            rest = "".join(outside)
            # A name the file re-exports and also uses in its own code is a use of it.
            for start, end, public, paths in use_trees(code):
                if not public:
                    continue
                mod = file_mod + inline_path(inline, start)
                for raw, _ in paths:
                    raw_path, alias = split_alias(raw)
                    absolute = self.absolute(mod, raw_path.split("::"))
                    if absolute and absolute[-1] != "*" and names_item(rest, alias or absolute[-1]):
                        yield file_mod, absolute, False
            for m in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)", rest):
                mod = file_mod + inline_path(inline, m.start())
                absolute = self.absolute(mod, m.group(1).split("::"))
                if absolute is not None:
                    yield file_mod, absolute, False


def names_item(code, name):
    """Whether code names the item (not a field or method of that name): a type, trait or
    constant (capitalised) as a word, a function or module followed by `(`, `::` or `!`."""
    tail = r"\b" if name[:1].isupper() else r"\s*(\(|::|!)"
    return re.search(r"(?<![\w:.])" + re.escape(name) + tail, code) is not None


def split_alias(raw):
    # Whitespace is gone from the tree: `a::Bas C` became `a::BasC`; recover it from the
    # original spelling, which `expand` cannot see, by the convention that the crate writes
    # aliases only on the last segment: `Name as Alias` -> "NameasAlias". Ambiguous names are
    # resolved by checking whether the prefix before "as" is itself a known name elsewhere.
    m = re.match(r"^(.*::)?(\w+?)as([A-Z_][A-Za-z0-9_]*|[a-z_][a-z0-9_]*)$", raw)
    if m and ALIASES.get(raw):
        return ALIASES[raw]
    return raw, None


ALIASES = {}


def collect_aliases():
    for d, _, names in os.walk(SRC):
        for name in names:
            if name.endswith(".rs"):
                code = strip(open(os.path.join(d, name), encoding="utf-8").read())
                for m in re.finditer(r"\buse\s+([^;]+);", code):
                    tree = m.group(1)
                    for a in re.finditer(r"([\w:]*?)(\w+)\s+as\s+(\w+)", tree):
                        pass
                    # rebuild each aliased leaf in its whitespace-free form
                    for a in re.finditer(r"(\w+)\s+as\s+(\w+)", tree):
                        ALIASES_LEAF[a.group(1) + "as" + a.group(2)] = (a.group(1), a.group(2))


ALIASES_LEAF = {}


def split_alias(raw):  # noqa: F811 (the simple form above is kept for reading)
    head, _, leaf = raw.rpartition("::")
    if leaf in ALIASES_LEAF:
        name, alias = ALIASES_LEAF[leaf]
        return (head + "::" + name if head else name), alias
    return raw, None


def layer_table():
    """[(name, [module path prefixes], [layers it may import])] from the layering test."""
    text = open(LAYERING, encoding="utf-8").read()
    table = text[text.index("const LAYERS"):]
    table = table[:table.index("\n];")]
    rows = []
    for m in re.finditer(r'\(\s*"([^"]+)"\s*,\s*&\[([^\]]*)\]\s*,\s*&\[([^\]]*)\]\s*,?\s*\)', table):
        modules = [tuple(p.split("::")) for p in re.findall(r'"([^"]*)"', m.group(2))]
        rows.append((m.group(1), modules, re.findall(r'"([^"]*)"', m.group(3))))
    return rows


def layer_of(rows, path):
    best = None
    for index, (_, modules, _) in enumerate(rows):
        for prefix in modules:
            if path[:len(prefix)] == prefix and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    return best and best[0]


def allowed(rows, source, target):
    a, b = layer_of(rows, source), layer_of(rows, target)
    if a is None or b is None:
        return True
    name, _, knows = rows[a]
    if a == b:
        return source[0] == target[0] or name in knows
    return rows[b][0] in knows


def circles(nodes, edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    verbose = "--verbose" in sys.argv
    collect_aliases()
    crate = Crate()
    modnames = {m[0] for m in crate.files if m}
    edges, upward, root = {}, set(), []
    rows = layer_table() if os.path.exists(LAYERING) else None
    for source, path, reexport in crate.references():
        if not path:
            continue
        defining, _ = crate.resolve(path)
        # a re-export is the module's facade, not a use of what it names
        if not reexport and defining != source and crate.files.get(defining) != crate.files.get(source):
            # a module's own children and parents are part of the file graph too
            edges.setdefault(source, set()).add(defining)
        if path[0] not in modnames and source != ():
            root.append((source, path[0]))
        if rows and source and path[0] in modnames and not allowed(rows, source, defining):
            upward.add(("::".join(source), "::".join(defining),
                        rows[layer_of(rows, source)][0], rows[layer_of(rows, defining)][0]))
    rings = circles(set(crate.files), edges)
    names = crate.pub_root + [m for m in re.findall(r"^\s*pub mod (\w+)", crate.code[()], re.M)]
    if verbose:
        for u in sorted(upward):
            print("upward: %s (%s) -> %s (%s)" % u)
        for r in rings:
            print("circle: %s" % ", ".join("::".join(m) or "crate" for m in r))
        for s, n in sorted(set(root)):
            print("root import: %s uses crate::%s" % ("::".join(s), n))
    if rows:
        module_edges = {(u[0].split("::")[0], u[1].split("::")[0]) for u in upward}
        print("upward edges: %d file -> module (%d top-level module pairs)" % (len(upward), len(module_edges)))
    print("file circles: %d (largest %d files)" % (len(rings), max([len(r) for r in rings] or [0])))
    print("root imports: %d (in %d files, %d top-level modules)" % (
        len(set(root)), len({s for s, _ in root}), len({s[0] for s, _ in root})))
    print("root names: %d" % len(set(names)))


if __name__ == "__main__":
    main()
