#!/usr/bin/env python3
"""Figures of the workspace's faces (issue 72): per crate, its `pub mod`s and the module
paths other code reaches inside it; the assembly's pre-workspace aliases still used; and
functions that return `Result<_, String>`. Read-only; prints a table.

Usage: scripts/faces.py [ROOT]
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
SOURCES = ["crates", "src", "src-tauri/src", "tests", "benches"]


def rust_files():
    for top in SOURCES:
        for path in (ROOT / top).rglob("*.rs"):
            if "target" not in path.parts and "node_modules" not in path.parts:
                yield path


def crate_of(path):
    rel = path.relative_to(ROOT).parts
    return rel[1] if rel[0] == "crates" else None


def crate_names():
    names = {}
    for manifest in (ROOT / "crates").glob("*/Cargo.toml"):
        name = re.search(r'^name = "([^"]+)"', manifest.read_text(), re.M).group(1)
        names[manifest.parent.name] = name.replace("-", "_")
    return names


def aliases():
    """The assembly's `pub use` of a crate's module under the assembly's own path."""
    lib = (ROOT / "src/lib.rs").read_text()
    found = set()
    for m in re.finditer(r"^pub use (sidecar_\w+)(?:::\{([^}]*)\}|::(\w+)| as (\w+));", lib, re.M):
        if m.group(4):
            found.add(m.group(4))
        for name in (m.group(2) or m.group(3) or "").split(","):
            name = name.strip()
            if name and name[0].islower():
                found.add(name.split(" as ")[-1])
    return sorted(found)


def main():
    names = crate_names()
    files = {p: p.read_text() for p in rust_files()}
    print(f"{'crate':<12} {'pub mod':>8} {'mod':>5} {'paths in':>9} {'uses in':>8}")
    total_pub = total_paths = total_uses = 0
    for folder, name in sorted(names.items()):
        own = [t for p, t in files.items() if crate_of(p) == folder]
        pub_mods = sum(len(re.findall(r"^\s*pub mod \w+", t, re.M)) for t in own)
        mods = sum(len(re.findall(r"^\s*(?:pub(?:\(\w+\))? )?mod \w+", t, re.M)) for t in own)
        # Paths into a module of the crate from outside it: `sidecar_x::module::`.
        outside = [t for p, t in files.items() if crate_of(p) != folder]
        # A lower-case name in braces is a module only if the crate declares one so named
        # (`sidecar_x::{tokens, delta}`: `tokens` may be a module, `delta` a function).
        declared = {m for t in own for m in re.findall(r"^\s*(?:pub(?:\(\w+\))? )?mod (\w+)", t, re.M)}
        paths = set()
        uses = 0
        for t in outside:
            for m in re.finditer(rf"\b{name}::((?:[a-z_][a-z0-9_]*::)+)", t):
                paths.add(m.group(1))
                uses += 1
            for m in re.finditer(rf"\b{name}::\{{([^}}]*)\}}", t):
                for part in m.group(1).split(","):
                    part = part.strip()
                    if part[:1].islower() and part.split("::")[0] in declared:
                        paths.add(part.split("::")[0] + "::")
                        uses += 1
        total_pub += pub_mods
        total_paths += len(paths)
        total_uses += uses
        print(f"{folder:<12} {pub_mods:>8} {mods:>5} {len(paths):>9} {uses:>8}")
    print(f"{'all':<12} {total_pub:>8} {'':>5} {total_paths:>9} {total_uses:>8}")
    found = aliases()
    alias_uses = 0
    for p, t in files.items():
        prefix = "crate" if p.relative_to(ROOT).parts[0] == "src" else "sidecar"
        for a in found:
            alias_uses += len(re.findall(rf"\b{prefix}::{a}\b", t))
    print(f"assembly aliases: {len(found)} names, {alias_uses} uses")
    strings = 0
    for p, t in files.items():
        strings += len(re.findall(r"fn [^{;]*->\s*Result<[^{;]*,\s*String>", t))
    print(f"functions returning Result<_, String>: {strings}")


if __name__ == "__main__":
    main()
