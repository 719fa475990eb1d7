#!/usr/bin/env python3
"""A sample of MetaTool (HowieHwong/MetaTool, MIT License, Copyright (c) 2023 Yue Huang):
199 tools with their descriptions and questions people ask that one of them answers,
for the `tool_choice_eval` bench. Converted from the repository's
dataset/data/all_clean_data.csv and dataset/plugin_des.json:

    python3 scripts/metatool.py all_clean_data.csv plugin_des.json benches/data/metatool_sample.json

Up to eight questions per tool, spread over its list; alternate questions go to the
development part (thresholds are chosen on it) and the test part.
"""
import csv
import json
import sys

PER_TOOL = 8


def main(queries_csv, descriptions_json, out):
    descriptions = json.load(open(descriptions_json, encoding="utf-8"))
    by_tool = {}
    with open(queries_csv, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            query, tool = row["Query"].strip(), row["Tool"].strip()
            if tool in descriptions and query:
                by_tool.setdefault(tool, []).append(query)
    queries = []
    for tool in sorted(by_tool):
        asked = sorted(set(by_tool[tool]))
        step = max(1, len(asked) // PER_TOOL)
        for index, query in enumerate(asked[::step][:PER_TOOL]):
            queries.append({"query": query, "tool": tool, "part": "dev" if index % 2 == 0 else "test"})
    data = {
        "source": "https://github.com/HowieHwong/MetaTool (dataset/data/all_clean_data.csv, dataset/plugin_des.json)",
        "license": "MIT License, Copyright (c) 2023 Yue Huang",
        "tools": {name: descriptions[name] for name in sorted(descriptions)},
        "queries": queries,
    }
    json.dump(data, open(out, "w", encoding="utf-8"), ensure_ascii=False, indent=0)
    print(f"{len(data['tools'])} tools, {len(queries)} questions ({sum(q['part'] == 'dev' for q in queries)} development)")


if __name__ == "__main__":
    main(*sys.argv[1:4])
