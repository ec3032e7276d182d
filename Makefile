# pinochle-sim: the commands a user and CI run. Everything installs into .venv (Python 3.11).
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install the package with dev tools

demo: $(STAMP)  ## install, then run the main job on an example
	$(BIN)/pinochle-sim meld "AH 10H KH QH JH KH QH 9H 9H QS JD" --trump all
	$(BIN)/pinochle-sim show --seed 1 --hand 0:2

test: $(STAMP)  ## install, lint and run the test suite
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)  ## hands per second per stage
	$(BIN)/pinochle-sim bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
