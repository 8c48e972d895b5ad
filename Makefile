# Two commands do all the set-up on a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

## run: install and run the main job (check every bundled game) with a readable summary
run: $(VENV)/.installed
	$(BIN)/rulespec list
	@for g in $$($(BIN)/rulespec list --names); do $(BIN)/rulespec check $$g || exit $$?; done

## test: install with the test extras and run the whole suite
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q

## bench: playout throughput against OpenSpiel, printed as ratios
bench: $(VENV)/.installed-test
	$(BIN)/python bench/throughput.py

clean:
	rm -rf $(VENV) build *.egg-info
