# The two commands of the README: `make demo` and `make test`.
# Both set up everything they need (system packages included) in .venv at the repository root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT ?= runs/demo

.PHONY: demo test lint setup system-deps clean

system-deps:
	@missing=""; \
	command -v bwrap >/dev/null 2>&1 || missing="$$missing bubblewrap"; \
	$(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: system-deps $(STAMP)

demo: setup
	$(BIN)/truepass check-suite mini
	$(BIN)/truepass run --suite mini --solver oracle --solver noop --solver baseline:templates --out $(OUT)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 tests

clean:
	rm -rf $(VENV) runs
