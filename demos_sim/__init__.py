"""demos-sim: Monte Carlo balance analysis for DĒMOS, Protocole and L'Assemblée."""

from importlib.metadata import PackageNotFoundError, version as _version

from demos_sim import numba_cache as _numba_cache

_numba_cache.install()    # before any kernel is defined: cached kernels notice edited callees

try:
    __version__ = _version("demos-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"


# The largest whole number a setting or variant takes (points, vetoes, thresholds …): far
# past any game, and well inside the kernels' int64 words. Round caps stop lower
# (MAX_ROUND_CAP): a game record keeps room for every round up to its cap.
MAX_SETTING = 1_000_000
MAX_ROUND_CAP = 10_000


class ConfigError(ValueError):
    """A configuration, variant, policy or input file that cannot be used.

    Its message is one line naming the problem; the CLI prints it and exits 2.
    """
