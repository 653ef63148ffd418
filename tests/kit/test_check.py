"""``demos-sim check-policy``: a faulty plugin is caught and explained, a sound one passes.

Each faulty policy breaks one rule of the policy contract: an index outside the options,
a change to ``opts``, chance drawn outside ``rng`` (so the M2 test cannot trust it), and
a peek at another seat's observation (RULES.md M2) — the last one is found by the
engine's own check mode and pinned to its decision kind.
"""

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from demos_sim import tournament
from demos_sim.demos import check as CK

MATCH = dict(match=tournament.match, format_match=tournament.format_match)

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())

FAULTY = textwrap.dedent('''
    import numba
    import numpy as np
    from demos_sim.demos import kit, layout as L
    from demos_sim.demos.policies import POLICY_SIG, register

    @numba.njit(POLICY_SIG, cache=True)
    def the_option(cfg, obs, opts, n_opts, params, rng):
        return opts[n_opts - 1]                        # the option, not its index

    @numba.njit(cache=True)
    def np_random(cfg, obs, opts, n_opts, params, rng):
        return np.random.randint(0, n_opts)            # chance outside rng

    @numba.njit(cache=True)
    def sorts_options(cfg, obs, opts, n_opts, params, rng):
        opts[:n_opts] = np.sort(opts[:n_opts])[::-1]
        return 0

    @numba.njit(cache=True)
    def peeks(cfg, obs, opts, n_opts, params, rng):
        # reads past its own row: the next seat's observation, its hand included
        return 1 if (obs[L.OBS_LEN + L.O_HAND] >> 20) & 1 else 0

    register("t_ck_index", secret=the_option)
    register("t_ck_random", media=np_random)
    register("t_ck_sorts", discard=sorts_options)
    register("t_ck_peeks", veto=peeks)
''')


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    path = tmp_path_factory.mktemp("plugin") / "faulty_bots.py"
    path.write_text(FAULTY)
    return str(path)


def test_the_check_covers_every_setup_and_variant_set_of_the_observation_test():
    from conftest import ALL_SETUPS
    from demos.test_observation import VARIANT_SETS

    assert CK.SETUPS == ALL_SETUPS and CK.VARIANT_SETS == VARIANT_SETS


def test_each_fault_is_found_and_explained(faulty):
    out = io.StringIO()
    failed = CK.check_policies(faulty, games=3, deals=20, out=out, **MATCH)
    text = out.getvalue()
    assert failed == 4, text
    blocks = {name: " ".join(body.split())          # explanations are wrapped at 92
              for name, body in (b.split("\n", 1) for b in text.split("\nt_ck_")[1:])}
    # an index outside the options (secret discard, D3.3), with the hint to return j
    assert "secret discard (D3.3) decision" in blocks["index"]
    assert "A policy returns the index of its choice" in blocks["index"]
    assert "return its index" in blocks["index"]
    assert "the options were:" in blocks["index"] and "pass" in blocks["index"]
    # np.random: asked twice, answered differently (Media target, D6.2)
    assert "Media target (D6.2)" in blocks["random"]
    assert "np.random" in blocks["random"] and "answered" in blocks["random"]
    # a changed option list
    assert "changed the option list opts" in blocks["sorts"]
    # M2: the engine's reshuffle moves the veto, and the kind is named
    assert "its veto (D3.4.1) decisions changed" in blocks["peeks"]
    assert "RULES.md M2" in blocks["peeks"]
    assert text.count("skip  tournament") == 4 and text.endswith("0 of 4 passed\n")


def test_a_sound_policy_passes_with_its_match_against_greedy():
    out = io.StringIO()
    failed = CK.check_policies(str(ROOT / "examples" / "my_first_bot.py"), ["first_bot"],
                               games=2, deals=30, out=out, **MATCH)
    text = " ".join(out.getvalue().split())          # lines are wrapped at 92
    assert failed == 0, text
    assert "ok decisions:" in text and "unchanged when the hidden cards are reshuffled" in text
    assert "ok tournament against greedy: win share" in text
    assert "first_bot" in text and "ABAB BABA" in text and text.endswith("1 of 1 passed")


def test_the_command_line(faulty, tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "demos_sim.cli", "check-policy", *args],
                              capture_output=True, text=True, timeout=600, cwd=ROOT)

    p = run(faulty, "--policy", "t_ck_index", "--games", "2")
    assert p.returncode == 1 and "FAIL" in p.stdout, p.stdout + p.stderr
    broken = tmp_path / "broken.py"
    broken.write_text(textwrap.dedent('''
        import numba
        from demos_sim.demos.policies import POLICY_SIG, register

        @register("t_ck_broken")
        @numba.njit(POLICY_SIG)
        def broken(cfg, obs, opts, n_opts, params, rng):
            return opts.nosuchattribute
    '''))
    p = run(str(broken))
    assert p.returncode == 2
    assert "NUMBA_DISABLE_JIT=1" in p.stderr and "demos-sim: error:" in p.stderr
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    p = run(str(empty))
    assert p.returncode == 2 and "registered no DĒMOS policy" in p.stderr


def test_restricted_forms_are_checked_too(tmp_path):
    """A flag (``name:flag``) changes params, so the policy may read them differently:
    here only the restricted form returns an out-of-range index."""
    path = tmp_path / "flagged.py"
    path.write_text(textwrap.dedent('''
        import numba
        from demos_sim.demos.policies import POLICY_SIG, register

        @numba.njit(POLICY_SIG, cache=True)
        def public(cfg, obs, opts, n_opts, params, rng):
            return n_opts if params[5] > 0 else 0      # out of range under :broken only

        register("t_ck_flagged", public=public, flags={"broken": 5})
    '''))
    out = io.StringIO()
    assert CK.check_policies(str(path), games=1, deals=10, out=out) == 1   # no match needed
    text = " ".join(out.getvalue().split())
    assert "t_ck_flagged:broken answered option index" in text


def test_a_reference_policy_is_checked_as_a_match_plays_it_and_exempt_from_M2(tmp_path):
    """A policy registered with ``reference=`` reads the truth block in a match: its
    decisions are checked with the block filled (the M2 check forced on it), and it is
    reported as exempt from M2 with how often they moved, never as passing M2."""
    path = tmp_path / "truth.py"
    path.write_text(textwrap.dedent('''
        import numba
        from demos_sim.demos import layout as L
        from demos_sim.demos.policies import POLICY_SIG, register

        @numba.njit(POLICY_SIG, cache=True)
        def truth(cfg, obs, opts, n_opts, params, rng):
            # its choice follows another seat's hidden hand (the truth block)
            return obs[L.O_T_HAND + (obs[L.O_SEAT] + 1) % 3] % 7 % n_opts

        register("t_ck_truth", reference="t_ck_truth")(truth)
    '''))
    from demos_sim.demos.policies import REGISTRY

    out = io.StringIO()
    try:
        assert CK.check_policies(str(path), games=1, out=out) == 0
    finally:               # the built-in references stay the only ones (test_omniscient)
        REGISTRY.unregister("t_ck_truth")
    text = " ".join(out.getvalue().split())
    assert "played as a match plays them" in text and "exempt M2" in text
    assert "unchanged when the hidden" not in text
    assert "refuse it unless allow_reference" in text
    moved = int(text.split("decisions moved in ")[1].split(" ")[0].replace(",", ""))
    assert moved > 0
