"""Flat int64 vectors declared once: fields in order, offsets and lengths derived.

The kernels share their data as flat int64 vectors (configuration, state, observation,
results, scratch). A game's ``layout`` module declares each vector's fields in order
with a :class:`Fields` allocator and binds every offset to a plain module-level int,
which numba folds into the kernels as a constant (``L.S_HAND`` inside ``@njit`` costs
nothing)::

    S = Fields("state")
    S_ROUND = S.add()               # one word
    S_HAND = S.add(MAXP)            # one hand mask per seat
    S_FIG = S.add((MAXP, NFIG))     # a table, row-major
    ST_LEN = S.size
    STATE = S.named(globals(), "S_")

:meth:`Fields.named` names the fields after the module constants bound to their
offsets (and checks that every field has exactly one name), so :meth:`Layout.view`
prints any vector field by field, like OpenSpiel's observer::

    >>> print(L.view_state(st))        # doctest: +SKIP
    state (250 words)
      S_ROUND      3
      S_HAND       [1099511627776, 0, …]
"""

from __future__ import annotations

import math

import numpy as np


class Fields:
    """Sequential allocator of one vector's fields (see the module docstring)."""

    def __init__(self, title: str):
        self.title = title
        self.size = 0
        self._fields: list[tuple[int, tuple[int, ...]]] = []   # (offset, shape)

    def add(self, shape: int | tuple[int, ...] = 1) -> int:
        """Reserve a field of ``shape`` words (an int or a row-major tuple) at the end;
        return its offset."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        words = math.prod(shape)
        if words < 1:
            raise ValueError(f"{self.title}: a field needs at least one word, got {shape}")
        offset = self.size
        self._fields.append((offset, shape))
        self.size += words
        return offset

    def skip(self, words: int) -> None:
        """Leave ``words`` unused words (keeps later offsets where callers expect them)."""
        self.size += words

    def named(self, namespace: dict, prefix: str) -> Layout:
        """The finished :class:`Layout`: each field is named by the one constant of
        ``namespace`` starting with ``prefix`` whose value is its offset."""
        by_offset: dict[int, list[str]] = {}
        for name, value in namespace.items():
            if name.startswith(prefix) and type(value) is int:
                by_offset.setdefault(value, []).append(name)
        fields = []
        for offset, shape in self._fields:
            names = by_offset.pop(offset, [])
            if len(names) != 1:
                raise ValueError(f"{self.title}: the field at offset {offset} has names {names}")
            fields.append((names[0], offset, shape))
        stray = sorted(n for ns in by_offset.values() for n in ns)
        if stray:
            raise ValueError(f"{self.title}: {stray} name no declared field")
        return Layout(self.title, fields, self.size)


class Layout:
    """The fields of one flat vector: ``name -> (offset, shape)``, in order."""

    def __init__(self, title: str, fields: list[tuple[str, int, tuple[int, ...]]], size: int):
        self.title = title
        self.size = size
        self.fields = {name: (offset, shape) for name, offset, shape in fields}

    def __len__(self) -> int:
        return self.size

    def __contains__(self, name: str) -> bool:
        return name in self.fields

    def __iter__(self):
        return iter(self.fields)

    def name_at(self, offset: int) -> str:
        """``"S_HAND[2]"``: the field (and index within it) holding word ``offset``."""
        for name, (start, shape) in self.fields.items():
            words = math.prod(shape)
            if start <= offset < start + words:
                if words == 1:
                    return name
                idx = np.unravel_index(offset - start, shape)
                return f"{name}[{', '.join(str(int(i)) for i in idx)}]"
        return f"<unused {offset}>"

    def get(self, vec: np.ndarray, name: str):
        """Field ``name`` of ``vec``: an int for one word, else a view of its shape."""
        start, shape = self.fields[name]
        words = math.prod(shape)
        if words == 1:
            return int(vec[start])
        return vec[start:start + words].reshape(shape)

    def view(self, vec: np.ndarray) -> View:
        """A named, printable view of ``vec`` (this layout's length)."""
        vec = np.asarray(vec)
        if vec.ndim != 1 or vec.shape[0] != self.size:
            raise ValueError(f"{self.title}: expected a vector of {self.size} words, "
                             f"got shape {vec.shape}")
        return View(self, vec)


class View:
    """A vector seen through its :class:`Layout`: ``v["S_HAND"]``, ``v.S_HAND``,
    ``v.as_dict()``; ``print(v)`` lists every field by name."""

    def __init__(self, layout: Layout, vec: np.ndarray):
        self._layout = layout
        self._vec = vec

    def __getitem__(self, name: str):
        return self._layout.get(self._vec, name)

    def __getattr__(self, name: str):
        if name.startswith("_") or name not in self._layout:
            raise AttributeError(name)
        return self._layout.get(self._vec, name)

    def __dir__(self):
        return list(self._layout)

    def as_dict(self) -> dict:
        """Every field: an int, or a nested list for a multi-word field."""
        out = {}
        for name in self._layout:
            v = self[name]
            out[name] = v if isinstance(v, int) else v.tolist()
        return out

    def __repr__(self) -> str:
        width = max((len(n) for n in self._layout), default=0)
        lines = [f"{self._layout.title} ({self._layout.size} words)"]
        for name, v in self.as_dict().items():
            lines.append(f"  {name:<{width}}  {v}")
        return "\n".join(lines)

    __str__ = __repr__
