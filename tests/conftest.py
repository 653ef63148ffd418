import sys
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Every (rules, mode, players) the engine plays: D2.2, D9.1.
ALL_SETUPS = [("full", "individual", 3), ("full", "individual", 4), ("full", "individual", 5),
              ("simplified", "individual", 3), ("simplified", "individual", 4),
              ("simplified", "individual", 5), ("full", "2v2", 4), ("full", "2v3", 5),
              ("full", "2v2+1", 5)]


# ---------------------------------------------------------------- the analyses, small
SMALL_GAMES = 512     # games per grid point when the tests run an analysis


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def small_analysis(tmp_path_factory):
    """``small_analysis(name) -> folder``: the analysis run once per session at
    :data:`SMALL_GAMES` games per point into a shared folder (its section in
    ``folder/name``); the analysis tests and the notebook test share these runs."""
    from demos_sim.analysis.suite import analyse

    root = tmp_path_factory.mktemp("analyses")
    done: set[str] = set()

    def get(name: str, games: int = SMALL_GAMES) -> Path:
        if name not in done:
            analyse([name], out=root, games=games, workers=1, quiet=True)
            done.add(name)
        return root

    return get
