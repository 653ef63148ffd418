"""A plugin runs as plain Python under NUMBA_DISABLE_JIT=1 (to step through it in a
debugger), and plays exactly the games it plays compiled.

Both runs happen in subprocesses (NUMBA_DISABLE_JIT is read when numba is imported);
a few games only: plain Python is slow.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())

SCRIPT = r"""
import json, sys, warnings
warnings.filterwarnings("ignore")
import numba
import numpy as np
from demos_sim.bits import highest_bit, lowest_bit, popcount
from demos_sim.registry import load_plugin
from demos_sim.demos import layout as L, position
from demos_sim.demos.record import play_logged
from demos_sim.demos.rules import DemosConfig
from demos_sim.sim_common import chunk_game_keys

load_plugin(sys.argv[1])
rng = np.random.default_rng(1)
xs = [int(x) for x in rng.integers(-2**63, 2**63 - 1, 300, dtype=np.int64)]
xs += [1, 2, 3, 2**39, 2**39 + 2**7, -1, -2**63, 2**63 - 1]
bits = [[int(popcount(np.int64(x))), int(lowest_bit(np.int64(x))), int(highest_bit(np.int64(x)))]
        for x in xs]
games = []
for setup, pols in [(("full", "individual", 4), ["first_bot", "greedy", "random", "heuristic"]),
                    (("full", "2v2+1", 5), ["first_bot"]),
                    (("simplified", "individual", 3), ["first_bot", "greedy", "first_bot"])]:
    for key in chunk_game_keys(5, 0, 0, 2):
        _, res, diag = play_logged(DemosConfig(*setup), pols, key, check_obs=True)
        games.append([res.tolist(), diag.tolist()])
choice = position(hand="7S 8S 2H 5D 1C", table="9S", kind="secret").decide("first_bot")
print(json.dumps({"nojit": bool(numba.config.DISABLE_JIT), "xs": xs, "bits": bits,
                  "games": games, "choice": choice.text}))
"""


def _run(disable_jit: bool) -> dict:
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    if disable_jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    p = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "examples" / "my_first_bot.py")],
                       capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "Warning" not in p.stderr, p.stderr[-3000:]   # rng's uint64 wraps stay quiet
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_a_plugin_plays_the_same_games_with_and_without_jit():
    plain = _run(True)
    jit = _run(False)
    assert plain["nojit"] and not jit["nojit"]           # the two runs really differ in kind
    assert plain["games"] == jit["games"]                 # M2 check on: diag equal too
    assert all(d[0] > 0 for _, d in plain["games"])       # decisions were checked
    assert plain["choice"] == jit["choice"] == "discard 1C, take 9S"
    # bits.py's plain-Python popcount / lowest_bit / highest_bit agree with the LLVM
    # intrinsics and with a reference on two's-complement 64-bit words
    assert plain["bits"] == jit["bits"]
    for x, (pc, lb, hb) in zip(plain["xs"], plain["bits"]):
        u = x & (2**64 - 1)
        assert pc == bin(u).count("1")
        if u:
            assert lb == (u & -u).bit_length() - 1
            assert 2**hb <= u < 2**(hb + 1)
