"""Training of the DĒMOS ``apprentice`` (``demos-sim train-apprentice``, ``make apprentice``).

1. **Positions.** Games of self-play through the engine's own kernel
   (:func:`demos_sim.demos.engine.play_batch`), every seat played by a *recorder*: a
   policy that copies the observation and the options of each learned decision (public,
   secret, unanimous turn, veto) into the spare end of its parameter row, then plays as
   the behaviour policy — ``tuned`` in the first round; the apprentice with the first
   round's weights in the second (DAgger: the positions the apprentice itself reaches,
   where its mistakes would take it), its learned veto included (the veto block is
   fitted and reported; the registered policy plays ``heuristic``'s veto unless
   ``P_LEARNED_VETO`` is 1). The games are those of a simulation with the
   seed (``chunk_game_keys``), over a fixed schedule of setups weighted towards 4
   players, full rules (:data:`SCHEDULE`), so every mode and player count is seen.
2. **Labels.** The teacher (``ismcts@256`` by default; any registered policy that is not
   a reference) decides at each recorded position from the observation alone, with a
   random stream of its own per position (derived from the seed and the position's
   number: the same seed gives the same labels whatever the number of workers).
3. **Fit.** Per decision kind, a conditional logit over the options the apprentice scores
   (:func:`~demos_sim.demos.policies.apprentice.option_features`): the weights maximise
   Σ log P(teacher's option) − ``l2`` × |w|² (features standardised for the fit), by
   scipy's L-BFGS. A decision whose teacher choice is not among the apprentice's options
   is counted and left out.
4. **Output.** :mod:`demos_sim.demos.policies.apprentice_weights`, a Python module with a
   tuple literal (numba bakes it into the policy; the numba cache notices the edit).
"""

from __future__ import annotations

import hashlib
import math
import os
import time
import warnings
from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.demos import layout as L
from demos_sim.demos.policies import POLICY_SIG
from demos_sim.demos.policies.apprentice import (
    APPRENTICE_PARAMS, B_VETO, BLOCKS, DISCARD_FEATURES, NF, VETO_FEATURES, WIDTH, block_of,
    choose, option_features, veto_features,
)
from demos_sim.demos.policies.heuristic import heuristic_policy
from demos_sim.jit import kernel
from demos_sim.registry import N_PARAMS
from demos_sim.rng import derive

NB = len(BLOCKS)
WEIGHTS_FILE = Path(__file__).with_name("apprentice_weights.py")
DEFAULT_TEACHER = "ismcts@256"
CHUNK_GAMES = 8                # games a work unit
MAX_DECISIONS = 90             # recorded decisions a seat and a game, at most

# the recorder's parameter row: behaviour parameters, then …
R_MODE = N_PARAMS              # 0: the behaviour is heuristic_policy with the row's
R_W = R_MODE + 1               # parameters; 1: the apprentice with the weights R_W…
R_COUNT = R_W + NB * NF        # decisions recorded so far …
R_CAP = R_COUNT + 1            # … and room for them
R_BUF = R_CAP + 1
SLOT = L.OBS_LEN + 1 + L.MAXOPT    # one decision: observation, n_opts, options

# setups of the positions, one a work unit in turn: (rules, mode, players)
SCHEDULE = (("full", "individual", 4), ("full", "individual", 4), ("full", "2v2", 4),
            ("full", "individual", 4), ("full", "individual", 3), ("full", "individual", 4),
            ("full", "2v3", 5), ("full", "individual", 4), ("full", "individual", 5),
            ("full", "individual", 4), ("full", "2v2+1", 5), ("simplified", "individual", 4))


@kernel(POLICY_SIG, allocates=True)
def recorder_policy(cfg, obs, opts, n_opts, params, rng):
    """Copy a learned decision into the row's buffer, then play the behaviour policy."""
    kind = obs[L.O_KIND]
    if block_of(kind) >= 0:
        cnt = int(params[R_COUNT])
        if cnt < int(params[R_CAP]):
            base = R_BUF + cnt * SLOT
            for i in range(L.OBS_LEN):
                params[base + i] = obs[i]
            params[base + L.OBS_LEN] = n_opts
            for i in range(n_opts):
                params[base + L.OBS_LEN + 1 + i] = opts[i]
        params[R_COUNT] = cnt + 1
        if params[R_MODE] == 1:
            W = np.empty((NB, NF), np.float64)
            for b in range(NB):
                for j in range(NF):
                    W[b, j] = params[R_W + b * NF + j]
            return choose(cfg, obs, opts, n_opts, params, W)
    return heuristic_policy(cfg, obs, opts, n_opts, params, rng)


