# The commands the README names. Everything installs into ./.venv; nothing global.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab test bench clean

# Re-install only when the package description changes, so a second run is fast.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

## Open the series in JupyterLab at the first notebook (prints the URL; no browser needed).
lab: $(STAMP)
	cd notebooks && ../$(BIN)/jupyter lab 00_why_tokenization.ipynb $(LAB_ARGS)

## Install the same way, then run every test (unit, property, notebooks, widgets, browser).
test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

## Speed and memory, side by side (not tests).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV)
