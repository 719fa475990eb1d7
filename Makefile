# Sidecar — the two commands: `make run` and `make test`. Each installs what is
# missing first (system packages, Node modules; for tests, a Python venv) and builds the
# offline runtime once (llama.cpp's server from source, the demo model, the embedders,
# the speech model).

SHELL := /bin/bash
.DEFAULT_GOAL := run

VENV   := .venv
RUNTIME := target/lib/sidecar
PYTHON := $(abspath $(VENV))/bin/python
UI_SRC := $(shell find ui/src -type f 2>/dev/null) ui/index.html ui/character.html ui/vite.config.ts ui/package.json
CARGO_PROFILE ?= debug
APP    := target/$(CARGO_PROFILE)/sidecar-desktop
CARGO_FLAGS := $(if $(filter release,$(CARGO_PROFILE)),--release,)

# CI builds once from clean: incremental state would only cost disk. Nor does it keep
# line tables: they serve a backtrace, and a failed assertion or a panic names its file
# and line without them; without them our crates built 12% faster here (197 s -> 172 s)
# and the app's binary is 183 MB, not 222 MB, which the .deb packs and the update test
# downloads twice.
ifdef CI
export CARGO_INCREMENTAL := 0
export CARGO_PROFILE_DEV_DEBUG := false
endif

.PHONY: run test check deps test-deps build ui runtime test-deb test-core test-ui test-e2e test-e2e-a test-e2e-b ui-types figures package clean

## run: build everything and open the desktop app (offline model unless a provider is configured)
run: deps build
	./$(APP)

## test: install what is missing, build, and run every test (core, UI, end-to-end)
# The build waits only for the UI it embeds and the runtime: the test tools' installs,
# the fast checks and the UI's tests run beside it (most of the build's last minutes
# compile our crates one after another, on one core). The core's tests and the app's
# end-to-end tests then run side by side: both mostly wait (on the servers they start,
# on the window), and one after the other they took 4 + 12 minutes of a 34-minute CI.
# The end-to-end suite is two shards (below): three jobs on two cores, so the waits on
# the offline model and on Whisper in those tests are generous.
# The build also compiles the test binaries: in one cargo run the lower crates' tests
# compile on the core the crate chain leaves idle, and `cargo test` then only runs them.
# The .deb is packed first, while its `build` is a no-op (see the waproto note there).
test: deps
	$(MAKE) --no-print-directory -j3 -Oline test-deps check build test-ui BUILD_TARGETS="--lib --bins --tests --examples"
	$(MAKE) --no-print-directory test-deb
	$(MAKE) --no-print-directory -j3 -Oline test-core test-e2e-a test-e2e-b

# Under `make test`, clippy's lints (warnings denied) run inside the build and the test
# build themselves, with clippy-driver as the workspace's compiler: `cargo clippy` would
# check every dependency a second time, about 20 minutes on this machine's two cores.
# Benches are linted by `make check` (and built by `make figures`).
CLIPPY_DRIVER := $(shell rustc --print sysroot 2>/dev/null)/bin/clippy-driver
test: export RUSTC_WORKSPACE_WRAPPER := $(CLIPPY_DRIVER)
test: export CLIPPY_ARGS := -D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

## check: the fast checks: format, layers, clippy (every target, warnings denied), the
## UI's types and lint; under a minute on a warm tree
check: deps ui
	cargo fmt --all -- --check
	python3 scripts/layers.py
	$(if $(RUSTC_WORKSPACE_WRAPPER),,cargo clippy --workspace --all-targets -- -D warnings)
	cd ui && npm run typecheck && npm run lint

deps: .stamps/system ui/node_modules/.ready
test-deps: $(VENV)/.ready tests/mcp/node_modules/.ready

.stamps/system: scripts/install-system-deps.sh
	./scripts/install-system-deps.sh
	@mkdir -p .stamps && touch $@

$(VENV)/.ready: scripts/requirements-dev.txt Makefile | .stamps/system
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r scripts/requirements-dev.txt
	touch $@

# The offline runtime the app and the CLI find beside themselves (../lib/sidecar).
runtime: $(RUNTIME)/.ready
$(RUNTIME)/.ready: scripts/build-runtime.sh scripts/runtime-requirements.txt scripts/embeddinggemma.sh scripts/embeddinggemma-requirements.txt scripts/embeddinggemma-gguf.py scripts/whisper.sh scripts/whisper-requirements.txt scripts/whisper-ggml.py | .stamps/system
	./scripts/build-runtime.sh $(RUNTIME)
	./scripts/embeddinggemma.sh $(RUNTIME)/embeddinggemma-300m-q8_0.gguf
	./scripts/whisper.sh $(RUNTIME)
	touch $@

ui/node_modules/.ready: ui/package.json ui/package-lock.json | .stamps/system
	cd ui && npm ci --no-audit --no-fund
	touch $@

