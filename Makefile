# Two commands do all the set-up on a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench clean chromium node screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

## run: install and run the main job: every bundled game's rules-clarification report
run: $(VENV)/.installed
	$(BIN)/rulespec list
	$(BIN)/rulespec report --all -o reports --budget quick --workers 2

## test: install with the test extras (Chromium for the report tests, Node for the
## JavaScript implementations conform tests) and run the suite
test: $(VENV)/.installed-test chromium node
	$(BIN)/python -m pytest -q

## chromium: the browser the report tests open reports in, and a font for the rulebooks'
## Japanese quotes (Debian's packages)
chromium:
	@{ command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -q "Noto Sans CJK"; } || { \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
	    fonts-noto-cjk) >/dev/null 2>&1 || echo "WARNING: could not install chromium and" \
	    "fonts-noto-cjk: the browser tests will be skipped or fail on Japanese text"; }

## screenshots: the pictures of docs/reports.md (docs/images/report-*.png), taken anew
screenshots: $(VENV)/.installed-test chromium
	$(BIN)/python tests/screenshots.py

## node: runs the JavaScript reference implementations `rulespec conform --exec` is tested on
node:
	@command -v node >/dev/null 2>&1 || { \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs) \
	    >/dev/null 2>&1 || echo "WARNING: could not install node: the JavaScript conform tests will be skipped"; }

## bench: playout throughput against OpenSpiel, printed as ratios
bench: $(VENV)/.installed-test
	$(BIN)/python bench/throughput.py

clean:
	rm -rf $(VENV) build *.egg-info
