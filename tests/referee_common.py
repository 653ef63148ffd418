"""What the three independent referees share, and nothing of the rules: the record schema
check, the list of violations, the audit wrapper that never raises, and the command line.

Each referee (``referee_demos.py``, ``referee_protocole.py``, ``referee_assemblee.py``)
keeps its game's rules, written from RULES.md alone; none imports the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

MAX_SCHEMA_MESSAGES = 25
_SCHEMA_CACHE: dict = {}


def schema_path() -> Path | None:
    """``game_record.schema.json`` in the contract folder beside the repository."""
    candidates = [
        Path(__file__).resolve().parents[2] / "shared" / "game_record.schema.json",
        Path("/work/shared/game_record.schema.json"),
    ]
    for path in candidates:
        if path.is_file():
            return path
    return None


def schema_validator():
    """The schema's Draft 2020-12 validator (loaded once), or None when it is not found."""
    if "validator" not in _SCHEMA_CACHE:
        from jsonschema import Draft202012Validator

        path = schema_path()
        if path is None:
            _SCHEMA_CACHE["validator"] = None
        else:
            schema = json.loads(path.read_text(encoding="utf-8"))
            Draft202012Validator.check_schema(schema)
            _SCHEMA_CACHE["validator"] = Draft202012Validator(schema)
    return _SCHEMA_CACHE["validator"]


def short(value, limit: int = 160) -> str:
    """A value as JSON (null, true, "KT" …) where it can be, else its repr, cut to ``limit``."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class RefereeBase:
    """One record's audit: ``run`` replays it and calls ``bad`` for every violation."""

    def __init__(self, record, check_schema: bool = True):
        self.record = record
        self.schema = check_schema
        self.violations: list[str] = []

    def bad(self, where: str, rule: str, message: str) -> None:
        self.violations.append(f"{where}: [{rule}] {message}")

    def check_schema(self) -> None:
        try:
            validator = schema_validator()
        except Exception as exc:  # noqa: BLE001 - a broken schema file is reported, not raised
            self.bad("record", "schema", f"could not load game_record.schema.json: {exc}")
            return
        if validator is None:
            self.bad("record", "schema", "game_record.schema.json not found")
            return
        errors = sorted(validator.iter_errors(self.record), key=lambda e: list(map(str, e.path)))
        for error in errors[:MAX_SCHEMA_MESSAGES]:
            where = "/".join(str(p) for p in error.path) or "(top)"
            self.bad("record", "schema", f"at {where}: {short(error.message, 240)}")
        if len(errors) > MAX_SCHEMA_MESSAGES:
            self.bad("record", "schema", f"... and {len(errors) - MAX_SCHEMA_MESSAGES} more")

    def run(self) -> None:
        raise NotImplementedError


def audit(referee_class, record, check_schema: bool = True) -> list[str]:
    """Run ``referee_class`` on ``record``; a malformed record is a violation, not a crash."""
    referee = referee_class(record, check_schema=check_schema)
    try:
        referee.run()
    except Exception as exc:  # noqa: BLE001
        referee.bad("record", "replay", f"the referee could not finish ({type(exc).__name__}: {exc})")
    return referee.violations


def main(argv: list[str], game: str, audit_one) -> int:
    """``python tests/referee_<game>.py FILE.jsonl …``: print every violation of every line
    of that game (other games' lines are skipped); exit status 1 when any."""
    status = 0
    for name in argv:
        with open(name, encoding="utf-8") as fh:
            for line_no, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                record = json.loads(line)
                if record.get("game") != game:
                    continue
                for violation in audit_one(record):
                    status = 1
                    print(f"{name}:{line_no}: {violation}")
    return status
