#!/usr/bin/env bash
# Prints Sidecar's figures: footprint and launch time of the release app, time to first
# token, the packages. Needs `make package` first (`make figures` does it).
# COLD=1 also times a cold `make test` in a fresh clone (takes a while).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -p sidecar-desktop --features footprint-baseline --bin empty-window
echo "== desktop app =="
SIDECAR_APP=$PWD/target/release/sidecar-desktop dbus-run-session -- .venv/bin/python scripts/figures.py 2>/dev/null
echo "== the packages: sizes, and from unpacking the .deb to the first reply =="
./scripts/package-figures.sh
echo "== time to first token =="
cargo bench --bench ttft 2>/dev/null
echo "== the offline model's worker (llama.cpp's server from the runtime folder): start, first reply, idle memory =="
cargo bench --bench worker_footprint 2>/dev/null
echo "== the two built-in embedders: first vector, indexing throughput, query latency, memory =="
cargo bench --bench embedder_footprint 2>/dev/null
echo "== prompt tokens read from llama.cpp's cache over a 30-turn chat =="
cargo bench --bench prompt_cache 2>/dev/null
echo "== plans carried out: ten multi-step tasks and two stuck ones, scripted model =="
cargo bench --bench plans 2>/dev/null
echo "== a dead provider, then the demo model =="
cargo bench --bench fallback 2>/dev/null
echo "== tools that act: schema tokens per request with three MCP servers, and the MCP call overhead =="
cargo bench --bench mcp_tools 2>/dev/null
echo "== Sidecar as a server: recall at 100k messages in-process, over MCP and REST; what the local API adds to a chat turn =="
cargo bench --bench served 2>/dev/null
echo "== the local endpoint under 1,000 slow or half-open connections, and out of file descriptors: a normal request's wait, memory, log =="
cargo bench --bench endpoint_soak 2>/dev/null
echo "== other devices: a command through the link against the same called directly, an event to three devices, a soak of three devices =="
cargo bench -p sidecar-link --bench link 2>/dev/null
echo "== other devices: a reminder set from another computer, fired by the home core, shown there =="
cargo bench --bench device_reminders 2>/dev/null
echo "== mail: the first sync of 10,000 mails from a real Dovecot, a sync with nothing new, one after changes, a search =="
cargo bench -p sidecar-mail --bench first_sync 2>/dev/null
echo "== hostile sizes: a 1 GB note searched and appended to, an MCP server flooding its stderr =="
SIDECAR_TEST_PYTHON=$PWD/.venv/bin/python cargo bench --bench hostile_files 2>/dev/null
echo "== the per-turn tool choice on MetaTool's questions and tools (not ours) =="
cargo bench --bench tool_choice_eval 2>/dev/null
echo "== duplicate facts by meaning on STS-B in English and Spanish (development and test parts) =="
# STS-B (PhilipMay/stsb-multi-mt) is not in this repository: STSB_SOURCE names a
# checkout of it, or the git directory the tool library's fetch brings.
: "${STSB:=$PWD/target/stsb.json}"
export STSB
if [ ! -f "$STSB" ] && [ -n "${STSB_SOURCE:-}" ]; then python3 scripts/stsb.py "$STSB_SOURCE" "$STSB"; fi
cargo bench --bench fact_duplicates 2>/dev/null
STSB_EMBEDDER=gemma cargo bench --bench fact_duplicates 2>/dev/null
echo "== speech to text: word error rate on people's recordings (development and test parts), wait, memory =="
# FLEURS' clips come from the test fixtures of sebastian-software/cuttledoc, not in this
# repository: SPEECH_SOURCE names its checkout or the git directory the tool library's
# fetch brings; Asterisk's Spanish prompts come from Debian (scripts/speech_sets.py).
: "${SPEECH_SETS:=$PWD/target/speech-sets}"
export SPEECH_SETS
if [ ! -d "$SPEECH_SETS/asterisk-es" ] && [ -n "${SPEECH_SOURCE:-}" ]; then python3 scripts/speech_sets.py "$SPEECH_SOURCE" "$SPEECH_SETS"; fi
cargo bench -p sidecar-voice --bench speech 2>/dev/null
echo "== the same in the build \`make run\` makes (the dev profile) =="
cargo bench --profile dev -p sidecar-voice --bench speech 2>/dev/null
echo "== agent-core overhead per turn =="
cargo bench --bench turn_overhead 2>/dev/null
echo "== recall latency =="
cargo bench --bench recall 2>/dev/null
echo "== recall over 20,000 messages in the build \`make run\` makes (the dev profile) =="
RECALL_MESSAGES=20000 cargo bench --profile dev --bench recall 2>/dev/null
echo "== recall over 20,000 messages and 10,000 mails from people who matter (the dev profile) =="
RECALL_MESSAGES=20000 RECALL_MAILS=10000 cargo bench --profile dev --bench recall 2>/dev/null
echo "== vector search: in-memory scan against sqlite-vec =="
cargo bench --bench vector_scan 2>/dev/null
echo "== recall evidence on the evaluation set (words vs hybrid), embedding throughput =="
cargo bench --bench recall_eval 2>/dev/null
echo "== recall evidence on real conversations (LoCoMo: development and test parts), and latency at 100k real messages =="
# LoCoMo (snap-research/locomo) is not in this repository: LOCOMO_ZIP names its
# locomo10.zip (the repository the tool library's fetch brings holds it).
: "${LOCOMO:=$PWD/target/locomo.json}"
: "${LOCOMO_DIR:=$PWD/target/locomo-stores}"
export LOCOMO LOCOMO_DIR
if [ ! -f "$LOCOMO" ] && [ -n "${LOCOMO_ZIP:-}" ]; then python3 scripts/locomo.py "$LOCOMO_ZIP" "$LOCOMO"; fi
if [ -f "$LOCOMO" ]; then
  mkdir -p "$LOCOMO_DIR"
  cargo bench --bench locomo_recall 2>/dev/null
  cargo bench --bench cross_language 2>/dev/null
  cargo bench --bench locomo_scale 2>/dev/null
