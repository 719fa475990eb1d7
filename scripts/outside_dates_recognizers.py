#!/usr/bin/env python3
"""Builds tests/data/outside/recognizers.tsv from Microsoft Recognizers-Text's public
date-time test specs, read as text: each sentence with the one moment that project
resolves in it, at the reference time of its test.

Usage: scripts/outside_dates_recognizers.py SPECS_DIR > tests/data/outside/recognizers.tsv
(SPECS_DIR is Specs/DateTime of github.com/microsoft/Recognizers-Text; MIT licence.)
Read: {Spanish,English}/{TimeParser,DateTimeParser,DateParser,DateTimeModel}.json, the
sentences whose one result is a date, a time or a date and time. Nothing of its code is
used.

Expected, as in dates.tsv: a day alone is all day at 09:00 (Sidecar's default); a
moment already past is "!*" (a reminder must refuse it); a time alone is its next
occurrence after now. Where the hour could be either half of the day ("a las 7", no
"pm", no part of the day), the row starts with "?": asking back is right, and so is the
resolved time; alternatives are joined by " or " (so is midnight on a date said as 24:00,
which Recognizers puts at the day's start and ISO 8601 at its end). A moment with no year
that the model spec gives only as gone takes the future reading the parser spec gives
the same timex at the same reference, if it gives one. The part ("dev" or "test") is fixed
by the SHA-256 of the sentence, so rows never move.
"""
import datetime as dt
import hashlib
import json
import re
import sys

DEFAULT_REF = "2016-11-07T00:00:00"
FILES = ["TimeParser", "DateTimeParser", "DateParser", "DateTimeModel"]
# What settles which half of the day an hour is in.
MARKS = re.compile(
    r"\b(am|pm|a\.m\.?|p\.m\.?|\d+\s*[ap]\b|mañana|manana|tarde|noche|madrugada|mediod[ií]a|medianoche|morning|afternoon|evening|night|tonight|noon|midnight|dawn|lunch)\b|\d[ap]m?\b|\d[ap]\.m",
    re.I,
)


def part_of(sentence):
    return "dev" if int(hashlib.sha256(sentence.encode()).hexdigest(), 16) % 2 == 0 else "test"


def future(moment, ref):
    return "!*" if moment <= ref else moment.strftime("%Y-%m-%d %H:%M")


def next_time(text, ref):
    t = dt.time.fromisoformat(text)
    at = dt.datetime.combine(ref.date(), t)
    return at if at > ref else at + dt.timedelta(days=1)


def ambiguous(text, hour):
    """An hour of 1 to 12 said with nothing that settles the half of the day."""
    if not 1 <= hour <= 12 or MARKS.search(text):
        return False
    return not re.search(r"\b0\d[:.h]\d\d", text)


def parser_rows(entries, kind):
    for entry in entries:
        results = entry.get("Results") or []
        if len(results) != 1:
            continue
        ref = dt.datetime.fromisoformat(entry.get("Context", {}).get("ReferenceDateTime", DEFAULT_REF))
        value = (results[0].get("Value") or {}).get("FutureResolution") or {}
        text = results[0].get("Text", "")
        try:
            if kind == "time" and "time" in value:
                at = next_time(value["time"], ref)
                yield entry["Input"], ref, future(at, ref), ambiguous(text, at.hour % 12 or 12), "hour"
            elif "dateTime" in value:
                at = dt.datetime.fromisoformat(value["dateTime"])
                yield entry["Input"], ref, future(at, ref), ambiguous(text, at.hour % 12 or 12), "hour"
            elif "date" in value:
                day = dt.date.fromisoformat(value["date"])
                yield entry["Input"], ref, future(dt.datetime.combine(day, dt.time(9)), ref), False, "day"
        except ValueError:
            continue


def parser_futures(entries):
    """Each (reference, timex) the parser specs resolve, with its future reading."""
    futures = {}
    for entry in entries:
        ref = entry.get("Context", {}).get("ReferenceDateTime", DEFAULT_REF)
        for result in entry.get("Results") or []:
            value = result.get("Value") or {}
            moment = (value.get("FutureResolution") or {}).get("dateTime")
            if value.get("Timex") and moment:
                futures[(ref, value["Timex"])] = dt.datetime.fromisoformat(moment)
    return futures


