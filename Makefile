# Quick start: `make demo`, then `make test`. Each target creates .venv and installs the project
# into it when needed (again whenever pyproject.toml changes).
PYTHON ?= python3
VENV ?= .venv
VENV_FLAGS ?=
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean appliance system-packages

# Debian's packages the club network's tests and bench run for real: the broker, a browser and
# its driver. Installed when missing (as root, or through sudo); quick when they are there.
DEBIAN_PACKAGES := mosquitto chromium chromium-driver
DEBIAN_FILES := /usr/sbin/mosquitto /usr/bin/chromium /usr/bin/chromedriver

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

system-packages:
	@for f in $(DEBIAN_FILES); do test -x $$f || missing=1; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
		else echo "install Debian's $(DEBIAN_PACKAGES) (as root: apt-get install" \
			"$(DEBIAN_PACKAGES))" >&2; exit 1; fi; \
		echo "installing Debian's $(DEBIAN_PACKAGES)"; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			$(DEBIAN_PACKAGES) >/dev/null; \
	fi

# the suite on up to four cores at once (each test takes its own free port and temporary folder); a single
# file or test runs on one with plain `.venv/bin/pytest PATH`
test: lint system-packages
	$(BIN)/python -m pytest -n auto --maxprocesses 4

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP) system-packages
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/display.py
	$(BIN)/python bench/sim.py
	$(BIN)/python bench/bridge.py
	$(BIN)/python bench/render.py
	$(BIN)/python bench/daemon.py
	$(BIN)/python bench/vision.py
	$(BIN)/python bench/club.py
	if [ -n "$(REALDEV)" ]; then $(BIN)/python bench/realdev.py "$(REALDEV)"; fi

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info
