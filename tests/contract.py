"""Where the contract files (RULES.md, GAME_RECORD.md, the record schema) are.

They live in the ``shared/`` folder beside the repository (``../shared``); a clone made
elsewhere (CI clones into a temporary folder) finds them at ``/work/shared``.
"""

from pathlib import Path

_CANDIDATES = [Path(__file__).resolve().parents[2] / "shared", Path("/work/shared")]


def shared_dir() -> Path:
    for d in _CANDIDATES:
        if (d / "game_record.schema.json").exists():
            return d
    raise FileNotFoundError("the contract folder shared/ (game_record.schema.json) is not at "
                            + " or ".join(map(str, _CANDIDATES)))


SCHEMA_PATH = shared_dir() / "game_record.schema.json"
