"""``demos-sim serve``: the what-if explorer, a local web page over the runner.

Pick a game, its mode and players, a bot per seat, change any variant of RULES.md Part V,
and watch this setup play the reference on the same deals: win share by seat or side,
the no-winner share and game length as bars with 95% intervals, and every paired
difference with its Holm-adjusted flag, redrawn after each chunk of games until every
win-share difference is known to the target width. Export the setup as an experiment
file for ``demos-sim run``; read a sample game round by round from its game record.

- :mod:`~demos_sim.explorer.form`: the form from a game's settings and variants; the
  form read back into a validated setup; the setup as an experiment file.
- :mod:`~demos_sim.explorer.engine`: runs (one at a time, in a child process) through
  ``run_experiment``'s ``on_chunk`` hook.
- :mod:`~demos_sim.explorer.charts`: server-side SVG bars and difference plots.
- :mod:`~demos_sim.explorer.replay`: a game record as a readable replay.
- :mod:`~demos_sim.explorer.app`: the Starlette app and ``serve``.
"""