else
  echo "(skipped: set LOCOMO_ZIP to LoCoMo's locomo10.zip)"
fi
echo "== turn time by message size (10 kB to 10 MB) =="
cargo bench --bench long_text 2>/dev/null
echo "== prompt build and context guard =="
cargo bench --bench context_guard 2>/dev/null
echo "== prompt tokens per request, 500-turn replay vs full history =="
cargo test --release --test it context_replay:: -- --nocapture 2>&1 | grep '^replay:' 
echo "== dates: parse time over the 556-phrase table, and the table's pass rate =="
cargo bench --bench dates 2>/dev/null
cargo test --release -p sidecar-dates --test table -- --nocapture 2>&1 | grep -E "^(es|en|outside)[: (]"
echo "== dates: sentences from other projects' tests (Recognizers-Text, rustling-ontology): right, asked, silently wrong =="
cargo test --release -p sidecar-dates --test outside -- --nocapture 2>&1 | grep -E "^(recognizers|rustling), "
echo "== reminders and proactivity (the 30-day simulation: messages a day for a silent, an engaged and a mixed user) =="
cargo bench --bench proactive 2>/dev/null
cargo test --release --test it proactive::thirty -- --nocapture 2>&1 | grep -E '^(medium|high|Silent|Engaged|Mixed):'
echo "== scheduled tasks: wake-up delay, prompt tokens of a run, the cost of a look =="
cargo bench --bench tasks 2>/dev/null
echo "== calendar: sync of 5,000 events against Radicale (first, nothing changed, 10 changed), a week read back =="
SIDECAR_TEST_PYTHON=$PWD/.venv/bin/python cargo bench --bench calendar_sync 2>/dev/null
echo "== calendar: a subscribed .ics feed of 5,000 events (first, nothing changed, 10 changed, in memory) =="
SIDECAR_TEST_PYTHON=$PWD/.venv/bin/python cargo bench --bench calendar_feed 2>/dev/null
echo "== hostile input at random: calendars (nesting, rules, zones, titles) and recordings (WAV headers, Ogg/Opus packets), worst case =="
cargo bench -p sidecar-calendar --bench random_calendars 2>/dev/null
cargo bench -p sidecar-voice --bench random_recordings 2>/dev/null
echo "== imports: a ChatGPT export and a large calendar =="
cargo bench --bench imports 2>/dev/null
echo "== phone channels: Telegram reminder delay, memory per channel =="
cargo bench --bench phone_channels 2>/dev/null
echo "== local models: download throughput, resume, restart on a switch =="
cargo bench --bench model_download 2>/dev/null

if [ "${COLD:-0}" = 1 ]; then
  echo "== cold make test in a fresh clone =="
  dir=$(mktemp -d)
  git clone -q . "$dir/sidecar"
  start=$(date +%s)
  (cd "$dir/sidecar" && CI=true make test > "$dir/make-test.log" 2>&1)
  echo "cold make test: $(( $(date +%s) - start )) s (log: $dir/make-test.log)"
fi
echo "== Memory search on LoCoMo (outside conversations; dev and test parts) =="
if [ -n "${LOCOMO_ZIP:-}" ]; then
  python3 scripts/locomo.py "$LOCOMO_ZIP" target/locomo.json >/dev/null
  LOCOMO=target/locomo.json cargo bench --bench memory_search 2>/dev/null
  echo "== Evidence recall on LoCoMo, by kind of question, words and hybrid at 1k/2k/4k (dev and test parts) =="
  LOCOMO=target/locomo.json cargo bench --bench locomo_recall 2>/dev/null
else
  echo "set LOCOMO_ZIP to data/locomo10.zip of snap-research/locomo (the fetch tool brings it)"
fi
