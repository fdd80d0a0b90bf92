# Everything a developer or CI needs, from nothing but python3 (>= 3.11) and make.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SOURCES = $(wildcard scoreboard tests bench firmware tools hardware image/test)
# Bytecode caches (__pycache__, ignored by git) halve the start-up of every Python process the
# tests start and pytest's own collection; an environment that turns them off is not followed.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: sim test tmux chromium mosquitto postgresql lint format bench gallery diagram schematic mutate random-play clean system-test tournament-test image image-test

# `make sim` serves the web face too, on localhost only (its address is under the keys).
# `make sim SIM_MQTT=localhost` publishes the simulated table to that MQTT broker as well
# (HOST or HOST:PORT); `SIM_CONFIG=path.toml` runs on a config of your own ([mqtt] there too).
# `make sim SIM_LANG=ru` starts the simulator in Russian (uk, ru or en; its l key changes it).
# LANG is the locale, so the variable is SIM_LANG; `make sim LANG=ru` works too, and that LANG
# (no locale) is then kept out of the simulator's environment.
LANG_GIVEN := $(if $(filter command line,$(origin LANG)),$(filter uk ru en,$(LANG)))
SIM_LANG ?= $(if $(LANG_GIVEN),$(LANG))
sim: $(STAMP)
	$(if $(LANG_GIVEN),env -u LANG )$(BIN)/scoreboard sim --web$(if $(SIM_LANG), --lang $(SIM_LANG))$(if $(SIM_MQTT), --mqtt $(SIM_MQTT))$(if $(SIM_CONFIG), --config $(SIM_CONFIG))

# The suite in TEST_WORKERS processes (pytest-xdist): the tests that wait on a real process
# (storage faults, the simulator, kill -9, chromium) overlap their waits, so four on two cores
# (pytest 74-76 s wall here, quiet; on a slower two-core machine three took 140 s where four
# took 123 s, and six 122 s where four took 118 s); worksteal evens out the long ones.
# Every test keeps to its own tmp_path, so any order and any split is safe.
TEST_WORKERS ?= 4
test: $(STAMP) tmux chromium mosquitto postgresql
	$(BIN)/ruff check $(SOURCES)
	@# Imports run down only: the contracts in pyproject.toml ([tool.importlinter]).
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

# The whole install and boot as a Pi sees it: an arm64 Debian 12 root (cached), install.sh run
# in it by an admin with sudo, booted with systemd-nspawn. Needs root; not part of `make test`.
system-test:
	systemd/system-test/run

# The card image a club flashes (issue 23): build/image/scoreboard-<version>-arm64.img.xz and
# the signed update to that version (.raucb), from Debian 12 arm64 (cached) and this checkout.
# Needs root; the club's update key is made in ~/.config/scoreboard/update-keys if missing.
image:
	image/build

# The image booted in QEMU (-M virt) and checked from outside: first boot, a settings
# mistake, 20 power cuts, signed, broken and unsigned updates (see image/test). Needs root
# and the image (`make image`); about an hour under emulation. Not part of `make test`.
image-test: $(STAMP)
	$(BIN)/python image/test

# Issue 22's Done-when: a 32-player double elimination on 8 table processes, a real Mosquitto
# (stopped for two minutes on the way) and a real `scoreboard club`, on SQLite and PostgreSQL.
# About five minutes (4 min 41 s here: 2 min of each run is the broker away); not in `make test`.
tournament-test: $(STAMP) mosquitto postgresql
	TOURNAMENT_OUTAGE=120 $(BIN)/python -m pytest -s -p no:cacheprovider tests/tournament_play.py

lint: $(STAMP)
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)

format: $(STAMP)
	$(BIN)/ruff format $(SOURCES)
	$(BIN)/ruff check --fix $(SOURCES)

bench: $(STAMP)
	$(BIN)/python bench/replay_speed.py
	$(BIN)/python bench/undo_speed.py
	$(BIN)/python bench/replay_memory.py
	$(BIN)/python bench/archive_startup.py
	$(BIN)/python bench/pocket_counting.py
	$(BIN)/python bench/link_torture.py
	$(BIN)/python bench/power_cut.py
	$(BIN)/python bench/display_speed.py
	$(BIN)/python bench/appliance_figures.py
	$(BIN)/python bench/sim_idle.py
	$(BIN)/python bench/setup_press.py
	$(BIN)/python bench/web_latency.py
	$(BIN)/python bench/club_page.py
	$(BIN)/python bench/desk.py
	$(BIN)/python bench/attack_memory.py
	$(BIN)/python bench/flood.py
	$(BIN)/python bench/signing.py

