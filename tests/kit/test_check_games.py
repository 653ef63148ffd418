"""``demos-sim check-policy --game protocole|assemblee``: a sound plugin passes, one that
reads outside its observation (RULES.md M2) fails with its decision kind named, and a
Protocole reference policy is checked the way a match plays it and reported as exempt
from M2, never as passing it.
"""

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from demos_sim import tournament
from demos_sim.assemblee import check as ACK
from demos_sim.protocole import check as PCK

MATCH = dict(match=tournament.match, format_match=tournament.format_match)
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())

PROTOCOLE = textwrap.dedent('''
    import numba
    from demos_sim.protocole import kit, layout as L
    from demos_sim.protocole.policies import POLICY_SIG, register

    @numba.njit(POLICY_SIG, cache=True)
    def safe_foyer(cfg, obs, opts, n_opts, params, rng):
        """A covered card to the Foyer (P4.1), else the first card to the Selection."""
        for i in range(n_opts):
            o = opts[i]
            if kit.to_foyer(o) and kit.safe_in_norm(kit.card_of(o), kit.norm(obs)):
                return i
        return 0

    @numba.njit(POLICY_SIG, cache=True)
    def peeks(cfg, obs, opts, n_opts, params, rng):
        # reads past its own observation, where the engine keeps other seats' cards
        return 1 if obs[L.OBS_LEN + 3] > 0 else 0

    @numba.njit(POLICY_SIG, cache=True)
    def truth(cfg, obs, opts, n_opts, params, rng):
        # a declared reference: its choice follows the next seat's hidden hand
        nxt = obs[L.O_T_HAND + (obs[L.O_SEAT] + 1) % obs[L.O_N]]
        return nxt % 7 % n_opts

    register("t_pck_safe", description="test")(safe_foyer)
    register("t_pck_peeks", description="test")(peeks)
    register("t_pck_truth", description="test", reference="t_pck_truth")(truth)
''')

ASSEMBLEE = textwrap.dedent('''
    import numba
    from demos_sim.assemblee import kit, layout as L
    from demos_sim.assemblee.policies import POLICY_SIG, register

    @numba.njit(POLICY_SIG, cache=True)
    def fair(cfg, obs, opts, n_opts, params, rng):
        """Pledges its share of the cost (A5.2), bids a fifth of its gold, else option 0."""
        k = kit.decision_kind(obs)
        if k == kit.PLEDGE:
            return min(n_opts - 1, (kit.cost(obs) + kit.players_in(obs) - 1)
                       // kit.players_in(obs))
        if k == kit.BID:
            return kit.max_amount(obs) // 5
        return 0

    @numba.njit(POLICY_SIG, cache=True)
    def peeks(cfg, obs, opts, n_opts, params, rng):
        # reads past its own observation, where the engine keeps the event deck
        if kit.decision_kind(obs) == kit.VOTE and obs[L.OBS_LEN] > 0:
            return 1
        return 0

    register("t_ack_fair", description="test")(fair)
    register("t_ack_peeks", description="test")(peeks)
''')


@pytest.fixture(scope="module")
def plugins(tmp_path_factory):
    d = tmp_path_factory.mktemp("plugins")
    (d / "p_bots.py").write_text(PROTOCOLE)
    (d / "a_bots.py").write_text(ASSEMBLEE)
    return str(d / "p_bots.py"), str(d / "a_bots.py")


def _blocks(text):
    return {name: " ".join(body.split())
            for name, body in (b.split("\n", 1) for b in text.split("\nt_")[1:])}


def test_protocole_check_passes_a_sound_bot_and_fails_a_peek(plugins):
    out = io.StringIO()
    failed = PCK.check_policies(plugins[0], games=3, deals=20, out=out, **MATCH)
    text = out.getvalue()
    blocks = _blocks(text)
    assert failed == 1, text
    safe = blocks["pck_safe"]
    assert "ok decisions:" in safe and "unchanged when the hidden parts are redrawn (M2)" in safe
    assert "6 setups" in safe and "ok tournament against cautious: win share" in safe
    peek = blocks["pck_peeks"]
    assert "FAIL its turn (P2.1) decisions changed" in peek and "RULES.md M2" in peek
    assert "skip tournament" in peek
    # a declared reference: checked with its truth block, exempt from M2, and it says how
    # often its decisions moved (it does read the hidden hands)
    ref = blocks["pck_truth"]
    assert "played as a match plays them" in ref and "exempt M2" in ref
    assert "unchanged when the hidden" not in ref and "refuse it unless allow_reference" in ref
    moved = int(ref.split("decisions moved in ")[1].split(" ")[0].replace(",", ""))
    assert moved > 0
    assert text.endswith("2 of 3 passed\n")


def test_assemblee_check_passes_a_sound_bot_and_fails_a_peek(plugins):
    out = io.StringIO()
    failed = ACK.check_policies(plugins[1], games=2, deals=20, out=out, **MATCH)
    text = out.getvalue()
    blocks = _blocks(text)
    assert failed == 1, text
    fair = blocks["ack_fair"]
    assert "ok decisions:" in fair and "unchanged when the hidden parts are redrawn (M2)" in fair
    assert "ok tournament against civic: win share" in fair
    peek = blocks["ack_peeks"]
    assert "FAIL its honours vote (A9) decisions changed" in peek and "RULES.md M2" in peek


def test_an_out_of_range_amount_is_explained(tmp_path):
    path = tmp_path / "amount.py"
    path.write_text(textwrap.dedent('''
        import numba
        from demos_sim.assemblee.policies import POLICY_SIG, register

        @register("t_ack_amount")
        @numba.njit(POLICY_SIG, cache=True)
        def amount(cfg, obs, opts, n_opts, params, rng):
            return n_opts                        # one more than the gold it holds
    '''))
    out = io.StringIO()
    assert ACK.check_policies(str(path), games=1, out=out) == 1
    text = " ".join(out.getvalue().split())
    assert "sealed bid (A4) decision" in text and "the index is the amount" in text


def test_the_command_line(plugins, tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "demos_sim.cli", "check-policy", *args],
                              capture_output=True, text=True, timeout=600, cwd=ROOT)

    p = run("--game", "protocole", plugins[0], "--policy", "t_pck_safe", "--games", "1",
            "--deals", "10")
    assert p.returncode == 0 and "1 of 1 passed" in p.stdout, p.stdout + p.stderr
    p = run("--game", "assemblee", plugins[1], "--policy", "t_ack_peeks", "--games", "1")
    assert p.returncode == 1 and "FAIL" in p.stdout, p.stdout + p.stderr
    p = run("--game", "assemblee", plugins[0], "--games", "1")
    assert p.returncode == 2 and "registered no L'Assemblée policy" in p.stderr