def model_rows(entries, futures):
    for entry in entries:
        results = entry.get("Results") or []
        if len(results) != 1:
            continue
        kind = results[0].get("TypeName", "").removeprefix("datetimeV2.")
        if kind not in ("date", "time", "datetime"):
            continue
        ref = dt.datetime.fromisoformat(entry.get("Context", {}).get("ReferenceDateTime", DEFAULT_REF))
        values = (results[0].get("Resolution") or {}).get("values") or []
        moments = []
        try:
            for v in values:
                if kind == "time":
                    moments.append(next_time(v["value"], ref))
                elif kind == "date":
                    moments.append(dt.datetime.combine(dt.date.fromisoformat(v["value"]), dt.time(9)))
                else:
                    moments.append(dt.datetime.fromisoformat(v["value"]))
                    # A moment with no year that the model spec gives only as gone
                    # ("8:00:31 de la mañana, 14 de octubre"): the parser spec's future
                    # reading of the same timex at the same reference is Recognizers' too.
                    ahead = futures.get((entry.get("Context", {}).get("ReferenceDateTime", DEFAULT_REF), v.get("timex")))
                    if ahead and moments[-1] <= ref:
                        moments.append(ahead)
        except (ValueError, KeyError):
            continue
        if not moments:
            continue
        if kind == "date" or len({(m.hour, m.minute) for m in moments}) == 1:
            # Past and future readings of one moment ("domingo"): a reminder takes the next.
            ahead = [m for m in moments if m > ref]
            at = min(ahead) if ahead else max(moments)
            hour_said = kind != "date" and ambiguous(results[0].get("Text", ""), at.hour % 12 or 12)
            expected = future(at, ref)
            if kind == "datetime" and at.hour == at.minute == 0 and re.search(r"\b24\b", results[0].get("Text", "")):
                # "el 27/11 a las 24": Recognizers writes the day's first moment; 24:00 ends
                # the day (ISO 8601), which is how Sidecar reads midnight on a date. Both right.
                expected = " or ".join(e for e in (expected, future(at + dt.timedelta(days=1), ref)) if e != "!*") or "!*"
            yield entry["Input"], ref, expected, hour_said, "day" if kind == "date" else "hour"
        elif len(moments) == 2 and len({m.hour % 12 for m in moments}) == 1:
            # Recognizers' own am/pm pair: asking is right, either reading ahead too.
            ahead = sorted(future(m, ref) for m in moments if m > ref)
            if ahead:
                yield entry["Input"], ref, " or ".join(ahead), True, "hour"


def main(specs):
    rows = {}
    for lang, folder in (("es", "Spanish"), ("en", "English")):
        futures = {}
        for name in ("DateTimeParser",):
            try:
                futures.update(parser_futures(json.load(open(f"{specs}/{folder}/{name}.json", encoding="utf-8-sig"))))
            except FileNotFoundError:
                pass
        for name in FILES:
            try:
                entries = json.load(open(f"{specs}/{folder}/{name}.json", encoding="utf-8-sig"))
            except FileNotFoundError:
                continue
            made = model_rows(entries, futures) if name == "DateTimeModel" else parser_rows(entries, "time" if name == "TimeParser" else "")
            for sentence, ref, expected, asked, kind in made:
                sentence = " ".join(sentence.split())
                if "\t" in sentence or (lang, sentence.lower()) in rows:
                    continue
                asked = asked and expected != "!*"
                rows[(lang, sentence.lower())] = (lang, sentence, ref, ("?" if asked else "") + expected, kind)
    by_ref = {}
    for lang, sentence, ref, expected, kind in rows.values():
        by_ref.setdefault(ref, []).append((lang, sentence, expected, kind))
    print("# Sentences from another project's public tests: Microsoft Recognizers-Text's date-time")
    print("# specs (github.com/microsoft/Recognizers-Text, Specs/DateTime/{Spanish,English}, MIT")
    print("# licence), read as text by scripts/outside_dates_recognizers.py; nothing of its code is used.")
    print("# Columns: language, sentence, expected, part, kind. Expected as in dates.tsv, and: \"!*\" a")
    print("# moment already past (any error is right); a leading \"?\" marks an hour that could be")
    print("# either half of the day (asking back is right too); \" or \" joins readings that are")
    print("# each right. Part: \"dev\" rows may guide changes to the reader; \"test\" rows are only")
    print("# measured (fixed by the SHA-256 of the sentence). Kind: \"hour\" when an hour is said,")
    print("# \"day\" for a day alone. Zone: UTC.")
    for ref in sorted(by_ref):
        print(f"@ {ref.strftime('%Y-%m-%d %H:%M')} Etc/UTC")
        for lang, sentence, expected, kind in by_ref[ref]:
            print(f"{lang}\t{sentence}\t{expected}\t{part_of(sentence)}\t{kind}")


if __name__ == "__main__":
    main(sys.argv[1])
