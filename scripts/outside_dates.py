#!/usr/bin/env python3
"""Builds tests/data/outside/duckling.tsv from Duckling's public time corpora, read as
text: every `examples (datetime (Y, M, D, h, m, s) Grain) [...]` phrase with the moment
Duckling expects at its reference time (Tuesday 12 February 2013, 04:30, UTC-2).

Usage: scripts/outside_dates.py EN_CORPUS.hs ES_CORPUS.hs > tests/data/outside/duckling.tsv
(Duckling/Time/EN/Corpus.hs and ES/Corpus.hs from github.com/facebook/duckling.)
A day alone is all day at 09:00 (Sidecar's default); a moment already past is "!*" (a
reminder must refuse it); week, month, year and quarter grains are left out. The part
("dev" or "test") is fixed by the SHA-256 of the phrase, so rows never move.
"""
import datetime as dt
import hashlib
import re
import sys

REF = dt.datetime(2013, 2, 12, 4, 30)
EXAMPLE = re.compile(r'examples\s*\(datetime\s*\((\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\)\s*(\w+)\)\s*\[(.*?)\n\s*\]', re.S)


def rows(path):
    text = open(path, encoding="utf-8").read()
    text = text[text.index("allExamples ::"):]
    for m in EXAMPLE.finditer(text):
        try:
            at = dt.datetime(*map(int, m.groups()[:6]))
        except ValueError:
            continue  # Duckling's own impossible dates
        for phrase in dict.fromkeys(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(8))):
            yield phrase, at, m.group(7)


def main(en, es):
    seen = set()
    print("@ 2013-02-12 04:30 Etc/GMT+2")
    for lang, path in (("en", en), ("es", es)):
        for phrase, at, grain in rows(path):
            if (lang, phrase.lower()) in seen or grain in ("Week", "Month", "Year", "Quarter"):
                continue
            seen.add((lang, phrase.lower()))
            when = at.replace(hour=9, minute=0, second=0) if grain == "Day" else at
            expected = "!*" if when <= REF else when.strftime("%Y-%m-%d %H:%M")
            part = "dev" if int(hashlib.sha256(phrase.encode()).hexdigest(), 16) % 2 == 0 else "test"
            print(f"{lang}\t{phrase}\t{expected}\t{part}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
