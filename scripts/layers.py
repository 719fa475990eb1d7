#!/usr/bin/env python3
"""The core's layers: no import circle between files, and no import upward.

usage: scripts/layers.py [--write-known]   (run from the project root; `make check` runs it)

Reads every `.rs` file under `src/` and the workspace's crates, `crates/*/src` (the CLI in
`src/bin` is a face, on top, and is left out; test modules are cut at `#[cfg(test)]`).
A crate's modules are named with its library name first (`sidecar_domain::clock`), and a
module the core re-exports from a crate (`pub use sidecar_domain::clock;`) is that crate's. A file uses another when it names it
by a path: `crate::a::b`, `super::x`, `self::x`, or a child module it declares
(`mod context; … context::ContextRows`). `use` trees are expanded (`crate::{a, b::{c}}`),
and a path goes to the longest module that is a file.

Two rules, both failures:
- **No circle.** Files that reach each other are one group that cannot be read, tested or
  moved apart. A folder's `mod.rs` tied only to its own children is not a circle: it
  declares them and they use what it defines.
- **No import upward.** `scripts/layers.toml` gives each module a layer, bottom first; a
  file may use its own layer and those below. The arrows that run upward today are listed
  in `scripts/layers-known.txt`: a new one fails, and so does a listed one that is gone
  (delete its line; the list only shrinks). `--write-known` rewrites the list.
"""
import os
import re
import sys
from collections import defaultdict

try:
    import tomllib
except ImportError:  # Python before 3.11 (Ubuntu 22.04): the table is simple enough to read here.
    tomllib = None

ROOT = "src"
CRATES = "crates"
TABLE = "scripts/layers.toml"
KNOWN = "scripts/layers-known.txt"


def crate_roots():
    """library name -> its `src` folder, for each crate under crates/."""
    roots = {}
    for name in sorted(os.listdir(CRATES)) if os.path.isdir(CRATES) else []:
        manifest = os.path.join(CRATES, name, "Cargo.toml")
        if os.path.exists(manifest):
            package = re.search(r'^name\s*=\s*"([^"]+)"', open(manifest, encoding="utf-8").read(), re.M).group(1)
            roots[package.replace("-", "_")] = os.path.join(CRATES, name, "src")
    return roots


def module_files(root, prefix=()):
    """module path (tuple) -> file, for a library's files."""
    files = {}
    for dp, _, fs in os.walk(root):
        if os.path.relpath(dp, root).split(os.sep)[0] == "bin":
            continue
        for f in fs:
            if f.endswith(".rs"):
                p = os.path.join(dp, f)
                rel = os.path.relpath(p, root)[:-3].split(os.sep)
                if rel[-1] == "mod":
                    rel = rel[:-1]
                if rel == ["lib"]:
                    rel = []
                files[prefix + tuple(rel)] = p
    return files


