#!/usr/bin/env python3
"""STS Benchmark in English and Spanish (PhilipMay/stsb-multi-mt: the STS-B pairs,
scored 0-5 by people, with a machine translation into Spanish) as the labelled set the
`fact_duplicates` bench reads. Its texts come under several licences, so it is not
shipped; it is converted where it was fetched:

    python3 scripts/stsb.py /path/to/stsb-multi-mt target/stsb.json

The path is a checkout (with data/stsb-*.csv) or the git directory the tool library's
fetch brings. STS-B's own dev split is the development part, its test split the test
part. A pair scored 4 or more ("mostly equivalent, unimportant details differ") is a
duplicate; below 4 it is not.
"""
import csv
import io
import json
import os
import subprocess
import sys


def read(source, lang, part):
    name = f"data/stsb-{lang}-{part}.csv"
    path = os.path.join(source, name)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
    else:
        text = subprocess.run(["git", f"--git-dir={source}", "show", f"HEAD:{name}"], check=True, capture_output=True, text=True).stdout
    return list(csv.reader(io.StringIO(text)))


def main():
    source, out = sys.argv[1], sys.argv[2]
    pairs = []
    for part in ("dev", "test"):
        for lang in ("en", "es"):
            for a, b, score in read(source, lang, part):
                pairs.append({"a": a, "b": b, "score": float(score), "lang": lang, "part": part})
    with open(out, "w", encoding="utf-8") as f:
        json.dump(pairs, f, ensure_ascii=False)
    print(f"{len(pairs)} pairs written to {out}")


if __name__ == "__main__":
    main()
