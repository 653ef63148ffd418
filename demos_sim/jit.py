"""The one decorator every kernel of the three games is compiled with.

``kernel`` is ``numba.njit`` with the flags the kernels share:

- ``cache=True``: compiled once into numba's on-disk cache (:mod:`demos_sim.numba_cache`
  makes that cache notice an edit of any module a kernel calls into);
- ``nogil=True``: the kernel releases Python's lock while it runs, so a thread that
  plays games does not stop the others (the games played are the same);
- ``_nrt=False``: numba's reference-counted memory is off. A kernel never allocates — its
  arrays are handed in by the caller — and numba refuses, at compile time, anything in it
  that would allocate.

The forms::

    @kernel                        # compiled for the types of its first call
    @kernel(inline=True)           # a small helper copied into its callers
                                   # (numba's inline="always")
    @kernel(POLICY_SIG)            # compiled now, for this signature (a policy)
    @kernel(allocates=True)        # builds arrays: reference counting stays on
    kernel(POLICY_SIG, cache=False)(fn)   # built at run time (nothing to cache)

Under ``NUMBA_DISABLE_JIT=1`` numba hands back the plain Python function, as ``njit``
does.
"""

from __future__ import annotations

import inspect

from numba import njit

FLAGS = {"cache": True, "nogil": True, "_nrt": False}


def kernel(fn_or_sig=None, /, *, inline: bool = False, allocates: bool = False,
           cache: bool = True):
    """``numba.njit`` with the kernels' flags (:data:`FLAGS`); see the module text."""
    opts = dict(FLAGS, cache=cache)
    if allocates:
        del opts["_nrt"]
    if inline:
        opts["inline"] = "always"
    if inspect.isfunction(fn_or_sig):
        return njit(**opts)(fn_or_sig)

    def decorate(fn):
        if fn_or_sig is None:
            return njit(**opts)(fn)
        return njit(fn_or_sig, **opts)(fn)

    return decorate
