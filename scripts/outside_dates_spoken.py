#!/usr/bin/env python3
"""Builds tests/data/outside/spoken.tsv from Snips' rustling-ontology Spanish training
examples, read as text: each phrase with the moment that project checks for it.

Usage: scripts/outside_dates_spoken.py TRAINING_RS > tests/data/outside/spoken.tsv
(TRAINING_RS is grammar/es/src/training.rs of github.com/snipsco/rustling-ontology at
commit acc1cf92113df1bead2a8624931b4970633a86d0; Apache-2.0 or MIT licence.) Read: the
`check_moment!` and `check_moment_with_precision!` examples of `examples_datetime` that
name a day or a moment (not a week, a month or a year, not a span, not "after").
Nothing of its code is used.

Rustling says its hours the way a Spanish speaker does ("a las tres y cuarto de la
tarde", "doce menos cinco", "las cero horas y tres minutos"), which is what the issue
asks to be read; its phrases are short, so each is tried alone, as a reminder's words.
Expected, part and kind as in recognizers.tsv (the same SHA-256 split); "?" marks an hour
of 1 to 12 said with nothing that settles the half of the day. A day said as a span from now ("dentro de
un día") is right at the default 09:00 or at now's time of day on that day.
"""
import datetime as dt
import re
import sys

from outside_dates_recognizers import future, part_of

NOW = dt.datetime(2013, 2, 12, 4, 30)
# What settles the half of the day in Spanish (a bare "5 a" is not "5 am": "el 2 a las 5";
# "mañana" alone is tomorrow).
MARKS = re.compile(r"\b(am|pm|(?:de|por) la mañana|tarde|noche|madrugada|mediod[ií]a|medianoche)\b", re.I)
RELATIVE = re.compile(r"^(dentro de|en|hace) ", re.I)
EXAMPLE = re.compile(r'^\s*example!\(v,\s*check_moment(?:_with_precision)?!\(c,\s*\[([\d,\s]+)\]([^)]*)\)[^,]*,\s*(.*)\);\s*$')


def expected_for(phrase, numbers):
    if len(numbers) == 3:
        day = dt.date(*numbers)
        at = future(dt.datetime.combine(day, dt.time(9)), NOW)
        if RELATIVE.match(phrase) and at != "!*":
            at += " or " + dt.datetime.combine(day, NOW.time()).strftime("%Y-%m-%d %H:%M")
        return at, "day"
    if len(numbers) == 6 and numbers[5] != 0:
        return None  # a second from now: no reminder moment
    moment = dt.datetime(*numbers[:5]) if len(numbers) >= 5 else dt.datetime(*numbers, 0)
    at = future(moment, NOW)
    # An hour of 1 to 12 with nothing that settles the half of the day ("a las cinco"):
    # asking back is right too. "15:00", "las cero horas" and spans from now settle it.
    asked = at != "!*" and 1 <= moment.hour <= 12 and not MARKS.search(phrase) and not RELATIVE.match(phrase)
    return ("?" if asked else "") + at, "hour"


def main(path):
    rows = {}
    in_datetime = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("pub fn "):
            in_datetime = line.startswith("pub fn examples_datetime")
        found = EXAMPLE.match(line) if in_datetime else None
        if not found or "Grain::" in found.group(2):
            continue
        numbers = [int(n) for n in found.group(1).split(",") if n.strip()]
        if len(numbers) < 3:
            continue
        for phrase in re.findall(r'"([^"]+)"', found.group(3)):
            phrase = " ".join(phrase.split())
            made = expected_for(phrase, numbers)
            if made and phrase.lower() not in rows:
                rows[phrase.lower()] = (phrase, *made)
    print("# Phrases from another project's public tests: Snips' rustling-ontology Spanish training")
    print("# examples (github.com/snipsco/rustling-ontology, grammar/es/src/training.rs at commit")
    print("# acc1cf92113df1bead2a8624931b4970633a86d0, Apache-2.0 or MIT), read as text by")
    print("# scripts/outside_dates_spoken.py; nothing of its code is used. Columns, expected,")
    print("# part and kind as in recognizers.tsv. Now is rustling's: Tuesday 12 February 2013, 04:30.")
    print(f"@ {NOW.strftime('%Y-%m-%d %H:%M')} Etc/UTC")
    for phrase, expected, kind in rows.values():
        print(f"es\t{phrase}\t{expected}\t{part_of(phrase)}\t{kind}")


if __name__ == "__main__":
    main(sys.argv[1])
