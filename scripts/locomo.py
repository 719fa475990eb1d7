#!/usr/bin/env python3
"""LoCoMo (snap-research/locomo, ACL 2024: ten long conversations between two people,
with questions whose evidence turns are annotated) as the evaluation set the
`memory_search` bench reads. The data is not ours to ship, so it is converted where
it was fetched:

    python3 scripts/locomo.py /path/to/locomo10.zip target/locomo.json

Conversations 26, 30, 41, 42, 43 are the development part (thresholds were chosen on
them), 44, 47, 48, 49, 50 the test part. The first speaker becomes the user, the
second the assistant; adversarial questions (category 5, no evidence) are left out.
"""
import datetime
import json
import re
import sys
import zipfile

DEV = {"26", "30", "41", "42", "43"}


def when(text):
    # "1:47 pm on 18 May, 2023"
    moment = datetime.datetime.strptime(re.sub(r"\s+", " ", text.replace(",", "")).strip(), "%I:%M %p on %d %B %Y")
    return moment


def convert(name, data):
    messages, ids = [], {}
    sessions = sorted((int(k.split("_")[1]), k) for k in data if re.fullmatch(r"session_\d+", k))
    for number, key in sessions:
        start = when(data[f"{key}_date_time"])
        for i, turn in enumerate(data[key]):
            ids[turn["dia_id"]] = len(messages)
            stamp = (start + datetime.timedelta(seconds=30 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
            role = "user" if turn["speaker"] == data["speaker_a"] else "assistant"
            messages.append({"role": role, "content": turn["text"], "timestamp": stamp})
    questions = []
    for qa in data["qa"]:
        evidence = [ids[e] for e in qa.get("evidence", []) if e in ids]
        if qa.get("category") == 5 or not evidence:
            continue
        questions.append({"question": qa["question"], "category": qa["category"], "evidence": evidence})
    return {"name": name, "part": "dev" if name in DEV else "test", "messages": messages, "questions": questions}


def main():
    source, target = sys.argv[1], sys.argv[2]
    out = []
    with zipfile.ZipFile(source) as archive:
        for member in sorted(archive.namelist()):
            match = re.search(r"locomo10_v2/(\d+)\.json$", member)
            if match:
                out.append(convert(match.group(1), json.loads(archive.read(member))))
    json.dump({"conversations": out}, open(target, "w"))
    print(f"{len(out)} conversations, {sum(len(c['questions']) for c in out)} questions -> {target}")


if __name__ == "__main__":
    main()
