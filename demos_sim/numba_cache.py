"""numba's on-disk cache, made to notice a change in any module a kernel calls into.

numba keys a cached function by its own source file only ("Notes on Caching" in numba's
developer guide): a kernel compiled into the cache carries a copy of every function it
calls, so after an edit of ``scoring.py`` the cached engine (``engine.py``, unchanged)
went on scoring hands the old way — results of a rule that is no longer in the code,
with nothing to say so (measured: a warm cache played the old rule, a fresh one the new).

Here a cached function's source stamp is numba's stamp of its file *and* a digest of
every ``demos_sim`` module that file imports, directly or not (read from the files'
``import`` statements, so a plugin or a test that imports ``demos_sim`` is covered too):
an edit anywhere in that closure makes the cache stale, and numba compiles afresh and
overwrites it. Importing :mod:`demos_sim` installs the two locators below ahead of
numba's own (``NUMBA_CACHE_DIR``, the in-tree ``__pycache__``, the per-user one), so every
kernel of the package, its plugins and its tests is cached this way; a user who sets
``NUMBA_CACHE_LOCATOR_CLASSES`` chooses the locators themselves.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from numba.core import caching

PACKAGE = Path(__file__).resolve().parent
_NAME = PACKAGE.name


def _module_file(name: str) -> Path | None:
    """The file of module ``demos_sim.a.b`` (a package's ``__init__.py``), or None."""
    base = PACKAGE.joinpath(*name.split(".")[1:])
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


_FROM = re.compile(r"^[ \t]*from[ \t]+(\w+(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)",
                   re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]*)", re.M)


def _names(text: str) -> list[str]:
    """``a, b as c`` / ``(a,  # comment\n b)`` -> ["a", "b"]."""
    text = re.sub(r"#[^\n]*", "", text).strip("()\\ \t\n")
    return [t.split()[0] for t in re.split(r"[,\n]", text) if t.strip(" \t\\()")]


@lru_cache(maxsize=None)
def imports(path: Path) -> tuple[Path, ...]:
    """Files of the ``demos_sim`` modules that ``path`` imports (anywhere in the file:
    a line read as an import that is not one only makes the cache stale more often)."""
    try:
        src = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    names = []
    for m in _FROM.finditer(src):
        mod = m.group(1)
        if mod == _NAME or mod.startswith(_NAME + "."):
            # ``from demos_sim.demos import layout``: the module layout, else demos_sim.demos
            names += [f"{mod}.{a}" if _module_file(f"{mod}.{a}") else mod
                      for a in _names(m.group(2))]
    for m in _IMPORT.finditer(src):
        names += _names(m.group(1))
    out = {p for n in names if n == _NAME or n.startswith(_NAME + ".")
           if (p := _module_file(n)) is not None}
    return tuple(sorted(out))


@lru_cache(maxsize=None)
def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@lru_cache(maxsize=None)
def closure_digest(path: Path) -> str:
    """Digest of the contents of every ``demos_sim`` module ``path`` depends on."""
    seen: set[Path] = set()
    todo = list(imports(path))
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(imports(p))
    h = hashlib.sha256()
    for p in sorted(seen):
        h.update(str(p.relative_to(PACKAGE)).encode() + b"\0" + _file_digest(p).encode())
    return h.hexdigest()


class _DependenciesStamp:
    """Mixin: numba's stamp of the function's file, with its dependencies' digest."""

    def get_source_stamp(self):
        return super().get_source_stamp(), closure_digest(Path(self._py_file).resolve())


def _numba(name):             # numba < 0.61 spelt its locators with a leading underscore
    return getattr(caching, name, None) or getattr(caching, "_" + name)


class UserProvidedLocator(_DependenciesStamp, _numba("UserProvidedCacheLocator")):
    """numba's ``NUMBA_CACHE_DIR`` locator, stamped with the dependencies."""


class InTreeLocator(_DependenciesStamp, _numba("InTreeCacheLocator")):
    """numba's ``__pycache__`` locator, stamped with the dependencies."""


class UserWideLocator(_DependenciesStamp, _numba("UserWideCacheLocator")):
    """numba's per-user locator (a read-only install), stamped with the dependencies."""


LOCATORS = (UserProvidedLocator, InTreeLocator, UserWideLocator)   # numba's order


def install() -> None:
    """Put the locators ahead of numba's own (once)."""
    classes = _numba("CacheImpl")._locator_classes
    for cls in reversed(LOCATORS):
        if cls not in classes:
            classes.insert(0, cls)
