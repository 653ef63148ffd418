"""Write each game's table of built-in policies (``<game>/policies/declared.py``) from its
registered policies: ``python -m demos_sim.declare`` (``--check``: say which tables differ
and exit 1, writing nothing).

The table lets ``demos-sim policies`` and the other listings name and describe the
built-in policies without importing their modules, whose functions are compiled when
defined (:mod:`demos_sim.registry`). Run it after adding, renaming or describing anew a
built-in policy (a test fails until the table matches); it imports every policy module,
so on a cold numba cache it compiles them first.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from demos_sim.game import GAMES, get_game
from demos_sim.registry import declaration_source

COMMAND = "python -m demos_sim.declare"


def table(game: str) -> tuple[Path, str]:
    """The path of ``game``'s table and the text it should hold."""
    module = get_game(game).policies
    return (Path(module.__file__).with_name("declared.py"),
            declaration_source(module.REGISTRY, COMMAND))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="only say which tables differ from the registered policies")
    args = ap.parse_args(argv)
    stale = []
    for game in GAMES:
        path, text = table(game)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if args.check and stale:
        print("out of date (run python -m demos_sim.declare): "
              + ", ".join(str(p) for p in stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
