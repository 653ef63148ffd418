"""experiments/assemblee_inference.py: the measurement behind the strong-play page's
L'Assemblée verdict (RULES.md A0, M2) checks every decision of every setup."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "experiments" / "assemblee_inference.py"


def _module():
    spec = importlib.util.spec_from_file_location("assemblee_inference", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_setup_checks_its_decisions_and_none_depends_on_the_hidden_state(tmp_path):
    mod = _module()
    t = mod.measure(games=1, seed=3)
    assert list(t["setup"]) == [s[0] for s in mod.SETUPS]
    # about 110 decisions a player a game (bids on 6–15 characters a round, pledges,
    # ostracism, votes over 10 rounds): far more than one a seat
    assert (t["decisions_checked"] > 20 * t["players"]).all()
    assert (t[["boards_differing", "observations_changed", "decisions_changed"]] == 0).all().all()
    assert (t["contract"] == 2).all() and t["git_revision"].notna().all()