def label_all(teacher, cfg, obs, opts, nopts, tparams, keys, out):
    """The teacher's option index at every recorded position (its own stream each). A
    Python loop: a cached numba function taking the teacher as an argument would key
    numba's cache on the teacher's dispatcher, which breaks when the teacher's module is
    edited; the call costs microseconds against the teacher's milliseconds."""
    rng = np.zeros(1, np.uint64)
    for i in range(obs.shape[0]):
        rng[0] = keys[i]
        out[i] = teacher(cfg, obs[i], opts[i], np.int64(nopts[i]), tparams.copy(), rng)


@kernel(allocates=True)
def features_all(cfg, obs, opts, nopts, params, labels, X, M, Y, B):
    """Rows of the fit: ``X[i, :k]`` the features of the options the apprentice scores,
    ``M`` 1 where an option is, ``Y`` the teacher's option among them (-1: not among
    them), ``B`` the weight block."""
    cand = np.empty(L.MAXOPT, np.int64)
    F = np.empty((L.MAXOPT, NF), np.float64)
    for i in range(obs.shape[0]):
        kind = obs[i, L.O_KIND]
        b = block_of(kind)
        B[i] = b
        for a in range(WIDTH):
            M[i, a] = 0
            for j in range(NF):
                X[i, a, j] = 0.0
        if b == B_VETO:
            veto_features(cfg, obs[i], params, F[0])
            for j in range(NF):
                X[i, 1, j] = F[0, j]
            M[i, 0] = 1
            M[i, 1] = 1
            Y[i] = labels[i]
            continue
        k = option_features(cfg, obs[i], opts[i], nopts[i], params, cand, F)
        Y[i] = -1
        for a in range(k):
            M[i, a] = 1
            if cand[a] == labels[i]:
                Y[i] = a
            for j in range(NF):
                X[i, a, j] = F[a, j]


def _config(setup):
    from demos_sim.demos.rules import DemosConfig
    from demos_sim.demos.rules import MODE_PLAYERS

    rules, mode, n = setup
    return DemosConfig(rules, mode, MODE_PLAYERS.get(mode, n))


def play_unit(unit: int, seed: int, teacher: str, behaviour: np.ndarray, mode: int,
              weights: np.ndarray | None, keep: bool = False):
    """Work unit ``unit``: its games played by recorders, labelled by ``teacher``;
    returns (X float32, M int8, Y int16, B int8, games, decisions, the positions when
    ``keep``: (unit, obs, opts, nopts, labels))."""
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    from demos_sim.demos.engine import DIAG_LEN, play_batch
    from demos_sim.demos.policies import get
    from demos_sim.kernel import check_errors
    from demos_sim.sim_common import chunk_game_keys

    setup = SCHEDULE[unit % len(SCHEDULE)]
    config = _config(setup)
    cfg = config.to_array()
    cap = MAX_DECISIONS * CHUNK_GAMES
    params = np.zeros((L.MAXP, R_BUF + cap * SLOT), np.float64)
    params[:, :N_PARAMS] = behaviour
    params[:, R_MODE] = mode
    if weights is not None:
        params[:, R_W:R_W + NB * NF] = np.asarray(weights, np.float64).reshape(-1)
    params[:, R_CAP] = cap
    fns = (recorder_policy,) * L.MAXP
    keys = chunk_game_keys(seed, unit, 0, CHUNK_GAMES)
    res = np.zeros((CHUNK_GAMES, L.RES_LEN), np.int64)
    diag = np.zeros(DIAG_LEN, np.int64)
    play_batch(fns, cfg, params, keys, res, diag)
    check_errors(diag)
    rows = []
    for p in range(config.players):
        cnt = int(params[p, R_COUNT])
        if cnt > cap:
            raise RuntimeError(f"seat {p} made {cnt} decisions in {CHUNK_GAMES} games, "
                               f"more than the recorder's room ({cap})")
        buf = params[p, R_BUF:R_BUF + cnt * SLOT].reshape(cnt, SLOT)
        rows.append(buf)
    buf = np.concatenate(rows)
    obs = buf[:, :L.OBS_LEN].astype(np.int64)
    nopts = buf[:, L.OBS_LEN].astype(np.int64)
    opts = np.zeros((len(buf), L.MAXOPT), np.int64)
    opts[:] = buf[:, L.OBS_LEN + 1:].astype(np.int64)
    n = len(obs)
    tp = get(teacher)
    dkeys = np.array([derive(np.uint64(seed), unit + 1, i + 1) for i in range(n)], np.uint64)
    labels = np.zeros(n, np.int64)
    label_all(tp.fn, cfg, obs, opts, nopts, np.asarray(tp.params, np.float64), dkeys, labels)
    X, M, Y, B = featurise(cfg, obs, opts, nopts, labels)
    kept = (unit, obs, opts[:, :int(nopts.max(initial=1))], nopts, labels) if keep else None
    return X, M, Y, B, CHUNK_GAMES, n, kept


