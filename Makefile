# Two commands do all the set-up on a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# An editable install of a package with mapped folders (setup.py maps models/ and
# properties/ into rulespec) always ends with setuptools' notice "Editable installation":
# it says only that an import finder is used, so it is the one build message not shown.
PIP    := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip
# test processes (pytest-xdist): one per core; `make test TEST_WORKERS=0` runs in one.
# --dist load: each process takes the next test when it is done; with the tests marked
# slow first (tests/conftest.py), the long proofs do not leave one core idle at the end;
# --durations=20 lists the slowest tests, the ones to look at when the suite grows
TEST_WORKERS ?= auto
PYTEST_ARGS  ?=

.PHONY: run test bench clean chromium node screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# `make run` installs what the README's tour uses too: OpenSpiel (`--policy mcts`) and
# pytest (`pytest models/hawaii`, the plugin)
$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(PIP) install -q -e '.[openspiel,pytest]'
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(BIN)/python
	$(PIP) install -q -e '.[test]'
	touch $@ $(VENV)/.installed

## run: install and run the main job: every bundled game's rules-clarification report
run: $(VENV)/.installed
	$(BIN)/rulespec list
	$(BIN)/rulespec report --all -o reports --budget quick --workers 2

## test: install with the test extras (Chromium for the report tests, Node for the
## JavaScript implementations conform tests) and run the suite
test: $(VENV)/.installed-test chromium node
	$(BIN)/python -m pytest -q --durations=20 $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) \
	  --dist load) $(PYTEST_ARGS)

## chromium: the browser the report tests open reports in, and a font for the Japanese
## quotes in the reports (Debian's packages)
chromium:
	@{ command -v chromium && dpkg-query -W -f='$${Status}' fonts-noto-cjk 2>/dev/null \
	     | grep -q "ok installed"; } >/dev/null 2>&1 || { \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	     chromium fonts-noto-cjk) >/dev/null 2>&1 \
	  || echo "WARNING: could not install chromium and fonts-noto-cjk: the browser tests" \
	          "will be skipped or show no Japanese"; }

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