# Real MCP servers the core's tests start (installed here, never fetched at test time).
tests/mcp/node_modules/.ready: tests/mcp/package.json tests/mcp/package-lock.json | .stamps/system
	cd tests/mcp && npm ci --no-audit --no-fund
	touch $@

# The types are checked once, by `make check` (part of `make test`), not again here.
ui: ui/dist/index.html
ui/dist/index.html: $(UI_SRC) ui/node_modules/.ready
	cd ui && npm run build

build: ui runtime
	cargo build --workspace $(CARGO_FLAGS) $(BUILD_TARGETS)
	@# waproto 0.7.0's build script lists a file it writes itself as rerun-if-changed, so the
	@# next cargo command (the test build) would build it, the WhatsApp crates, the core and
	@# the shell again (~4 min here). The file is set back in time; its content is unchanged.
	find target -path '*/build/waproto-*/out/whatsapp.local.desc' -exec touch -d @0 {} +

# Four test threads on two cores: most of tests/it waits on servers it started (the
# offline model, MCP servers, loopback fakes), so two threads left the cores half idle
# (tests/it in a fresh-clone CI here: 341 s with two, 265 s with four).
# The facts by meaning and recall's ranking run a second time on EmbeddingGemma, the
# default embedder of a machine with 8 GB (the first run is on multilingual-e5-small): a
# rule tuned on one embedder must hold on the other. Tool choice has a test per embedder.
# `--workspace` keeps the features of the first run: `--test it` alone resolves them for
# the root package and built the test binary and its dependencies again (12 minutes in
# a fresh-clone CI here).
test-core:
	SIDECAR_TEST_PYTHON=$(PYTHON) cargo test --workspace $(CARGO_FLAGS) -- --test-threads=4
	SIDECAR_TEST_PYTHON=$(PYTHON) SIDECAR_TEST_EMBEDDER=gemma cargo test --workspace $(CARGO_FLAGS) --test it -- --test-threads=4 facts_meaning:: meaning::recall::

test-ui:
	cd ui && npm test

# The end-to-end suite runs as two shards side by side, each with its own D-Bus session,
# display, app processes and artifacts (.e2e/a, .e2e/b); b takes the longest files. One
# suite beside the core's tests took 16.6 minutes of a 32.5-minute CI; two take 11.7.
E2E_b := $(addprefix tests/e2e/,test_character.py test_voice.py test_layout.py test_updates.py test_crash_soak.py)
E2E_a := $(filter-out $(E2E_b),$(wildcard tests/e2e/test_*.py))

test-e2e: test-e2e-a test-e2e-b

test-e2e-a test-e2e-b: test-e2e-%:
	E2E_SHARD=$* SIDECAR_APP=$(abspath $(APP)) SIDECAR_TEST_PYTHON=$(PYTHON) SIDECAR_TEST_DEB=$(abspath $(TEST_DEB)) \
	  dbus-run-session -- $(VENV)/bin/python -m pytest -v --durations=15 $(E2E_$*)

# The .deb the end-to-end tests install into a temporary root: this build, packed as
# `make package` packs the release one (the same bundler and configuration).
TEST_DEB := target/$(CARGO_PROFILE)/bundle/deb/Sidecar_$(shell sed -n 's/^  "version": "\(.*\)",/\1/p' src-tauri/tauri.conf.json)_amd64.deb
PACKAGING_DOCS := target/packaging/changelog.gz target/packaging/sidecar.1.gz target/packaging/sidecar-desktop.1.gz
test-deb: build $(PACKAGING_DOCS)
	rm -f target/$(CARGO_PROFILE)/bundle/deb/*.deb
	ui/node_modules/.bin/tauri bundle $(if $(filter release,$(CARGO_PROFILE)),,--debug) --bundles deb \
	  --config '{"bundle":{"linux":{"deb":{"files":{"/usr/bin/sidecar":"../target/$(CARGO_PROFILE)/sidecar"}}}}}'

target/packaging/%.gz: packaging/%
	mkdir -p target/packaging && gzip -9nc $< > $@

## package: installable packages (.deb, .rpm) in target/release/bundle/, checked by lintian
package: deps .stamps/packaging $(PACKAGING_DOCS)
	$(MAKE) build CARGO_PROFILE=release
	strip target/release/sidecar target/release/sidecar-desktop
	ui/node_modules/.bin/tauri bundle --bundles deb,rpm
	lintian --fail-on error --tag-display-limit 0 target/release/bundle/deb/*.deb

.stamps/packaging:
	./scripts/install-system-deps.sh --packaging
	@mkdir -p .stamps && touch $@

## ui-types: write ui/src/types/core.ts, the UI's types of what the core sends it, from
## the Rust types (ts-rs); a test fails while the checked-in file is behind
ui-types:
	SIDECAR_WRITE_UI_TYPES=1 cargo test -p sidecar --lib ui_types

## figures: print the measured figures (footprint, launch time, time to first token)
figures: deps test-deps package
	./scripts/figures.sh

clean:
	rm -rf target ui/dist ui/node_modules tests/mcp/node_modules $(VENV) .stamps .e2e