def featurise(cfg, obs, opts, nopts, labels):
    """The fit's rows (X float32, M int8, Y int16, B int8) of labelled positions."""
    n = len(obs)
    o = np.zeros((n, L.MAXOPT), np.int64)
    o[:, :opts.shape[1]] = opts
    X = np.zeros((n, WIDTH, NF), np.float64)
    M = np.zeros((n, WIDTH), np.int64)
    Y = np.zeros(n, np.int64)
    B = np.zeros(n, np.int64)
    params = np.zeros(N_PARAMS, np.float64)
    params[:len(APPRENTICE_PARAMS)] = APPRENTICE_PARAMS
    features_all(cfg, obs, o, nopts, params, labels, X, M, Y, B)
    return X.astype(np.float32), M.astype(np.int8), Y.astype(np.int16), B.astype(np.int8)


def save_positions(path, kept, meta: str) -> None:
    """The labelled positions of a run (to fit other features without labelling again);
    ``meta`` says which run made them (:func:`train` checks it before reusing them)."""
    w = max(k[2].shape[1] for k in kept)
    np.savez_compressed(
        path, meta=np.array(meta), unit=np.concatenate([np.full(len(k[1]), k[0]) for k in kept]),
        obs=np.concatenate([k[1] for k in kept]),
        opts=np.concatenate([np.pad(k[2], ((0, 0), (0, w - k[2].shape[1]))) for k in kept]),
        nopts=np.concatenate([k[3] for k in kept]),
        labels=np.concatenate([k[4] for k in kept]))


def load_positions(path):
    """Fit rows of the positions saved by :func:`save_positions`, features computed now."""
    with np.load(path) as z:                  # each array read (decompressed) once
        unit, obs, opts, nopts, labels = (z[k] for k in ("unit", "obs", "opts", "nopts",
                                                         "labels"))
    parts = []
    for u in np.unique(unit):
        sel = unit == u
        cfg = _config(SCHEDULE[int(u) % len(SCHEDULE)]).to_array()
        parts.append(featurise(cfg, obs[sel], opts[sel], nopts[sel], labels[sel]))
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(4))


# ------------------------------------------------------------------ the fit
def fit_logit(X, M, Y, l2: float = 1e-3, maxiter: int = 1000):
    """Weights of the conditional logit P(option a of decision i) ∝ exp(X[i, a] · w) over
    the options with ``M[i, a]``, fitted to the choices ``Y`` (rows with ``Y`` < 0 or one
    option are left out): the maximum of mean log-likelihood − ``l2`` × |w|², the
    features standardised (the mean of a feature is the same for every option of a
    decision, so it cancels; the weights are returned for the raw features). Returns
    (w, mean log-likelihood at w, share of decisions whose highest score is the choice)."""
    from scipy.optimize import minimize

    X = np.asarray(X, np.float64)
    M = np.asarray(M).astype(bool)
    Y = np.asarray(Y, np.int64)
    keep = (Y >= 0) & (M.sum(axis=1) >= 2)
    X, M, Y = X[keep], M[keep], Y[keep]
    nf = X.shape[2]
    if len(Y) == 0:
        return np.zeros(nf), float("nan"), float("nan")
    rows = X[M]
    mu = rows.mean(axis=0)
    sd = rows.std(axis=0)
    use = sd > 1e-9
    Z = np.where(M[:, :, None], (X - mu) / np.where(use, sd, 1.0), 0.0)[:, :, use]
    idx = np.arange(len(Y))
    n = len(Y)

    def f(w):
        s = Z @ w
        s = np.where(M, s, -np.inf)
        m = s.max(axis=1, keepdims=True)
        e = np.where(M, np.exp(s - m), 0.0)
        tot = e.sum(axis=1)
        ll = s[idx, Y] - m[:, 0] - np.log(tot)
        p = e / tot[:, None]
        g = Z[idx, Y] - np.einsum("ia,iaj->ij", p, Z)
        return (-ll.sum() / n + l2 * w @ w, -g.sum(axis=0) / n + 2 * l2 * w)

    r = minimize(f, np.zeros(Z.shape[2]), jac=True, method="L-BFGS-B",
                 options={"maxiter": maxiter})
    w = np.zeros(nf)
    w[use] = r.x / sd[use]
    s = np.where(M, X @ w, -np.inf)
    ll = float(-f(r.x)[0] + l2 * r.x @ r.x)
    return w, ll, float(np.mean(s.argmax(axis=1) == Y))


