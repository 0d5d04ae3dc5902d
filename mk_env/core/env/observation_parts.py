"""How a game of the suite declares its observation arrays: each array once, as a :class:`Part` (its key,
shape, meaning and entry names, the shape and names computed from the game's observer), built into a
:class:`Field` for one game; the space, the flat vector's offsets and the documentation tables derive from
the fields (:class:`DeclaredObserver`: Cave Troll's and Fall of the Mountain King's observers, and the
global state of each)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Part:
    """One array of the observation: its key, its shape, what it holds, the names along its last axis
    (the shape and the names are functions of the game's observer)."""

    key: str
    shape: Callable[[Any], tuple[int, ...]]
    meaning: str
    entries: Callable[[Any], tuple[str, ...]]

    def build(self, observer: Any) -> Field:
        """This part for ``observer``'s game."""
        return Field(self.key, self.shape(observer), self.meaning, tuple(self.entries(observer)))


@dataclass(frozen=True)
class Field:
    """One array of the observation as built: key, shape, meaning, entry names along the last axis."""

    key: str
    shape: tuple[int, ...]
    meaning: str
    entries: tuple[str, ...]


class DeclaredObserver:
    """What an observer of declared arrays shares: the space, the flat vector's layout and the global state's,
    from the fields. A game's observer calls :meth:`lay_out` with its built :class:`Field` list (and
    :meth:`lay_out_state` with its global state's) and writes ``encode_flat``/``encode``/``encode_state``.

    The arrays are views onto one flat float32 buffer laid out in the space's key order (gymnasium's ``Dict``
    sorts its keys), so the ``"flat"`` style costs no copy and equals ``gymnasium.spaces.flatten(space, obs)``.
    """

    fields: list[Field]
    size: int

    def lay_out(self, fields: list[Field]) -> None:
        """``fields``, ``space``, ``slices`` (``{key: (start, stop, shape)}``), ``size``, ``flat_space`` and
        ``col`` (``{key: {entry name: index}}``) from the observation's fields."""
        from gymnasium import spaces

        self.fields = fields
        self.space = spaces.Dict({f.key: spaces.Box(0.0, 1.0, f.shape, np.float32) for f in fields})
        shapes = {f.key: f.shape for f in fields}
        self.slices: dict[str, tuple[int, int, tuple[int, ...]]] = {}
        at = 0
        for key in self.space.spaces:  # gymnasium's key order
            size = int(np.prod(shapes[key]))
            self.slices[key] = (at, at + size, shapes[key])
            at += size
        self.size = at
        self.flat_space = spaces.Box(0.0, 1.0, (self.size,), np.float32)
        self._specs = [(key, slice(a, b), shape if len(shape) > 1 else None)
                       for key, (a, b, shape) in self.slices.items()]
        self.col = {f.key: {name: i for i, name in enumerate(f.entries)} for f in fields}

    def lay_out_state(self, state_fields: list[Field]) -> None:
        """``state_fields``, ``state_slices``, ``state_size`` and ``state_space`` of PettingZoo's ``state()``
        (the fields one after another, in their order)."""
        from gymnasium import spaces

        self.state_fields = state_fields
        self.state_slices: dict[str, tuple[int, int, tuple[int, ...]]] = {}
        at = 0
        for f in state_fields:
            size = int(np.prod(f.shape))
            self.state_slices[f.key] = (at, at + size, f.shape)
            at += size
        self.state_size = at
        self.state_space = spaces.Box(0.0, 1.0, (at,), np.float32)

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The observation dict of a flat vector (views, no copy; in the space's key order)."""
        return {key: flat[span] if shape is None else flat[span].reshape(shape) for key, span, shape in self._specs}

    def flatten(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The flat vector of an observation dict."""
        return np.concatenate([np.asarray(obs[key], np.float32).ravel() for key in self.slices])

    def encode(self, st: Any, player: int) -> dict[str, np.ndarray]:
        """The observation of ``player`` (fresh arrays): views onto :meth:`encode_flat`'s vector."""
        return self.views(self.encode_flat(st, player))

    def encode_flat(self, st: Any, player: int) -> np.ndarray:  # pragma: no cover - each game's own
        raise NotImplementedError
