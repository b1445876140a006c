# Quick start: `make demo`, then `make test`. Each target creates .venv and installs the project
# into it when needed (again whenever pyproject.toml changes).
PYTHON ?= python3
VENV ?= .venv
VENV_FLAGS ?=
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean appliance

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@

# The product alone, without the test tools, for the box under the board (docs/install.md):
#   sudo make VENV_FLAGS=--system-site-packages appliance
appliance:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check .

demo: $(STAMP)
	$(BIN)/crokiscore sim --rules tournament-singles --seed 1 --speed 40 --live

test: lint
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/display.py
	$(BIN)/python bench/sim.py
	$(BIN)/python bench/bridge.py
	$(BIN)/python bench/render.py
	$(BIN)/python bench/daemon.py
	$(BIN)/python bench/vision.py
	if [ -n "$(REALDEV)" ]; then $(BIN)/python bench/realdev.py "$(REALDEV)"; fi

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info
