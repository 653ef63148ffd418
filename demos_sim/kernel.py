"""The decision step every game kernel follows, and the diagnostics it reports.

Every decision of DĒMOS, Protocole and L'Assemblée goes through its engine's
``_decide(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, …, diag)``, which
returns the **index** (``0 … n_opts-1``) of the option played, in three steps:

1. **decide**: the seat's observation is written (RULES.md M2: the only thing a policy
   sees) and the seat's policy is called with its own random stream ``prng[seat]``;
   a forced decision (``n_opts == 1``) calls no policy and draws nothing;
2. **check** (only when the configuration's ``C_CHECK_OBS`` is set): the observation
   is rebuilt from a copy of the state whose hidden parts were redrawn, compared with
   the real one (:func:`compare`), and the policy is asked again on it from the same
   stream position (:func:`replay`), which must give the same index (M2); engines
   also check their invariants here. The check changes no game;
3. **validate** (:func:`validate`): an index outside the legal options is flagged as
   ``ERR_BAD_INDEX`` in the state's error word ``st[S_ERROR]`` and option 0 is played,
   so a kernel never raises or allocates for it. Each game's ``play_game`` ends with
   ``flag(diag, st[S_ERROR])``, and the Python layer raises with :func:`check_errors`.

``diag`` is one int64 vector of :data:`DIAG_LEN`, zeroed by the caller and summed over
every game of a batch; its slots mean the same in every game (a game without such a
check leaves the slot at 0).
"""

from __future__ import annotations

import numpy as np

from demos_sim import ConfigError
from demos_sim.jit import kernel

# ---------------------------------------------------------------- diag slots
D_CHECKED = 0        # decisions checked (M2)
D_OBS_DIFF = 1       # … whose observation changed when hidden parts were redrawn
D_DECISION_DIFF = 2  # … whose policy decided differently on the redrawn state
D_ERROR = 3          # the first ERR_* code a kernel flagged (0: none)
D_INVARIANT = 4      # invariant violations found in check mode (card conservation, ledger)
D_PUB_DIFF = 5       # L'Assemblée: the public board differed from the one rebuilt from st
D_OUT_ACTED = 6      # L'Assemblée: a decision asked of a seat out of the game
D_FIRST_DIFF = 7     # 1 + the first observation offset found to differ (0: none)
DIAG_LEN = 8

DIAG_NAMES = ("checked", "obs_diff", "decision_diff", "error", "invariant", "pub_diff",
              "out_acted", "first_diff")

# ---------------------------------------------------------------- error codes
ERR_NONE = 0
ERR_BAD_INDEX = 1    # a policy returned an index outside its legal options
ERR_DECK_EMPTY = 2   # DĒMOS: the People deck ran out (D2.3 should prevent it)

ERRORS = {
    ERR_BAD_INDEX: (ConfigError, "a policy returned an index outside its legal options"),
    ERR_DECK_EMPTY: (RuntimeError, "the People deck ran out (D2.3 should prevent it)"),
}


# ---------------------------------------------------------------- kernel helpers
@kernel(inline=True)
def flag(errors, code, at=D_ERROR):
    """Record error ``code`` in ``errors[at]`` (``diag``, or the state's ``S_ERROR``)
    unless an earlier error is there."""
    if code != ERR_NONE and errors[at] == ERR_NONE:
        errors[at] = code


@kernel(inline=True)
def validate(idx, n_opts, st, s_error):
    """Step 3: ``idx`` when it is a legal index, else 0 with ``ERR_BAD_INDEX`` flagged
    in ``st[s_error]``."""
    if idx < 0 or idx >= n_opts:
        flag(st, ERR_BAD_INDEX, s_error)
        return 0
    return idx


@kernel
def compare(seen, rebuilt, diag, slot):
    """Step 2: count one difference in ``diag[slot]`` when the vectors differ (the first
    differing offset, plus 1, goes to ``D_FIRST_DIFF`` if none is there yet)."""
    for i in range(seen.shape[0]):
        if seen[i] != rebuilt[i]:
            diag[slot] += 1
            if diag[D_FIRST_DIFF] == 0:
                diag[D_FIRST_DIFF] = i + 1
            return


@kernel
def replay(fns, cfg, obs2, opts, n_opts, params, prng, seat, saved, idx, diag):
    """Step 2: ask ``seat``'s policy again on ``obs2`` with its stream rewound to
    ``saved`` (its value before the real call); count the check, and a changed index in
    ``D_DECISION_DIFF``. The stream is left where the real call left it."""
    after = prng[seat]
    prng[seat] = saved
    idx2 = fns[seat](cfg, obs2, opts, n_opts, params[seat], prng[seat:seat + 1])
    diag[D_CHECKED] += 1
    if idx2 != idx:
        diag[D_DECISION_DIFF] += 1
    prng[seat] = after


# ---------------------------------------------------------------- Python side
def new_diag() -> np.ndarray:
    """A zeroed diagnostics vector (DIAG_LEN int64)."""
    return np.zeros(DIAG_LEN, np.int64)


def describe(diag: np.ndarray) -> dict[str, int]:
    """``diag`` by slot name (``checked``, ``obs_diff``, …)."""
    return {name: int(diag[i]) for i, name in enumerate(DIAG_NAMES)}


def check_errors(diag: np.ndarray) -> None:
    """Raise when a kernel flagged an error: :class:`~demos_sim.ConfigError` for a policy
    at fault (a one-line error in the CLI), ``RuntimeError`` for an engine fault."""
    code = int(diag[D_ERROR])
    if code:
        exc, msg = ERRORS.get(code, (RuntimeError, f"kernel error {code}"))
        raise exc(msg)
