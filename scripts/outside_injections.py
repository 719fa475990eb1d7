#!/usr/bin/env python3
"""Builds tests/data/outside/injections.tsv from LLM Guard's public prompt-injection tests,
read as text: each prompt with the label its authors gave it (injection or not).

Usage: scripts/outside_injections.py TEST_FILE > tests/data/outside/injections.tsv
(TEST_FILE is tests/input_scanners/test_prompt_injection.py of github.com/protectai/llm-guard;
MIT licence.) Nothing of its code is used. The part ("dev" or "test") is fixed by the
SHA-256 of the text, so rows never move; newlines and tabs are written as spaces.
"""
import ast
import hashlib
import sys

source = open(sys.argv[1], encoding="utf-8").read()
rows = []
for node in ast.walk(ast.parse(source)):
    if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "parametrize"):
        continue
    for case in node.args[1].elts:
        texts = [ast.literal_eval(e) for e in case.elts if isinstance(e, (ast.Constant, ast.BinOp))]
        text = next(t for t in texts if isinstance(t, str))
        valid = next(e.value for e in case.elts if isinstance(e, ast.Constant) and isinstance(e.value, bool))
        rows.append(("benign" if valid else "injection", " ".join(text.split())))

print("# Prompts of LLM Guard's public tests (github.com/protectai/llm-guard,")
print("# tests/input_scanners/test_prompt_injection.py, MIT licence), read as text by")
print("# scripts/outside_injections.py; nothing of its code is used. Columns: label")
print("# (injection: its authors expect it refused; benign: let through), part, text.")
seen = set()
for label, text in rows:
    if text in seen:
        continue
    seen.add(text)
    part = "dev" if hashlib.sha256(text.encode()).digest()[0] % 2 == 0 else "test"
    print(f"{label}\t{part}\t{text}")