# Mutation testing of the rules, journal, lifecycle, pocket counting and debounce (issue 14):
# slow (tens of minutes), so not part of `test`. Re-runs only what changed since the last run.
MUTATE_CHILDREN ?= 2
# Random play's long run (issue 19): 100,000 sequences through the real table, every invariant
# after every step, in as many processes as cores (`make test` runs 2,000). Prints; half an hour.
RANDOM_PLAY_SEQUENCES ?= 100000
random-play: $(STAMP)
	$(BIN)/python bench/random_play.py $(RANDOM_PLAY_SEQUENCES)

mutate: $(STAMP)
	@$(BIN)/python -c 'import mutmut' 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[sim,test,web,desk,mutate]'
	@mkdir -p mutants
	@# The tests' files in a folder of mutmut's own, emptied after: a mutant killed mid-test
	@# (a runaway journal, a timeout) leaves its files, and pytest keeps a dead run's for days.
	@rm -rf mutants/tmp && mkdir -p mutants/tmp
	TMPDIR=$(CURDIR)/mutants/tmp nice -n 10 $(BIN)/mutmut run --max-children $(MUTATE_CHILDREN) >mutants/run.log 2>&1 \
	  || { tail -n 40 mutants/run.log; exit 1; }
	@# mutmut keeps a verdict until the code it mutated changes: the survivors are run again,
	@# so a test written since their run is given its chance to kill them.
	@survivors="$$($(BIN)/python tools/mutation_report.py --survivors)"; \
	  [ -z "$$survivors" ] || TMPDIR=$(CURDIR)/mutants/tmp nice -n 10 $(BIN)/mutmut run \
	  --max-children $(MUTATE_CHILDREN) $$survivors >mutants/rerun.log 2>&1 \
	  || { tail -n 40 mutants/rerun.log; exit 1; }
	@rm -rf mutants/tmp
	$(BIN)/python tools/mutation_report.py

gallery: $(STAMP)
	$(BIN)/scoreboard gallery --out docs/gallery

diagram: $(STAMP)
	$(BIN)/python -m scoreboard.core.lifecycle > docs/lifecycle.md

schematic: $(STAMP)
	$(BIN)/python hardware/schematic.py

# tests/test_sim_terminal.py runs `scoreboard sim` in a real 80x24 terminal: tmux, from apt
# where it is missing (as root; elsewhere that test skips and says why).
tmux:
	@command -v tmux >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	  && apt-get update -qq && apt-get install -y -qq tmux >/dev/null; } \
	  || echo "tmux is missing and cannot be installed here: the 80x24 sim test will skip"

# tests/test_net_browser.py drives Debian's chromium through Playwright (no browser download is
# possible): from apt where it is missing (as root; elsewhere those tests skip and say why).
chromium:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	  && apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } \
	  || echo "chromium is missing and cannot be installed here: the browser tests will skip"

# The MQTT tests start their own Mosquitto (a real broker, on a free loopback port): from apt
# where it is missing (as root; elsewhere those tests skip and say why).
mosquitto:
	@command -v mosquitto >/dev/null || test -x /usr/sbin/mosquitto || { [ "$$(id -u)" = 0 ] \
	  && command -v apt-get >/dev/null && apt-get update -qq && apt-get install -y -qq mosquitto >/dev/null; } \
	  || echo "mosquitto is missing and cannot be installed here: the MQTT tests will skip"

# The club database's tests run on SQLite and on a real PostgreSQL they start themselves in a
# temporary folder (tests/postgres.py): Debian's server from apt where it is missing (as root;
# elsewhere those tests skip and say why).
postgresql:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] \
	  && command -v apt-get >/dev/null && apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; } \
	  || echo "PostgreSQL is missing and cannot be installed here: its database tests will skip"

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { \
	  echo "python3 -m venv failed: on Debian / Raspberry Pi OS run 'sudo apt install python3-venv'"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[sim,test,web,desk]'
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis mutants
