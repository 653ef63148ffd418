# Two entry points: `make demo` and `make test`. Each creates .venv when missing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

.PHONY: demo test test-fast docs bench analyses serve skill skill-belief apprentice clean

# Python keeps the bytecode of what it imports (__pycache__/, ignored by git) even where the
# environment asks it not to (PYTHONDONTWRITEBYTECODE): uv installs the dependencies without
# bytecode, so otherwise every Python process the tests start (workers, command-line runs,
# notebook kernels, pools) compiled numpy, pandas, scipy, numba and matplotlib from source
# again — 4.6 s an import of the four in a fresh clone against 1.5 s with their bytecode.
unexport PYTHONDONTWRITEBYTECODE

# demos-sim and what it runs on, installed by uv (about 20 s from PyPI; pip took about
# 2 min for the same); pip when uv cannot be had or cannot install (a machine that reaches
# only a local package index: pip reads its pip.conf, uv does not).
UV_INSTALL = $(PY) -m uv pip install --quiet --python $(PY)
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	{ $(PY) -m pip install --quiet uv && $(UV_INSTALL) -e . ; } || $(PY) -m pip install --quiet -e .
	touch $(STAMP)

# The test and documentation tools on top (pytest, hypothesis, selenium, mkdocs …).
$(TSTAMP): $(STAMP)
	$(UV_INSTALL) -e '.[test]' || $(PY) -m pip install --quiet -e '.[test]'
	touch $(TSTAMP)

# What a Carré of 15 or 60 points changes (experiments/demo.toml); on a fresh clone most
# of its time is numba compiling the game's kernels once: 1 min 38 s in all from a fresh clone
# on an idle 2-core machine at f758617 (install 20 s, compile and 245,760 games 64 s).
demo: $(STAMP)
	$(VENV)/bin/demos-sim run experiments/demo.toml --workers 2
	$(VENV)/bin/demos-sim report results/demo/

# The designer's analyses: every experiment in experiments/analyses/ at each
# bot rung, summaries and plots in results/analyses/<name>/, results/analyses/report.html.
analyses: $(STAMP)
	$(VENV)/bin/demos-sim analyse --workers 2

# The committed skill traces (results/skill/): each doubling of ismcts's budget against the
# one below and the gap to the omniscient reference: DĒMOS full 4p and 2v2, Protocole each
# for themselves and all together level 2 (about 45 min on this machine, all four; the
# 4-player trace alone 22 min, most of it @256 → @512 and its ceiling); then belief, the
# search that weights its deals by the others' actions, against the reference that sees
# the other hands (make skill-belief alone: about 10 min on two workers).
skill: $(STAMP) skill-belief
	$(VENV)/bin/demos-sim skill --game demos --rules full --players 4 --policy ismcts --budgets 4,8,16,32,64,128,256,512 --games 800 --seed 2026 --ceiling omniscient --out results/skill/demos-4p
	$(VENV)/bin/demos-sim skill --game demos --mode 2v2 --policy ismcts --budgets 4,8,16,32,64,128 --games 800 --seed 2026 --ceiling omniscient --out results/skill/demos-2v2
	$(VENV)/bin/demos-sim skill --game protocole --mode each --players 4 --policy ismcts --budgets 2,4,8,16,32,64 --games 800 --seed 2026 --ceiling omniscient --out results/skill/protocole-each-4p
	$(VENV)/bin/demos-sim skill --game protocole --mode coop --level 2 --players 4 --policy ismcts --budgets 2,4,8,16,32,64 --games 800 --seed 2026 --ceiling omniscient --out results/skill/protocole-coop-l2-4p

skill-belief: $(STAMP)
	$(VENV)/bin/demos-sim skill --game demos --rules full --players 4 --policy belief --budgets 8,16,32,64,128 --games 800 --seed 2026 --ceiling omniscient_hands --out results/skill/demos-4p-belief --workers 2

# The DĒMOS apprentice's weights (demos_sim/demos/policies/apprentice_weights.py): ismcts@256's
# choices at every discard turn and veto of 2,400 games of tuned self-play and 1,200 of the
# apprentice's own, fitted by a conditional logit; the same seed writes the same file (about
# 25 minutes on this machine's 2 cores).
apprentice: $(STAMP)
	$(VENV)/bin/demos-sim train-apprentice --teacher ismcts@256 --games 2400 --dagger-games 1200 --seed 0 --workers 2

# Both tiers run on the machine's two cores (pytest-xdist, a file per worker at a time),
# after compiling the games' kernels into numba's cache in two balanced processes
# (demos_sim/warm.py: otherwise both workers compile the same kernels on a fresh checkout).
test: $(TSTAMP)
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m demos_sim.warm
	$(PY) -m pytest -q -n 2 --dist loadfile

# The fast tier for iteration (about 3¼ minutes on a warm numba cache: 198 s at fdceaa0): the import contracts
# and every test not marked slow (tests/conftest.py, SLOW).
test-fast: $(TSTAMP)
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m demos_sim.warm
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not slow"

# The documentation site (mkdocs-material) into site/: strict, so a broken link or anchor
# stops the build; the command line and variants reference, the record format and the
# designer's answer pages are generated from the parsers, the rules and results/analyses
# (docs/hooks/generate.py). Open site/index.html.
docs: $(TSTAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

# The what-if explorer in the browser: http://127.0.0.1:8050/ (Ctrl-C to stop).
serve: $(STAMP)
	$(VENV)/bin/demos-sim serve --port 8050

# Every benchmark at a size that keeps the whole under a few minutes (each two-core run
# a few seconds long: shorter ones measure the workers' start-up, not their speed); each
# appends its figures to benchmarks/history.csv, and the last step prints them next to
# the last committed figures (git show HEAD:benchmarks/history.csv) as speed ratios.
# Where the time goes: benchmarks/perf_profile.py (perf, function by function).
bench: $(STAMP)
	$(PY) benchmarks/bench_demos.py --games 60000 --repeats 3 --policies greedy,random,heuristic --pure-seconds 2
	$(PY) benchmarks/bench_protocole.py --games 300000 --repeats 3
	$(PY) benchmarks/bench_assemblee.py --games 40000 --repeats 3
	$(PY) benchmarks/bench_rungs.py --game demos --seconds 5
	$(PY) benchmarks/bench_rungs.py --game protocole --seconds 5
	$(PY) benchmarks/history.py

clean:
	rm -rf $(VENV) build site *.egg-info
