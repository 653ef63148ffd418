"""The designer's analyses, in three layers (each imports only the ones below it):

- :mod:`.core`: the module protocol, section files, statistics, key figures, plots and
  number formats;
- :mod:`.questions`: one module per question (veto value, Media, teams, …);
- :mod:`.suite`: runs every question's declared experiments and tune files, and writes its
  section (``demos-sim analyse``; the report, :mod:`demos_sim.report.analyses`, reads the
  sections).
"""
