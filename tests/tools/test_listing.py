"""Listing commands (``--help`` of demos-sim and of every command, ``policies``,
``variants``) read metadata only: they never compile a numba kernel, nor load one from the
cache, so they answer at once on a fresh clone (a cold cache took 3 min 19 s to list the
policies when listing compiled them).

Each command runs in a fresh interpreter, with an empty NUMBA_CACHE_DIR and numba's
``Dispatcher.compile`` (the one door to compiling or loading a kernel, eager signatures
included) made to fail loudly; no file may be written into the cache folder."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from demos_sim.cli import build_parser

HOOK = """
import sys
import numba.core.dispatcher as d

def refuse(self, sig):
    raise SystemExit(f"COMPILED {self.py_func.__module__}.{self.py_func.__qualname__}")

d.Dispatcher.compile = refuse
from demos_sim.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _commands() -> list[str]:
    import argparse

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


# ``policies`` reads each game's declared table (``<game>/policies/declared.py``), not the
# policy modules, whose functions are compiled for POLICY_SIG when defined.
LISTINGS = [["--help"], *[[c, "--help"] for c in _commands()],
            *[[cmd, "--game", g] for cmd in ("policies", "variants")
              for g in ("demos", "protocole", "assemblee")]]


@pytest.mark.parametrize("args", LISTINGS, ids=" ".join)
def test_listing_compiles_no_kernel(args, tmp_path):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    p = subprocess.run([sys.executable, "-c", HOOK, *args], capture_output=True, text=True,
                       env=env, timeout=120)
    assert "COMPILED" not in p.stderr, p.stderr[-2000:]
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip()
    assert [f for f in cache.rglob("*") if f.is_file()] == []   # nothing cached either


def test_the_list_covers_every_command():
    # the sub-commands of demos-sim, written out: a new one must be listed here too
    assert set(_commands()) == {"simulate", "compare", "record", "policies", "variants", "run",
                                "report", "tournament", "skill", "analyse", "tune",
                                "tune-bot", "check-policy", "serve", "sweep", "solve",
                                "train-apprentice"}