def fit_all(data, l2: float):
    """One weight row a block; returns (W (NB, NF), report lines)."""
    X, M, Y, B = data
    W = np.zeros((NB, NF))
    lines = []
    for b, name in enumerate(BLOCKS):
        sel = B == b
        total = int(sel.sum())
        if total == 0:
            lines.append(f"  {name}: no decisions")
            continue
        miss = int((Y[sel] < 0).sum())
        w, ll, acc = fit_logit(X[sel], M[sel], Y[sel], l2)
        W[b] = w
        if b == B_VETO:
            base = float(np.mean((X[sel][:, 1, 3] > 0.5) == (Y[sel] == 1)))
        else:
            ok = Y[sel] >= 0
            heur = X[sel][ok][:, :, 26].argmax(axis=1)
            base = float(np.mean(heur == Y[sel][ok]))
        lines.append(f"  {name}: {total:,} decisions ({miss:,} teacher choices outside the "
                     f"scored options), agreement with the teacher {acc:.1%} "
                     f"(heuristic's {base:.1%}), log-likelihood {ll:.3f} a decision")
    return W, lines


# ------------------------------------------------------------------ the command
def check_teacher(spec: str):
    """The teacher's Policy; a one-line ConfigError for an unknown or reference policy."""
    from demos_sim.demos.policies import get

    try:
        pol = get(spec)
    except (ConfigError, KeyError, ValueError) as e:
        raise ConfigError(f"--teacher {spec!r}: {e}") from None
    if pol.reference:
        raise ConfigError(f"--teacher {spec!r} is a reference policy (it sees hidden "
                          "cards): the apprentice sees only its observation, teach it with "
                          "a fair policy such as ismcts@256")
    if pol.name.split("@")[0].split(":")[0] == "apprentice":
        raise ConfigError(f"--teacher {spec!r}: the apprentice cannot teach itself")
    if ":" in pol.name:
        raise ConfigError(f"--teacher {spec!r}: a restricted form would teach its "
                          "restriction; give the full policy")
    return pol


def _meta(units, seed, teacher, mode, weights) -> str:
    w = "" if weights is None else hashlib.sha256(
        np.ascontiguousarray(weights, np.float64).tobytes()).hexdigest()[:16]
    return (f"teacher={teacher} seed={seed} units={units.start}-{units.stop} "
            f"chunk={CHUNK_GAMES} mode={mode} weights={w} schedule={hash_schedule()}")


def hash_schedule() -> str:
    return hashlib.sha256(repr(SCHEDULE).encode()).hexdigest()[:12]


def _collect(units, seed, teacher, behaviour, mode, weights, mapper, label, t0, say,
             keep_path=None, reuse=None):
    meta = _meta(units, seed, teacher, mode, weights)
    if reuse is not None and Path(reuse).exists():
        with np.load(reuse) as z:
            same = "meta" in z.files and str(z["meta"]) == meta
        if same:
            data = load_positions(reuse)
            say(f"{label}: {len(data[3]):,} labelled decisions reused from {reuse}")
            return data
        say(f"{label}: {reuse} was made by another run; labelling again")
    parts = []
    kept = []
    games = 0
    done = 0
    args = [(u, seed, teacher, behaviour, mode, weights, keep_path is not None)
            for u in units]
    it = mapper(play_unit, args)
    step = max(1, len(units) // 10)
    for i, part in enumerate(it):
        parts.append(part[:4])
        if part[6] is not None:
            kept.append(part[6])
        games += part[4]
        done += part[5]
        if (i + 1) % step == 0 or i + 1 == len(units):
            say(f"{label}: {games:,} of {len(units) * CHUNK_GAMES:,} games, {done:,} "
                f"decisions labelled, {time.monotonic() - t0:,.0f} s")
    if keep_path is not None:
        save_positions(keep_path, kept, meta)
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(4))


