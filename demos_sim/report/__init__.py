"""Reports of a results folder: HTML page and Markdown summary with matplotlib plots."""

from demos_sim.report.build import build_report  # noqa: F401
