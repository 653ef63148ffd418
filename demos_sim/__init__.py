"""demos-sim: Monte Carlo balance analysis for DĒMOS, Protocole and L'Assemblée."""

from importlib.metadata import PackageNotFoundError, version as _version

from demos_sim import numba_cache as _numba_cache

_numba_cache.install()    # before any kernel is defined: cached kernels notice edited callees

try:
    __version__ = _version("demos-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"


class ConfigError(ValueError):
    """A configuration, variant, policy or input file that cannot be used.

    Its message is one line naming the problem; the CLI prints it and exits 2.
    """
