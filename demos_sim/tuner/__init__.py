"""Point-value tuning: ``demos-sim tune TUNE.toml`` searches integer rule parameters for targets.

A tune file is an experiment file (the keys of ``demos-sim run``: ``game``, settings such as
``rules``/``mode``/``seating`` or ``mode``/``level``, one ``players`` count, ``policies``,
``plugins``, ``seed``, ``[variants]``; ``games`` is the number of games of every search
trial) plus ``[tune]`` tables — and no ``[grid]``, ``[baseline]`` or ``[stop]``::

    [tune]
    trials = 80            # search trials (asked of optuna in batches of `batch`)
    final_games = 65536    # games of each finalist in the last racing round
    top = 8                # candidates taken from the search into the race
    sampler = "auto"       # auto (exhaustive when the space has <= trials points) | tpe |
                           # random | grid (exhaustive)
    batch = 4              # trials evaluated together, on the same deals
    bootstrap = 1000       # resamples for the intervals

    [tune.params]          # integer ranges (inclusive), or explicit value lists
    carre_points = { low = 10, high = 50, step = 2 }     # any integer variant
    "run_base.0" = { low = 4, high = 20 }                # one entry of a list variant
    seating = { values = "all" }    # a setting: every distinct seating (or a list)

    [tune.targets.parity]  # one table per target
    metric = "seat_parity" # max - min win share over the sides (seats, or teams)
    weight = 1.0
    [tune.targets.carre]
    metric = "combo_share" # any runner quantity of the game; `side` picks its column
    side = "carre"         # (a side label, a seat number or a bin label)
    goal = 0.025           # loss |value - goal|; or direction = "min" | "max"
    weight = 1.0

Parameters are the game's variants (integer ones with ``low``/``high``/``step``, any one
with ``values = [...]``), an entry ``NAME.i`` of a list variant (DĒMOS ``run_base.0`` is
the one-suit run base) or a setting (``seating`` — ``values = "all"`` is every distinct
arrangement of the mode's team labels —, Protocole's ``level``). Targets: ``seat_parity``
(alias ``side_parity``), or any quantity of the game (``Game.quantities``: ``no_winner``,
``rounds``, ``win_share`` with ``side``, ``combo_share`` with a bin, …). The objective the
search minimises is the weighted sum of the target losses (the weights are stated in the
output); the trade-offs appear as the Pareto front of the evaluated points over the
losses of the single targets.

Method
------
1. *Search, common random numbers.* Every trial plays the same chunks (games
   ``0 … games-1`` of the file's seed), so two trials differ by their rules only, never by
   their deals; a batch of trials plays as grid points of one block. optuna's seeded TPE
   sampler (or every point — an exhaustive enumeration, said so in the output — when the
   space has at most ``trials`` points or is one parameter of at most
   :data:`~demos_sim.tuner.spec.MAX_1D` values) proposes the points; the default setting
   is evaluated first when it lies in the space. A point already evaluated is not played
   again (same deals, same result). ``max_changes`` caps the parameters a point may move
   off the default (a proposed point keeps its largest moves, :func:`.search.project`).
   ``seat_parity`` is computed over the *won* games and bias-corrected by the bootstrap
   (:func:`.evaluate.parity`, :func:`.evaluate.debias`).
2. *Racing (successive halving) on fresh deals.* The ``top`` best distinct points and the
   default setting (a contestant when it lies in the space, else only a reference) are
   played again on chunks the search never used, with games doubling each round up to
   ``final_games`` while the worse half is dropped, down to two finalists (the default is
   played in every round, eliminated or not, as the reference).
3. *Confirmation on fresh deals.* The two finalists and the default are played on
   ``confirm_games`` games of chunks neither the search nor the race used; the finalist
   with the lower objective there is the best ("overturned" when it is not the race's
   winner), and every figure of best, runner-up and default comes from these deals: 95%
   percentile intervals of a bootstrap over batches of games, resampling the same batches
   for every candidate (so the differences are paired). The best's one-step neighbours
   (each integer parameter ±1 step) are played on the same deals (``deviations.csv``:
   is it a local optimum?), and a best at an end of its range is flagged.
4. *Importance.* A main-effect variance decomposition for the objective and every target
   over a *designed* sample — every point of an exhaustive search (exact first-order
   shares), else ``design`` points drawn uniformly, values binned in four — and optuna's
   PED-ANOVA over the optimiser's trials (indicative: they crowd round its optimum).
   ``changes.csv``: the best search objective with at most c parameters changed.

The games are played by the runner (:func:`demos_sim.runner.points.play_points`: this
process, ``--workers`` processes, or Dask with ``--backend dask [--scheduler ADDRESS]``),
each piece kept in ``<out>/chunks/`` as it finishes, so a tune killed and started again
with the same output folder reads them back (the folder goes once the results are
written). Everything is deterministic for a given seed, whatever ``--workers`` or
``--backend``, and whether the run was interrupted. Bad input (an unknown
parameter or target metric, an empty range, a bad budget) stops with one line before any
game. Results go, each file written atomically, to ``results/<name>/``: ``trials.csv``
(every trial), ``racing.csv`` (every racing round), ``best.csv`` (best, runner-up and
default on the confirmation deals, with intervals and paired differences),
``deviations.csv``, ``changes.csv``, ``importance.csv`` and ``summary.json``
(seed, configuration, budget, the best, rules contract, version, git revision).

``play_hook(values, seed, chunk, count) -> {quantity: int array (count, columns)}`` in
:func:`tune` replaces the games by a synthetic objective (the tests plant an optimum).

Modules
-------
- :mod:`.spec`: the file format and its checks (:func:`load_tune`, :class:`TuneSpec`);
- :mod:`.evaluate`: playing candidates on chunks, targets, bootstrap scores
  (:class:`Evaluator`, :func:`score`, :func:`replay`);
- :mod:`.search`: the method — search, racing, importance (:func:`tune`);
- :mod:`.outputs`: the tables, the summary and the files written;
- :mod:`.cli`: ``demos-sim tune``.
"""
