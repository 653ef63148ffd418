"""Where a game's time goes: a `perf` profile of the jitted kernels, function by function.

    .venv/bin/python benchmarks/perf_profile.py [--game demos] [--policy greedy] [--games 30000]
        [--frequency 2000] [--top 25]

The workloads are the benchmarks' (DĒMOS full rules 4 players, Protocole 4 players each
for themselves, L'Assemblée 10 players), one core. The script runs itself under
``perf record``; inside, it compiles the kernels into a fresh, throw-away numba cache
(functions loaded from the cache are linked into a few large symbols, compiled ones
keep one symbol each), writes the address of every compiled function to
``/tmp/perf-<pid>.map`` (perf's map for JIT code: numba's functions and its reference
counting, ``NRT_incref`` / ``NRT_decref``), plays the games, and prints the share of the
jitted time each function takes (its own time, callees excluded), next to the share of
the whole run spent in jitted code. Needs ``perf`` (Debian's ``linux-perf``) and
``kernel.perf_event_paranoid`` ≤ 2.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

DEFAULT_POLICY = {"demos": "greedy", "protocole": "cautious", "assemblee": "civic"}


def _config(game):
    """The benchmarks' configuration of ``game``."""
    if game == "demos":
        from demos_sim.demos.rules import DemosConfig
        return DemosConfig("full", "individual", 4)
    if game == "protocole":
        from demos_sim.protocole.rules import ProtocoleConfig
        return ProtocoleConfig("each", None, 4)
    from demos_sim.assemblee.rules import AssembleeConfig
    return AssembleeConfig(10)


def _symbols():
    """{address: symbol} of every compiled numba function and of numba's runtime."""
    from numba.core.dispatcher import Dispatcher
    from numba.core.runtime import nrt

    libs = [nrt.rtsys.library]
    for o in gc.get_objects():
        if isinstance(o, Dispatcher):
            libs += [c.library for c in o.overloads.values()]
    out = {}
    for lib in libs:
        mod = getattr(lib, "_final_module", None)
        for f in (mod.functions if mod is not None else ()):
            if not f.is_declaration:
                a = lib.get_pointer_to_function(f.name)
                if a:
                    out[a] = f.name
    return out


def _write_map(syms):
    addrs = sorted(syms)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for i, a in enumerate(addrs):
            end = addrs[i + 1] if i + 1 < len(addrs) else a + 4096
            fh.write(f"{a:x} {min(end - a, 1 << 18):x} {syms[a]}\n")


def _inner(a):
    from demos_sim.runner.simulate import simulate

    policy = a.policy or DEFAULT_POLICY[a.game]
    cfg = _config(a.game)
    simulate(a.game, cfg, [policy], 500, 1)                       # compile
    _write_map(_symbols())
    t = time.perf_counter()
    s = simulate(a.game, cfg, [policy], a.games, 1).summary()
    dt = time.perf_counter() - t
    print(f"{a.game} {policy}: {a.games:,} games in {dt:.2f} s, "
          f"{s['games_per_s']:,.0f} games/s, {s['rounds_per_s']:,.0f} rounds/s", flush=True)


_MANGLED = re.compile(r"_ZN(.*?)B\d+v\d+B")


def _readable(sym):
    """numba's mangled name (``_ZN9demos_sim5demos6engine11_play_roundB4v337B…``) as
    ``demos_sim.demos.engine._play_round``."""
    m = _MANGLED.match(sym)
    if not m:
        return sym
    body, parts = m.group(1), []
    while body:
        n = re.match(r"\d+", body)
        if not n:
            break
        k = int(n.group())
        parts.append(body[n.end():n.end() + k])
        body = body[n.end() + k:]
    return ".".join(parts) or sym


def _report(data, top):
    rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol",
                          "--stdio", "--percent-limit", "0.01"],
                         capture_output=True, text=True, check=True).stdout
    jit, rows = 0.0, {}
    for line in rep.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\[JIT\] tid \d+|\S+)\s+\[.\]\s+(\S+)", line)
        if m and m.group(2).startswith("[JIT]"):
            pct = float(m.group(1))
            name = _readable(m.group(3))
            if name.startswith("0x"):
                name = "(jitted code outside the map)"
            jit += pct
            rows[name] = rows.get(name, 0.0) + pct
    print(f"\njitted code: {jit:.1f}% of the samples (the rest: compiling, Python, kernel)")
    print(f"{'share of jitted time':>22}  function")
    for name, pct in sorted(rows.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{100 * pct / jit:21.1f}%  {name}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(DEFAULT_POLICY), default="demos")
    ap.add_argument("--policy", help="policy spec on every seat (default: the benchmark's)")
    ap.add_argument("--games", type=int, default=30000)
    ap.add_argument("--frequency", type=int, default=2000, help="perf samples per second")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.inner:
        return _inner(a)
    if shutil.which("perf") is None:
        sys.exit("perf_profile.py: perf is not installed (Debian: apt-get install linux-perf)")
    with tempfile.TemporaryDirectory(prefix="demos-profile-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"),
                   OPENBLAS_NUM_THREADS="1")
        data = os.path.join(tmp, "perf.data")
        cmd = ["perf", "record", "-q", "-F", str(a.frequency), "-o", data, sys.executable,
               os.path.abspath(__file__), "--inner", "--game", a.game, "--games", str(a.games)]
        if a.policy:
            cmd += ["--policy", a.policy]
        subprocess.run(cmd, env=env, check=True)
        _report(data, a.top)


if __name__ == "__main__":
    main()
