"""Is a user's DĒMOS policy fit to play, and how good? (``demos-sim check-policy``)

For every policy a plugin registers:

1. **Decisions** — games of every setup (rules × mode × players) under three variant
   sets (the defaults; the rarer decisions: favourite suits, optional Media, the
   Independent acting; X2 announcements with ``team_talk = hands`` and pooled trios),
   with the policy in every seat and the engine's M2 check on (``C_CHECK_OBS``: every
   decision is asked again on a state whose hidden cards were reshuffled, RULES.md M2).
   The policy runs inside a *guard* that also asks each decision twice with the same
   random stream and checks that it returns an index into its options and leaves
   ``obs`` and ``opts`` as they were. The first failure is explained in words: which
   decision kind, which setup, what was answered and what the options were. The
   restricted forms (``name:flag``) are checked too.
2. **Tournament** — a short seat-rotated match against ``greedy`` on common deals, with
   the ``match`` function the caller passes (the command passes
   :func:`demos_sim.tournament.match`, which sits above the games): its win share with
   a 95% interval.

:func:`check_policies` returns the number of failing policies; the command itself is
:mod:`demos_sim.check_policy`.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass, field

import numpy as np

from demos_sim import ConfigError
from demos_sim.demos import engine as E
from demos_sim.demos import kit
from demos_sim.demos import layout as L
from demos_sim.demos.rules import DemosConfig
from demos_sim.jit import kernel
from demos_sim.registry import N_PARAMS, POLICY_SIG
from demos_sim.rng import below
from demos_sim.sim_common import chunk_game_keys

#: every (rules, mode, players) the engine plays (D2.2, D9.1)
SETUPS = [("full", "individual", 3), ("full", "individual", 4), ("full", "individual", 5),
          ("simplified", "individual", 3), ("simplified", "individual", 4),
          ("simplified", "individual", 5), ("full", "2v2", 4), ("full", "2v3", 5),
          ("full", "2v2+1", 5)]
#: the variant sets of the observation test: defaults, the rarer decisions, X2 + D9.2
VARIANT_SETS = [{}, {"favourite_suit_bonus": 10, "media_optional": True,
                     "media_targets_revealed": True, "independent_double_media": "act"},
                {"announced_trio": True, "team_talk": "hands", "team_trio": "pooled"}]

# ------------------------------------------------------------------ the guard
# A guarded policy gets a longer parameter row: the policy's own N_PARAMS, then the
# guard's record of its first failure and its scratch copies of opts and obs.
F_NONE, F_INDEX, F_OPTS, F_OBS, F_REPEAT, F_M2, F_ENGINE = range(7)
G_CODE = N_PARAMS
G_KIND, G_IDX, G_IDX2, G_N, G_SEAT, G_ROUND, G_ONLY = range(N_PARAMS + 1, N_PARAMS + 8)
G_FOPTS = N_PARAMS + 9                 # the options of the first failure
G_OPTS = G_FOPTS + L.MAXOPT            # scratch: opts as given
G_OBS = G_OPTS + L.MAXOPT              # scratch: obs as given
GUARD_LEN = G_OBS + L.OBS_LEN
_guards: dict = {}


def guard(fn):
    """``fn`` wrapped so that its first failure is recorded in ``params[N_PARAMS:]``.

    Failures: an index outside ``[0, n_opts)`` (then option 0 is played, the game goes
    on), a change to ``opts`` or ``obs`` (undone), a different answer when the same
    decision is asked again with the same random stream. With ``params[G_ONLY] = k + 1``
    only decisions of kind ``k`` go to ``fn``, the others are uniform at random.
    """
    if fn in _guards:
        return _guards[fn]

    def guarded(cfg, obs, opts, n_opts, params, rng):
        if params[G_ONLY] > 0 and obs[L.O_KIND] != params[G_ONLY] - 1:
            return below(rng, 0, n_opts)
        for i in range(n_opts):
            params[G_OPTS + i] = opts[i]
        for i in range(L.OBS_LEN):
            params[G_OBS + i] = obs[i]
        own = params[:N_PARAMS]
        saved = rng[0]
        idx = fn(cfg, obs, opts, n_opts, own, rng)
        after = rng[0]
        code = F_NONE
        for i in range(n_opts):
            if opts[i] != params[G_OPTS + i]:
                code = F_OPTS
                opts[i] = np.int64(params[G_OPTS + i])
        for i in range(L.OBS_LEN):
            if obs[i] != params[G_OBS + i]:
                if code == F_NONE:
                    code = F_OBS
                obs[i] = np.int64(params[G_OBS + i])
        rng[0] = saved
        idx2 = fn(cfg, obs, opts, n_opts, own, rng)
        rng[0] = after
        for i in range(n_opts):
            opts[i] = np.int64(params[G_OPTS + i])
        for i in range(L.OBS_LEN):
            obs[i] = np.int64(params[G_OBS + i])
        if code == F_NONE and idx2 != idx:
            code = F_REPEAT
        if code == F_NONE and (idx < 0 or idx >= n_opts):
            code = F_INDEX
        if code != F_NONE and params[G_CODE] == 0:
            params[G_CODE] = code
            params[G_KIND] = obs[L.O_KIND]
            params[G_IDX] = idx
            params[G_IDX2] = idx2
            params[G_N] = n_opts
            params[G_SEAT] = obs[L.O_SEAT]
            params[G_ROUND] = obs[L.O_ROUND]
            for i in range(n_opts):
                params[G_FOPTS + i] = params[G_OPTS + i]
        if idx < 0 or idx >= n_opts:
            return 0
        return idx

    _guards[fn] = kernel(POLICY_SIG, allocates=True, cache=False)(guarded)
    return _guards[fn]


# ------------------------------------------------------------------ playing checked games
@dataclass
class Failure:
    code: int
    setup: tuple
    variants: dict
    game: int
    kind: int = -1
    idx: int = 0
    idx2: int = 0
    seat: int = 0
    round: int = 0
    options: list = field(default_factory=list)


def play_checked(fn, params: np.ndarray, config: DemosConfig, keys,
                 only: int = -1) -> tuple[np.ndarray, list]:
    """Play the games ``keys`` with ``fn`` guarded in every seat and the M2 check on
    (``only``: decisions of that kind alone go to ``fn``, the others at random).

    Returns the engine's summed diagnostics (``D_*``) and, per game, the guard's first
    failure as ``(game, params row)`` or nothing.
    """
    cfg = config.to_array(check_obs=True)
    g = guard(fn)
    fns = (g,) * L.MAXP
    prm = np.zeros((L.MAXP, GUARD_LEN), np.float64)
    prm[:, :N_PARAMS] = params
    st = np.zeros(L.ST_LEN, np.int64)
    # one spare row: a policy reading past its own row (obs[OBS_LEN + …], another seat's
    # observation) reads memory of this array, and the M2 check catches it
    obs = np.zeros((L.MAXP + 1, L.OBS_LEN), np.int64)[:L.MAXP]
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    wk = np.zeros(L.WK_LEN, np.int64)
    log = np.zeros(2, np.int64)
    res = np.zeros(L.RES_LEN, np.int64)
    total = np.zeros(E.DIAG_LEN, np.int64)
    fails = []
    for gi, key in enumerate(keys):
        diag = np.zeros(E.DIAG_LEN, np.int64)
        prm[:, N_PARAMS:] = 0
        prm[:, G_ONLY] = only + 1
        E.play_game(fns, cfg, prm, np.uint64(key), st, obs, opts, prng, wk, log, diag, res)
        total[:E.D_ERROR] += diag[:E.D_ERROR]
        for p in range(config.players):
            if prm[p, G_CODE] != F_NONE:
                fails.append((gi, diag.copy(), prm[p].copy()))
                break
        else:
            if diag[E.D_DECISION_DIFF] or diag[E.D_OBS_DIFF]:
                fails.append((gi, diag.copy(), None))
    return total, fails


def _leaking_kinds(fn, params, config, keys) -> list[int]:
    """The decision kinds whose answers move under the M2 reshuffle: each kind played
    by ``fn`` alone (the others at random) on the same games."""
    out = []
    for k in kit.KIND_NAMES:
        total, _ = play_checked(fn, params, config, keys, only=k)
        if total[E.D_DECISION_DIFF]:
            out.append(k)
    return out


# ------------------------------------------------------------------ words
def _setup_words(setup, variants) -> str:
    rules, mode, n = setup
    v = ", ".join(f"{k}={v}" for k, v in variants.items()) or "default variants"
    return f"{rules} rules, {mode}, {n} players, {v}"


def explain(name: str, f: Failure) -> str:
    """A failure in plain words (lines of at most 92 characters), with the options of
    the decision when known."""
    lines = []
    for part in _explain(name, f).split("\n"):
        if part.startswith("      "):                  # an option: as it is
            lines.append(part)
        else:
            indent = "  " if part.startswith("  FAIL") else "    "
            lines.append(textwrap.fill(part.strip(), 92, initial_indent=indent,
                                       subsequent_indent="    "))
    return "\n".join(lines)


def _explain(name: str, f: Failure) -> str:
    where = _setup_words(f.setup, f.variants)
    kind = kit.KIND_RULES.get(f.kind, "some")
    n = len(f.options)
    opts = ""
    if f.options:
        shown = [f"      {i:>3}  {kit.describe_option(f.kind, o)}"
                 for i, o in enumerate(f.options[:12])]
        if n > 12:
            shown.append(f"      … {n - 12} more")
        opts = "\n    the options were:\n" + "\n".join(shown)
    head = (f"  FAIL  in a {kind} decision of seat {f.seat}, round {f.round} "
            f"(game {f.game}; {where}):\n    ")
    if f.code == F_INDEX:
        hint = ""
        if f.idx in f.options:
            j = f.options.index(f.idx)
            hint = (f"\n    {f.idx} is the value of option {j} ({kit.describe_option(f.kind, f.idx)})"
                    f": return its index {j}, e.g. with kit.find_option(opts, n_opts, o)")
        return (head + f"{name} answered option index {f.idx}, but the decision had {n} "
                f"options (indices 0–{n - 1}). A policy returns the index of its choice in "
                f"opts[:n_opts], not the option itself.{hint}{opts}")
    if f.code == F_OPTS:
        return (head + f"{name} changed the option list opts. A policy must only read "
                "opts (copy it to sort or filter)." + opts)
    if f.code == F_OBS:
        return (head + f"{name} changed its observation obs and did not put it back. A "
                "policy must only read obs: the engine reuses it for later decisions." + opts)
    if f.code == F_REPEAT:
        return (head + f"asked the same decision twice, with the same random stream, {name} "
                f"answered {f.idx} then {f.idx2}. Its choice depends on something other than "
                "(cfg, obs, opts, params, rng): most often random numbers from np.random or "
                "random instead of its rng argument (use kit.random_index(rng, n_opts) or "
                "demos_sim.rng.below(rng, 0, n)), or memory kept in global arrays between "
                "decisions. The M2 test cannot tell such a policy from one that peeks." + opts)
    if f.code == F_M2:
        return (f"  FAIL  its {kind} decisions changed when only what the seat cannot see "
                f"was reshuffled ({where}; game {f.game}): it decides from something outside "
                "its observation (RULES.md M2). Read the game only through obs.")
    return (f"  FAIL  the engine's observation changed when hidden cards were reshuffled "
            f"({where}; game {f.game}): that is an engine bug, not the policy's — report it.")


# ------------------------------------------------------------------ the command
def _new_policies(plugin: str) -> list[str]:
    from demos_sim.demos.policies import available
    from demos_sim.registry import load_plugin

    before = set(available())
    try:
        load_plugin(plugin)
    except ConfigError as e:
        msg = str(e)
        if "TypingError" in msg or "LoweringError" in msg:
            msg += ("\n(numba could not compile one of the plugin's functions; run the "
                    "command again with NUMBA_DISABLE_JIT=1 to see the plain Python error)")
        raise ConfigError(msg) from e
    return sorted(set(available()) - before)


def check_decisions(name: str, games: int = 12, seed: int = 99, out=sys.stdout):
    """Part 1 for one registered policy and its restricted forms (``name:flag``):
    returns ``(spec, Failure)`` for the first failure, or None."""
    from demos_sim.demos.policies import get

    specs = [name] + [f"{name}:{flag}" for flag in get(name).flags]
    checked = 0
    for spec in specs:
        pol = get(spec)
        for variants in VARIANT_SETS:
            for setup in SETUPS:
                config = DemosConfig(*setup, variants=variants)
                keys = chunk_game_keys(seed, 0, 0, games)
                total, fails = play_checked(pol.fn, pol.params, config, keys)
                checked += int(total[E.D_CHECKED])
                if fails:
                    return spec, _failure(pol, setup, variants, config, keys, *fails[0])
    also = f" (and its restricted forms {', '.join(specs[1:])})" if specs[1:] else ""
    _say(out, f"ok    decisions{also}: {checked:,} decisions in {len(SETUPS)} setups × "
         f"{len(VARIANT_SETS)} variant sets × {games} games — every index legal, obs and "
         "opts untouched, the same answer when asked twice, and unchanged when the hidden "
         "cards are reshuffled (M2)")
    return None


def _failure(pol, setup, variants, config, keys, gi, diag, row) -> Failure:
    if row is not None:
        nopt = int(row[G_N])
        return Failure(int(row[G_CODE]), setup, variants, gi, int(row[G_KIND]),
                       int(row[G_IDX]), int(row[G_IDX2]), int(row[G_SEAT]),
                       int(row[G_ROUND]), [int(x) for x in row[G_FOPTS:G_FOPTS + nopt]])
    if diag[E.D_OBS_DIFF]:
        return Failure(F_ENGINE, setup, variants, gi)
    kinds = _leaking_kinds(pol.fn, pol.params, config, keys)
    return Failure(F_M2, setup, variants, gi, kinds[0] if kinds else -1)


def _say(out, text: str) -> None:
    print(textwrap.fill(text, 92, initial_indent="  ", subsequent_indent="        "),
          file=out)


def check_tournament(name: str, match, format_match=None, deals: int = 500, seed: int = 0,
                     out=sys.stdout) -> dict:
    """Part 2: ``name`` against greedy, full rules, 4 players, every seat rotation:
    ``match(game, config, a, b, games, seed)`` returns the match (with ``summary()``),
    ``format_match(summary)`` its table (both from :mod:`demos_sim.tournament`)."""
    config = DemosConfig("full", "individual", 4)
    s = match("demos", config, name, "greedy", deals, seed).summary()
    w = s["win_share"][name]
    lo, hi = s["ci95"][name]
    verdict = ("stronger than greedy" if lo > 0.5 else "weaker than greedy" if hi < 0.5
               else f"no difference from greedy detectable in {s['games']} games")
    _say(out, f"ok    tournament against greedy: win share {w:.3f} [{lo:.3f}, {hi:.3f}] "
         f"(0.5 = as strong): {verdict}")
    if format_match is not None:
        print("\n".join("        " + line for line in format_match(s).splitlines()), file=out)
    return s


def check_policies(plugin: str, policies: list[str] | None = None, games: int = 12,
                   deals: int = 500, seed: int = 0, out=sys.stdout, match=None,
                   format_match=None) -> int:
    """Load ``plugin`` and check ``policies`` (default: every policy it registers); the
    match against greedy is played with ``match`` (see :func:`check_tournament`), and
    left out without one."""
    new = _new_policies(plugin)
    names = list(policies) if policies else new
    if not names:
        raise ConfigError(f"{plugin} registered no DĒMOS policy (call "
                          "demos_sim.demos.policies.register; give --policy NAME to check "
                          "one registered elsewhere)")
    print(f"check-policy {plugin}: {', '.join(names)}", file=out)
    failed = 0
    for name in names:
        print(f"{name}", file=out)
        found = check_decisions(name, games, out=out)
        if found is not None:
            print(explain(*found), file=out)
            print("  skip  tournament (fix the failure above first)", file=out)
            failed += 1
            continue
        if match is None:
            print("  skip  tournament (no match function given)", file=out)
            continue
        try:
            check_tournament(name, match, format_match, deals, seed, out=out)
        except Exception as e:  # noqa: BLE001  (any failure of user code is reported)
            print(f"  FAIL  tournament against greedy stopped: {type(e).__name__}: {e}",
                  file=out)
            failed += 1
    print(f"{len(names) - failed} of {len(names)} passed", file=out)
    return failed
