"""Is a user's policy fit to play? The checks of ``demos-sim check-policy``, for any game.

A game gives a :class:`GameCheck` (its ``check.py``: the setups to play, how to play one
game with the engine's check mode on, its decision kinds in words); this module runs, for
every policy a plugin registers and for its restricted forms (``name:flag``):

1. **Decisions** — ``games`` games of every setup with the policy in every seat and the
   engine's M2 check on (``C_CHECK_OBS``: every decision is asked again on a state whose
   hidden parts were redrawn, RULES.md M2), the policy inside a *guard* that also asks
   each decision twice with the same random stream and checks that it answers an index
   into its options and leaves ``obs`` and ``opts`` as they were. A spare observation
   row follows the seat's own, so a policy that reads past its observation reads memory
   the M2 replay does not reproduce, and is caught. The first failure is explained in
   words: which decision kind, which setup, what was answered, the options.
2. **Tournament** — a short seat-rotated match against the game's baseline policy, with
   the ``match`` function the caller passes (:func:`demos_sim.tournament.match`): its win
   share with a 95% interval.

A *reference* policy (``register(..., reference=...)``) sees the true state by design:
where the game gives it a truth block (DĒMOS, Protocole), its decisions are checked the
way a match plays them — truth block filled, M2 check forced — and reported as **exempt
from M2** with how often they moved when hidden cards were redrawn, never as passing M2;
the runner and the analyses refuse it unless asked (``allow_reference``).
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from demos_sim import ConfigError
from demos_sim.kernel import D_CHECKED, D_DECISION_DIFF, D_ERROR, D_OBS_DIFF, DIAG_LEN
from demos_sim.registry import N_PARAMS, POLICY_SIG, load_plugin

F_NONE, F_INDEX, F_OPTS, F_OBS, F_REPEAT, F_M2, F_ENGINE = range(7)
G_CODE = N_PARAMS
G_KIND, G_IDX, G_IDX2, G_N, G_SEAT, G_ROUND, G_ONLY = range(N_PARAMS + 1, N_PARAMS + 8)
G_FOPTS = N_PARAMS + 9                 # the options of the first failure (MAXOPT)


@dataclass
class GameCheck:
    """What a game gives the check.

    ``title`` the game's name; ``policies`` its registry module; ``layout`` its offsets
    (``OBS_LEN``, ``MAXOPT``, ``MAXP``, ``O_KIND``, ``O_SEAT``, ``O_ROUND``); ``kinds``
    decision kind -> words with the rule (``KIND_RULES``); ``describe(kind, o)`` an option
    in words; ``amount_kinds`` the kinds whose index is the amount (``opts`` not filled);
    ``setups`` ``(words, config)`` pairs to play; ``play(fns, params, config, key,
    reference, obs)`` one game with the M2 check on (``reference``: the truth block on
    every seat and the check forced), returning its diagnostics; ``truth`` whether the
    game gives a reference policy a truth block; ``game`` its registry name and
    ``match_config``, ``baseline`` the tournament. ``seat_rows``: the engine keeps one
    observation row per seat (``obs`` is then ``(MAXP, OBS_LEN)``); ``extent`` the setups
    in words (default ``"N setups"``); ``hidden`` what the M2 check does to what a seat
    cannot see, in words.
    """
    title: str
    game: str
    policies: Any
    layout: Any
    kinds: dict
    describe: Callable
    setups: list
    play: Callable
    match_config: Any
    baseline: str
    amount_kinds: tuple = ()
    truth: bool = False
    seat_rows: bool = False
    extent: str = ""
    hidden: tuple = ("the hidden parts", "redrawn")

    def where(self, games: int) -> str:
        """The games each policy is checked in, in words."""
        return f"{self.extent or f'{len(self.setups)} setups'} × {games} games"


# ------------------------------------------------------------------ the guard
_guards: dict = {}


def guard_width(L) -> int:
    return G_FOPTS + 2 * L.MAXOPT + L.OBS_LEN


def guard(fn, L):
    """``fn`` wrapped so that its first failure is recorded in ``params[N_PARAMS:]``:
    an index outside ``[0, n_opts)`` (then option 0 is played, the game goes on), a change
    to ``opts`` or ``obs`` (undone), a different answer to the same decision asked again
    with the same random stream. With ``params[G_ONLY] = k + 1`` only decisions of kind
    ``k`` go to ``fn``, the others are uniform at random."""
    key = (fn, L.__name__)
    if key in _guards:
        return _guards[key]
    from demos_sim.jit import kernel
    from demos_sim.rng import below

    obs_len, maxopt, o_kind, o_seat, o_round = L.OBS_LEN, L.MAXOPT, L.O_KIND, L.O_SEAT, L.O_ROUND
    g_opts = G_FOPTS + maxopt
    g_obs = g_opts + maxopt

    def guarded(cfg, obs, opts, n_opts, params, rng):
        if params[G_ONLY] > 0 and obs[o_kind] != params[G_ONLY] - 1:
            return below(rng, 0, n_opts)
        m = min(n_opts, maxopt)                  # amount decisions: opts is not filled
        for i in range(m):
            params[g_opts + i] = opts[i]
        for i in range(obs_len):
            params[g_obs + i] = obs[i]
        own = params[:N_PARAMS]
        saved = rng[0]
        idx = fn(cfg, obs, opts, n_opts, own, rng)
        after = rng[0]
        code = F_NONE
        for i in range(m):
            if opts[i] != params[g_opts + i]:
                code = F_OPTS
                opts[i] = np.int64(params[g_opts + i])
        for i in range(obs_len):
            if obs[i] != params[g_obs + i]:
                if code == F_NONE:
                    code = F_OBS
                obs[i] = np.int64(params[g_obs + i])
        rng[0] = saved
        idx2 = fn(cfg, obs, opts, n_opts, own, rng)
        rng[0] = after
        for i in range(m):
            opts[i] = np.int64(params[g_opts + i])
        for i in range(obs_len):
            obs[i] = np.int64(params[g_obs + i])
        if code == F_NONE and idx2 != idx:
            code = F_REPEAT
        if code == F_NONE and (idx < 0 or idx >= n_opts):
            code = F_INDEX
        if code != F_NONE and params[G_CODE] == 0:
            params[G_CODE] = code
            params[G_KIND] = obs[o_kind]
            params[G_IDX] = idx
            params[G_IDX2] = idx2
            params[G_N] = n_opts
            params[G_SEAT] = obs[o_seat]
            params[G_ROUND] = obs[o_round]
            for i in range(m):
                params[G_FOPTS + i] = params[g_opts + i]
        if idx < 0 or idx >= n_opts:
            return 0
        return idx

    # built at run time around the user's function (nothing to cache); a user's policy
    # may allocate, so reference counting stays on
    _guards[key] = kernel(POLICY_SIG, allocates=True, cache=False)(guarded)
    return _guards[key]


# ------------------------------------------------------------------ playing checked games
@dataclass
class Failure:
    code: int
    setup: str
    game: int
    kind: int = -1
    idx: int = 0
    idx2: int = 0
    seat: int = 0
    round: int = 0
    options: list = field(default_factory=list)
    n_opts: int = 0


def play_checked(gc: GameCheck, fn, params, config, keys, only: int = -1,
                 reference: bool = False):
    """Play the games ``keys`` with ``fn`` guarded in every seat and the M2 check on.
    Returns the summed diagnostics and, per failing game, ``(game, diag, guard row or
    None)``."""
    L = gc.layout
    g = guard(fn, L)
    fns = (g,) * L.MAXP
    prm = np.zeros((L.MAXP, guard_width(L)), np.float64)
    prm[:, :N_PARAMS] = params
    total = np.zeros(DIAG_LEN, np.int64)
    fails = []
    for gi, key in enumerate(keys):
        prm[:, N_PARAMS:] = 0
        prm[:, G_ONLY] = only + 1
        # one spare row after the seat's observation (after the last seat's, where the
        # engine keeps a row per seat): a policy reading past its own row reads memory the
        # M2 replay does not reproduce
        if gc.seat_rows:
            obs = np.zeros((L.MAXP + 1, L.OBS_LEN), np.int64)[:L.MAXP]
        else:
            obs = np.zeros(2 * L.OBS_LEN, np.int64)[:L.OBS_LEN]
        diag = gc.play(fns, prm, config, key, reference, obs)
        total[:D_ERROR] += diag[:D_ERROR]
        for p in range(L.MAXP):
            if prm[p, G_CODE] != F_NONE:
                fails.append((gi, diag.copy(), prm[p].copy()))
                break
        else:
            if not reference and (diag[D_DECISION_DIFF] or diag[D_OBS_DIFF]):
                fails.append((gi, diag.copy(), None))
    return total, fails


# ------------------------------------------------------------------ words
def _say(out, text: str) -> None:
    print(textwrap.fill(text, 92, initial_indent="  ", subsequent_indent="        "),
          file=out)


def explain(gc: GameCheck, name: str, f: Failure) -> str:
    """A failure in plain words (lines of at most 92 characters), with the options."""
    lines = []
    for part in _explain(gc, name, f).split("\n"):
        if part.startswith("      "):
            lines.append(part)
        else:
            indent = "  " if part.startswith("  FAIL") else "    "
            lines.append(textwrap.fill(part.strip(), 92, initial_indent=indent,
                                       subsequent_indent="    "))
    return "\n".join(lines)


def _explain(gc: GameCheck, name: str, f: Failure) -> str:
    kind = gc.kinds.get(f.kind, "some")
    n = f.n_opts
    amount = f.kind in gc.amount_kinds
    values = list(range(n)) if amount else f.options
    opts = ""
    if n:
        shown = [f"      {i:>3}  {gc.describe(f.kind, o)}" for i, o in enumerate(values[:12])]
        if n > 12:
            shown.append(f"      … {n - 12} more")
        opts = "\n    the options were:\n" + "\n".join(shown)
    head = (f"  FAIL  in a {kind} decision of seat {f.seat}, round {f.round} "
            f"(game {f.game}; {f.setup}):\n    ")
    if f.code == F_INDEX:
        hint = ""
        if not amount and f.idx in f.options:
            j = f.options.index(f.idx)
            hint = (f"\n    {f.idx} is the value of option {j} ({gc.describe(f.kind, f.idx)})"
                    f": return its index {j}, e.g. with kit.find_option(opts, n_opts, o)")
        if amount:
            hint = ("\n    In an amount decision the index is the amount: 0 to "
                    "max_amount(obs).")
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
                "random instead of its rng argument (use demos_sim.rng.below(rng, 0, n)), or "
                "memory kept in global arrays between decisions. The M2 test cannot tell such "
                "a policy from one that peeks." + opts)
    hidden, redrawn = gc.hidden
    if f.code == F_M2:
        return (f"  FAIL  its {kind} decisions changed when only what the seat cannot see "
                f"was {redrawn} ({f.setup}; game {f.game}): it decides from something "
                "outside its observation (RULES.md M2). Read the game only through obs.")
    return (f"  FAIL  the engine's observation changed when {hidden} were {redrawn} "
            f"({f.setup}; game {f.game}): that is an engine bug, not the policy's — report it.")


# ------------------------------------------------------------------ the command
def new_policies(gc: GameCheck, plugin: str) -> list[str]:
    """Load ``plugin``; the policies of this game it registered."""
    before = set(gc.policies.available())
    try:
        load_plugin(plugin)
    except ConfigError as e:
        msg = str(e)
        if "TypingError" in msg or "LoweringError" in msg:
            msg += ("\n(numba could not compile one of the plugin's functions; run the "
                    "command again with NUMBA_DISABLE_JIT=1 to see the plain Python error)")
        raise ConfigError(msg) from e
    return sorted(set(gc.policies.available()) - before)


def _failure(gc, pol, setup, config, keys, gi, diag, row, reference) -> Failure:
    if row is not None:
        n = int(row[G_N])
        return Failure(int(row[G_CODE]), setup, gi, int(row[G_KIND]), int(row[G_IDX]),
                       int(row[G_IDX2]), int(row[G_SEAT]), int(row[G_ROUND]),
                       [int(x) for x in row[G_FOPTS:G_FOPTS + min(n, gc.layout.MAXOPT)]], n)
    if diag[D_OBS_DIFF] or diag[D_DECISION_DIFF] == 0:     # the observation itself moved
        return Failure(F_ENGINE, setup, gi)
    for k in gc.kinds:                  # the kind whose answers move, played alone
        total, _ = play_checked(gc, pol.fn, pol.params, config, keys, only=k,
                                reference=reference)
        if total[D_DECISION_DIFF]:
            return Failure(F_M2, setup, gi, k)
    return Failure(F_M2, setup, gi)


def check_decisions(gc: GameCheck, name: str, games: int = 12, seed: int = 99,
                    out=sys.stdout):
    """Part 1 for one registered policy and its restricted forms: ``(spec, Failure)`` for
    the first failure, or None."""
    from demos_sim.sim_common import chunk_game_keys

    base = gc.policies.get(name)
    specs = [name] + [f"{name}:{flag}" for flag in base.flags]
    reference = bool(base.reference) and gc.truth
    checked = moved = 0
    for spec in specs:
        pol = gc.policies.get(spec)
        for setup, config in gc.setups:
            keys = chunk_game_keys(seed, 0, 0, games)
            total, fails = play_checked(gc, pol.fn, pol.params, config, keys,
                                        reference=reference)
            checked += int(total[D_CHECKED])
            moved += int(total[D_DECISION_DIFF])
            if fails:
                return spec, _failure(gc, pol, setup, config, keys, *fails[0], reference)
    also = f" (and its restricted forms {', '.join(specs[1:])})" if specs[1:] else ""
    where = gc.where(games)
    hidden, redrawn = gc.hidden
    if reference:
        _say(out, f"ok    decisions{also}: {checked:,} decisions in {where}, played as a match "
             "plays them (the truth block filled) — every index legal, obs and opts "
             "untouched, the same answer when asked twice")
        _say(out, f"exempt M2: {name} is declared a reference policy (reference="
             f"{base.reference!r}): it sees the true state, so it is not a player; its "
             f"decisions moved in {moved:,} of {checked:,} when {hidden} were {redrawn}. "
             "run, experiments and the analyses refuse it unless allow_reference")
    else:
        _say(out, f"ok    decisions{also}: {checked:,} decisions in {where} — every index "
             "legal, obs and opts untouched, the same answer when asked twice, and unchanged "
             f"when {hidden} are {redrawn} (M2)")
    return None


def check_tournament(gc: GameCheck, name: str, match, format_match=None, deals: int = 500,
                     seed: int = 0, out=sys.stdout) -> dict:
    """Part 2: ``name`` against the game's baseline on common deals, every seat rotation
    (``match`` and ``format_match`` from :mod:`demos_sim.tournament`)."""
    b = gc.baseline
    s = match(gc.game, gc.match_config, name, b, deals, seed).summary()
    w = s["win_share"][name]
    lo, hi = s["ci95"][name]
    verdict = (f"stronger than {b}" if lo > 0.5 else f"weaker than {b}" if hi < 0.5
               else f"no difference from {b} detectable in {s['games']} games")
    _say(out, f"ok    tournament against {b}: win share {w:.3f} [{lo:.3f}, {hi:.3f}] "
         f"(0.5 = as strong): {verdict}")
    if format_match is not None:
        print("\n".join("        " + line for line in format_match(s).splitlines()), file=out)
    return s


def check_policies(gc: GameCheck, plugin: str, policies: list[str] | None = None,
                   games: int = 12, deals: int = 500, seed: int = 0, out=sys.stdout,
                   match=None, format_match=None) -> int:
    """Load ``plugin`` and check ``policies`` (default: every policy of this game it
    registers); returns the number of failing policies."""
    new = new_policies(gc, plugin)
    names = list(policies) if policies else new
    if not names:
        raise ConfigError(f"{plugin} registered no {gc.title} policy (call "
                          f"{gc.policies.__name__}.register; give --policy NAME to check "
                          "one registered elsewhere)")
    print(f"check-policy {plugin}: {', '.join(names)} ({gc.title})", file=out)
    failed = 0
    for name in names:
        print(f"{name}", file=out)
        found = check_decisions(gc, name, games, out=out)
        if found is not None:
            print(explain(gc, *found), file=out)
            print("  skip  tournament (fix the failure above first)", file=out)
            failed += 1
            continue
        if match is None:
            print("  skip  tournament (no match function given)", file=out)
            continue
        try:
            check_tournament(gc, name, match, format_match, deals, seed, out=out)
        except Exception as e:  # noqa: BLE001  (any failure of user code is reported)
            print(f"  FAIL  tournament against {gc.baseline} stopped: {type(e).__name__}: {e}",
                  file=out)
            failed += 1
    print(f"{len(names) - failed} of {len(names)} passed", file=out)
    return failed
