"""Where a result came from: rules contract, package version, git revision, library versions."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

# Version of the rules contract (../shared/RULES.md) and record format (GAME_RECORD.md) that
# the engines implement. Records carry it as "contract"; every run, summary and report too.
CONTRACT = 2


@functools.lru_cache(maxsize=1)
def git_revision() -> str | None:
    """The checkout's HEAD commit (with ``-dirty`` when a tracked file other than the
    committed outputs — ``results/`` and ``benchmarks/history.csv`` — is modified), or
    None outside git. Outputs do not change what a run computes, and a command that
    writes several of them in turn (``make skill``) would otherwise stamp every result
    after the first as dirty."""
    root = Path(__file__).resolve().parent.parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                             text=True, timeout=5)
        if rev.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                ".", ":(exclude)results", ":(exclude)benchmarks/history.csv"],
                               cwd=root, capture_output=True, text=True, timeout=5)
        return rev.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None
