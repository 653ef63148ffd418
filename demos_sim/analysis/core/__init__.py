"""The analysis core: what every question module builds on.

- :mod:`.protocol`: the module protocol (declared runs, ``tables``/``plots``/``findings``)
  and the runs handed to ``tables``;
- :mod:`.sections`: what an analysis writes (CSV tables, ``section.json``) and reads back;
- :mod:`.stats`: intervals, p-values, multiple-testing adjustment;
- :mod:`.key_figures`: headline figures compared across bots;
- :mod:`.plotting` and :mod:`.formatting`: charts, and numbers in words;
- :mod:`.answers` and :mod:`.board`: what the report says of an analysis (its paragraph
  of findings, its verdict board rows), declared by the module's ``REPORT``.

The core imports the runner and nothing above it (see ``.importlinter``).
"""
