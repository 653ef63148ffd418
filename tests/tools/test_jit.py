"""The kernels' decorator (:mod:`demos_sim.jit`): the flags every kernel of the three
games is compiled with."""

from __future__ import annotations

import numpy as np
import pytest
from numba import config

from demos_sim.jit import kernel
from demos_sim.registry import POLICY_SIG

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="numba's flags need the JIT")


def _zeros(n):
    return np.zeros(n, np.int64)


def test_a_kernel_refuses_to_allocate_unless_it_says_so():
    """No reference counting: numba refuses, at compile time, a kernel that allocates;
    ``allocates=True`` keeps it."""
    with pytest.raises(Exception, match="array passed into the function"):
        kernel(cache=False)(_zeros)(3)
    assert kernel(allocates=True, cache=False)(_zeros)(3).tolist() == [0, 0, 0]


def test_a_policy_is_compiled_for_its_signature_before_any_call():
    def first(cfg, obs, opts, n_opts, params, rng):
        return 0

    fn = kernel(POLICY_SIG, cache=False)(first)
    assert [s.args for s in fn.nopython_signatures] == [POLICY_SIG.args]


def test_the_flags():
    def one(x):
        return x + 1

    plain = kernel(cache=False)(one)
    inline = kernel(inline=True, cache=False)(one)
    alloc = kernel(allocates=True, cache=False)(one)
    assert plain.targetoptions["nogil"] is True and plain.targetoptions["_nrt"] is False
    assert inline.targetoptions["inline"] == "always"
    assert "inline" not in plain.targetoptions and "_nrt" not in alloc.targetoptions
    assert plain(1) == inline(1) == 2
