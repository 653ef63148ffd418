"""Fixtures of the bot-kit tests."""

import pytest


@pytest.fixture(autouse=True, scope="module")
def _registries_left_as_found():
    """The policies a test file registers (its plugins, its test bots) are removed at its
    end: a later test file in the same process (tests/protocole/test_omniscient.py: the
    built-in references are the only ones) sees the registries as it would alone."""
    from demos_sim.assemblee import policies as AP
    from demos_sim.protocole import policies as PP

    before = {R: set(R.available()) for R in (PP.REGISTRY, AP.REGISTRY)}
    yield
    for R, names in before.items():
        for name in set(R.available()) - names:
            R.unregister(name)
