# pinochle-sim: the commands a user and CI run. Everything installs into .venv (Python 3.11).
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed


.PHONY: install demo test quicktest lint bench compile-plans experiments clean clean-cache

# The package's bytecode is compiled once here: an editable install writes none, and where
# PYTHONDONTWRITEBYTECODE is set Python would compile every module at every command's start
# (0.14 s of each command).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster,agents]'
	$(BIN)/python -m compileall -q pinochle_sim
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install the package with dev tools, Dask and the agent frameworks

demo: $(STAMP)  ## install, simulate 1e6 hands, write the report
	$(BIN)/pinochle-sim run --hands 1e6 --seed 0 --out results/runs/demo --overwrite
	$(BIN)/pinochle-sim report results/runs/demo
	@echo "Open results/runs/demo-report/report.md (charts beside it)."

# The suite runs on every core (pytest-xdist, one test file per worker at a time: files share
# compiled kernels); numba's on-disk cache is safe to share between the workers.
test: $(STAMP)  ## install, lint and run the whole test suite (what CI runs)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n auto --dist loadfile

quicktest: $(STAMP)  ## the suite without the long oracle comparisons
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)  ## hands per second per stage
	$(BIN)/pinochle-sim bench

compile-plans: $(STAMP)  ## re-record the compile helper's plans (after a kernel's arguments change)
	$(BIN)/python experiments/compile_plans.py

STUDIES := meld_by_trump_length go_set pass_value partner_meld meld_distribution bid_vs_meld \
           bidding_side_tricks auction_summary three_hand two_hand win_probability calibrate_bidding \
           strategy_lab
experiments: $(STAMP)  ## regenerate every study in results/ (1e6-hand runs of three presets)
	@for s in $(STUDIES) full_report; do $(BIN)/python experiments/$$s.py || exit 1; done

clean-cache:  ## drop numba's compiled-code caches (one folder per source version)
	rm -rf "$${XDG_CACHE_HOME:-$$HOME/.cache}/pinochle-sim"
	find pinochle_sim -name '*.nbi' -delete -o -name '*.nbc' -delete

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