def weights_module(W, header: list[str]) -> str:
    """The text of apprentice_weights.py for the weights ``W`` (NB, NF)."""
    vals = [float(x) for x in np.asarray(W, np.float64).reshape(-1)]
    lines = []
    for b, name in enumerate(BLOCKS):
        names = VETO_FEATURES if b == B_VETO else DISCARD_FEATURES
        lines.append(f"    # {name}")
        for j in range(NF):
            what = names[j] if j < len(names) else "(unused)"
            lines.append(f"    {vals[b * NF + j]!r},  # {what}")
    doc = "\n".join(header)
    return (f'"""Weights of the DĒMOS ``apprentice`` (:mod:`demos_sim.demos.policies.'
            f'apprentice`),\nwritten by ``demos-sim train-apprentice``: do not edit.\n\n'
            f'{doc}\n"""\n\nWEIGHTS = (\n' + "\n".join(lines) + "\n)\n")


def train(teacher: str = DEFAULT_TEACHER, games: int = 1000, seed: int = 0,
          dagger_games: int | None = None, l2: float = 1e-3,
          out: str | os.PathLike | None = None, say=print,
          keep_positions: str | None = None, mapper=None) -> np.ndarray:
    """Train and write the weights module (``out``, default the package's); returns W.

    ``mapper(fn, args)`` yields ``fn(*a)`` for every ``a`` in order: the command passes
    the runner's :func:`demos_sim.runner.backends.map_tasks` on ``--workers`` processes
    (the game package builds no pool); by default they run in this process."""
    if mapper is None:
        def mapper(fn, args):
            return (fn(*a) for a in args)
    from demos_sim.demos.policies import get

    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    pol = check_teacher(teacher)
    if games < CHUNK_GAMES:
        raise ConfigError(f"--games must be at least {CHUNK_GAMES}, got {games}")
    dagger_games = games // 2 if dagger_games is None else dagger_games
    t0 = time.monotonic()
    n1 = math.ceil(games / CHUNK_GAMES)
    n2 = math.ceil(dagger_games / CHUNK_GAMES)
    tuned = np.asarray(get("tuned").params, np.float64)
    say(f"train-apprentice: teacher {pol.name}, seed {seed}, {n1 * CHUNK_GAMES:,} games of "
        f"tuned self-play, then {n2 * CHUNK_GAMES:,} of the apprentice's own (DAgger)")
    keep1 = keep2 = None
    if keep_positions:
        keep1, keep2 = f"{keep_positions}-1.npz", f"{keep_positions}-2.npz"
    data = _collect(range(n1), seed, pol.name, tuned, 0, None, mapper, "round 1", t0, say,
                    keep1, keep1)
    W, lines = fit_all(data, l2)
    say("round 1 fit:")
    for ln in lines:
        say(ln)
    if n2 > 0:
        app = np.zeros(N_PARAMS)
        app[:len(APPRENTICE_PARAMS)] = APPRENTICE_PARAMS
        more = _collect(range(n1, n1 + n2), seed, pol.name, app, 1, W, mapper,
                        "round 2 (DAgger)", t0, say, keep2, keep2)
        data = tuple(np.concatenate([a, b]) for a, b in zip(data, more))
        W, lines = fit_all(data, l2)
        say("round 2 fit (both rounds' decisions):")
        for ln in lines:
            say(ln)
    header = [f"Teacher {pol.name}; seed {seed}; {n1 * CHUNK_GAMES:,} games of tuned "
              f"self-play and {n2 * CHUNK_GAMES:,} of the apprentice's own (DAgger), "
              f"{len(data[3]):,} decisions; L2 {l2:g}.",
              f"Regenerate: demos-sim train-apprentice --teacher {pol.name} --games {games} "
              f"--dagger-games {dagger_games} --seed {seed}", "", "Fit (both rounds):",
              *lines]
    path = Path(out) if out else WEIGHTS_FILE
    text = weights_module(W, header)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    say(f"wrote {path} ({len(text.encode()):,} bytes) in {time.monotonic() - t0:,.0f} s")
    return W