def source(path):
    """The file's code without comments, strings and test modules."""
    text = open(path, encoding="utf-8", errors="replace").read()
    text = text.split("#[cfg(test)]")[0]
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", text[i:]).group(0))
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand(tree):
    """`a::{b, c::{d as e}}` -> ["a::b", "a::c::d@e"] (`@` keeps the name it is used by)."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+(\w+)", r"@\1", tree))
    if "{" not in tree:
        return [tree]
    head, rest = tree.split("{", 1)
    body = rest[: rest.rindex("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += (ch == "{") - (ch == "}")
        cur += ch
    parts.append(cur)
    out = []
    for part in filter(None, parts):
        for tail in expand(part):
            out.append(head[:-2] if tail == "self" else head + tail)
    return out


USE = re.compile(r"\b(pub(?:\([\w:]+\))?\s+)?use\s+([^;]+);")
PATH = re.compile(r"(?<![\w:])((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::\w+)+)")


def edges_of(files, crates):
    """file -> file -> the names it takes; a name a folder re-exports (`pub use
    child::Name`) is taken from the child that defines it, and a module re-exported
    whole (`pub use sidecar_domain::clock;`) is the module it names."""
    texts = {mod: source(path) for mod, path in files.items()}

    def resolver(mod, text, aliases):
        here = list(mod)
        parent = list(mod[:-1]) if mod else []
        children = set(re.findall(r"^\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+(\w+)\s*;", text, re.M))
        own = [mod[0]] if mod and mod[0] in crates else []

        def resolve(p):
            parts = [x for x in p.split("::") if x]
            if not parts:
                return None
            head = parts[0]
            if head == "crate":
                start, parts = own, parts[1:]
            elif head == "super":
                start, parts = parent, parts[1:]
                while parts and parts[0] == "super":
                    start, parts = start[:-1], parts[1:]
            elif head == "self":
                start, parts = here, parts[1:]
            elif head in children or tuple(here + [head]) in aliases:
                start = here
            elif head in crates:
                start, parts = [head], parts[1:]
            else:
                return None
            full = start + parts
            for n in range(len(full), 0, -1):
                if tuple(full[:n]) in aliases:
                    full = list(aliases[tuple(full[:n])]) + full[n:]
                    break
            for n in range(len(full), 0, -1):
                if tuple(full[:n]) in files:  # the name is what follows the module (`Lang` in `words::Lang::En`)
                    return tuple(full[:n]), full[n] if n < len(full) else full[-1]
            # An item of the crate's root (`crate::Companion`): lib.rs, whose re-export
            # names the module that defines it.
            if full and not start and () in files:
                return (), full[0]
            return None

        return resolve

    # Modules re-exported whole, read first: their users name them by the new path.
    aliases = {}
    for _ in range(3):  # an alias of an alias
        for mod, text in texts.items():
            resolve = resolver(mod, text, aliases)
            for m in USE.finditer(text):
                if not m.group(1):
                    continue
                for p in expand(m.group(2)):
                    path, _, alias = p.partition("@")
                    hit = resolve(path)
                    if hit and hit[0] and hit[0] != mod and hit[0][-1] == path.split("::")[-1]:
                        aliases[mod + (alias or hit[0][-1],)] = hit[0]

    found = []  # (file, target, name)
    reexports = defaultdict(dict)  # file -> name -> target
    for mod, text in texts.items():
        resolve = resolver(mod, text, aliases)
        for m in USE.finditer(text):
            for p in expand(m.group(2)):
                hit = resolve(p.partition("@")[0])
                if hit and hit[0] != mod:
                    found.append((mod, *hit))
                    if m.group(1):
                        reexports[mod][hit[1]] = hit[0]
        for m in PATH.finditer(USE.sub("", text)):
            hit = resolve(m.group(1))
            if hit and hit[0] != mod:
                found.append((mod, *hit))

    edges = defaultdict(lambda: defaultdict(set))
    for mod, target, name in found:
        for _ in range(5):  # follow re-exports of re-exports
            if name in reexports[target] and reexports[target][name] != mod:
                target = reexports[target][name]
            else:
                break
        if target != mod and target != ():
            edges[mod][target].add(name)
    return edges


def circles(files, edges):
    index, low, stack, on, groups, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
                groups.append(group)

    for v in list(files):
        if v not in index:
            visit(v)

    def own_folder(group):
        shortest = min(group, key=len)
        return all(m[: len(shortest)] == shortest for m in group)

    return [g for g in groups if not own_folder(g)]


def read_table(path):
    if tomllib:
        return tomllib.load(open(path, "rb"))
    text = re.sub(r"#[^\n]*", "", open(path, encoding="utf-8").read())
    lists = {name: re.findall(r'"([^"]*)"', body) for name, body in re.findall(r"(\w+)\s*=\s*\[(.*?)\]", text, re.S)}
    return {"order": lists.pop("order"), "layers": lists}


def layer_table():
    table = read_table(TABLE)
    order = {name: i for i, name in enumerate(table["order"])}
    modules = {}
    for name, prefixes in table["layers"].items():
        if name not in order:
            sys.exit(f"{TABLE}: layer {name!r} is not in `order`")
        for prefix in prefixes:
            modules[tuple(prefix.split("::"))] = name
    return order, modules


def layer_of(mod, modules):
    for n in range(len(mod), 0, -1):
        if mod[:n] in modules:
            return modules[mod[:n]]
    return None


def main():
    crates = crate_roots()
    files = module_files(ROOT)
    for lib, root in crates.items():
        files.update(module_files(root, (lib,)))
    edges = edges_of(files, crates)
    name = lambda m: os.path.relpath(files[m])
    failed = False

    groups = circles(files, edges)
    for n, group in enumerate(sorted(groups, key=len, reverse=True), 1):
        failed = True
        inside = set(group)
        print(f"circle {n}: {len(group)} files")
        for a in sorted(group, key=name):
            for b in sorted(edges[a], key=name):
                if b in inside:
                    print(f"  {name(a)} -> {name(b)}: {', '.join(sorted(edges[a][b]))}")

    order, modules = layer_table()
    unplaced = sorted(name(m) for m in files if m and layer_of(m, modules) is None)
    if unplaced:
        failed = True
        print(f"{len(unplaced)} file(s) have no layer in {TABLE}: " + ", ".join(unplaced))
    upward = {}
    for a, targets in edges.items():
        la = layer_of(a, modules)
        for b, names in targets.items():
            lb = layer_of(b, modules)
            if la and lb and order[lb] > order[la]:
                upward[f"{name(a)} -> {name(b)}"] = (la, lb, names)

    if "--write-known" in sys.argv:
        with open(KNOWN, "w") as out:
            out.write("# Imports that run up the layers of scripts/layers.toml today: each is a move\n")
            out.write("# still to make. scripts/layers.py fails on one not listed, and on a listed one\n")
            out.write("# that is gone. Do not add lines; delete them as the moves are made.\n")
            for arrow in sorted(upward):
                la, lb, _ = upward[arrow]
                out.write(f"{arrow}    # {la} -> {lb}\n")
        print(f"wrote {len(upward)} upward imports to {KNOWN}")
        return 1 if failed else 0

    known = set()
    if os.path.exists(KNOWN):
        for line in open(KNOWN):
            line = line.split("#")[0].strip()
            if line:
                known.add(line)
    new = sorted(set(upward) - known)
    gone = sorted(known - set(upward))
    for arrow in new:
        la, lb, names = upward[arrow]
        print(f"upward import: {arrow} ({la} uses {lb}: {', '.join(sorted(names))})")
    for arrow in gone:
        print(f"no longer imported, delete its line from {KNOWN}: {arrow}")
    failed |= bool(new or gone)
    arrows = sum(len(t) for t in edges.values())
    print(
        f"{len(files)} files, {arrows} imports, {len(groups)} circle(s), "
        f"{len(upward)} upward ({len(upward) - len(new)} known, {len(new)} new)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
