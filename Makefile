# The commands the README names. Everything installs into ./.venv; nothing global.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab test quick lint check bench clean

# Re-install only when the package description changes, so a second run is fast.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

## Open the series in JupyterLab at the first notebook (prints the URL; no browser needed).
lab: $(STAMP)
	cd notebooks && ../$(BIN)/jupyter lab 00_why_tokenization.ipynb $(LAB_ARGS)

## Install the same way, then lint and run every test (unit, property, notebooks, widgets,
## browser), two at a time: the notebooks and browser tests wait on kernels, not the CPU.
test: $(STAMP) lint
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

## The quick loop while editing: every test except notebooks and the real browser.
quick: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not notebook and not browser" $(PYTEST_ARGS)

## The linter, configured in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check .

## The attendee's set-up check: one line per check, and the fix for each failure.
check: $(STAMP)
	$(BIN)/python -m bpe_workshop.check

## Speed and memory, side by side (not tests).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV)
