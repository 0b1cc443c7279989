# The commands the README names. Everything installs into ./.venv; nothing global.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab test quick lint check bench site clean venv

# Re-install only when the package description changes, so a second run is fast. A .venv made
# by a Python older than pyproject.toml's requires-python (3.11) is refused with the way out.
$(STAMP): pyproject.toml | venv
	@$(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "$(VENV) was made with $$($(BIN)/python -V 2>&1); the series needs Python 3.11 or newer." >&2; \
	  echo "Run: make clean, then the same make command with PYTHON=python3.11 (or newer)." >&2; \
	  exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,hub]"
	touch $(STAMP)

## The virtual environment, made whole or not at all. Debian and Ubuntu ship the part of Python
## that puts pip into a new environment (ensurepip) in a package of its own, python3-venv;
## without it `python3 -m venv` leaves a .venv with no pip. So that is checked first, and a
## .venv whose pip does not run is made again.
venv:
	@$(BIN)/python -m pip --version >/dev/null 2>&1 || { \
	  rm -rf $(VENV); \
	  $(PYTHON) -m ensurepip --version >/dev/null 2>&1 || { \
	    echo "$(PYTHON) cannot make a virtual environment with pip in it (no ensurepip module)." >&2; \
	    echo "On Debian or Ubuntu: sudo apt-get install python3-venv, then run make again." >&2; \
	    exit 1; }; \
	  echo "$(PYTHON) -m venv $(VENV)"; \
	  $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }; }

## Open the series in JupyterLab at the first notebook (prints its URL; no browser needed),
## through the same command a learner with the wheel runs: `bpe-workshop start`. In the clone
## the notebooks are opened where they are (nothing is copied); LAB_ARGS go to Jupyter.
lab: $(STAMP)
	$(BIN)/bpe-workshop start notebooks -- $(LAB_ARGS)

## Install the same way, then lint and run every test (unit, property, notebooks, widgets,
## browser), two at a time: the notebooks and browser tests wait on kernels, not the CPU.
test: $(STAMP) lint
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

## The quick loop while editing: every test except notebooks, the real browser, the wheel
## and the classroom hub.
quick: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not notebook and not browser and not wheel and not hub" $(PYTEST_ARGS)

## The linter, configured in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check .
	@echo "bpe_workshop, modules and lines per layer (the package's weight):"
	@for d in bpe_workshop $$(dirname bpe_workshop/*/__init__.py); do \
	  printf '  %-24s %3s modules %6s lines\n' "$$d" "$$(ls $$d/*.py | wc -l)" "$$(cat $$d/*.py | wc -l)"; \
	done
	@printf '  %-24s %3s modules %6s lines\n' total "$$(ls bpe_workshop/*.py bpe_workshop/*/*.py | wc -l)" \
	  "$$(cat bpe_workshop/*.py bpe_workshop/*/*.py | wc -l)"

## The attendee's set-up check: one line per check, and the fix for each failure.
check: $(STAMP)
	$(BIN)/bpe-workshop check

## Speed and memory, side by side (not tests).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/run_all.py

## The reading copy: every notebook run, as a static site in $(SITE) (open its index.html).
SITE ?= build/site
site: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[site]"
	$(BIN)/bpe-workshop site $(SITE)

clean:
	rm -rf $(VENV)
