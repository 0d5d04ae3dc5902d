"""The replay buffer of AlphaZero-style training: positions of self-play with their search targets.

One :class:`Position` is what the learner needs of one decision: the deciding seat's flat observation,
its legal actions, the search's visit distribution over them (the policy target) and the game's final
returns seen from that seat (the value target, egocentric like the network's values). Observations are
mostly zeros (about 1,000 non-zero entries of 13,660 in the first game), so they are kept sparse
(``uint16``/``int32`` indices, ``float16`` values): about 4 kB a position instead of 55 kB.

The buffer keeps the newest ``capacity`` positions (first in, first out), samples uniformly, and saves
to / loads from one ``.npz`` of plain arrays (``allow_pickle=False``), written atomically.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_FIELDS = ("index", "value", "legal", "policy", "outcome")


@dataclass(frozen=True)
class Position:
    """One decision of self-play as a training example."""

    index: np.ndarray  # where the observation is non-zero
    value: np.ndarray  # the observation there (float16)
    legal: np.ndarray  # the legal actions (int32)
    policy: np.ndarray  # the visit distribution over ``legal`` (float32, sums to 1)
    outcome: np.ndarray  # final returns, deciding seat first (float32, one per seat)

    @classmethod
    def make(cls, observation: np.ndarray, legal: np.ndarray, policy: np.ndarray,
             outcome: np.ndarray) -> Position:
        """A position from a dense observation."""
        if len(legal) != len(policy):
            raise ValueError(f"{len(policy)} policy entries for {len(legal)} legal actions")
        index = np.flatnonzero(observation)
        kind = np.uint16 if observation.size < 2 ** 16 else np.int32
        return cls(index.astype(kind), observation[index].astype(np.float16), np.asarray(legal, np.int32),
                   np.asarray(policy, np.float32), np.asarray(outcome, np.float32))


class ReplayBuffer:
    """The newest ``capacity`` positions; ``observation_size`` is the dense observation's length."""

    def __init__(self, capacity: int, observation_size: int):
        if not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"replay buffer capacity must be a whole number >= 1, got {capacity!r}")
        self.capacity, self.observation_size = capacity, int(observation_size)
        self.positions: deque[Position] = deque(maxlen=capacity)
        self.added = 0  # positions ever added (including those pushed out)

    def __len__(self) -> int:
        return len(self.positions)

    def extend(self, positions: list[Position]) -> None:
        self.positions.extend(positions)
        self.added += len(positions)

    def sample(self, batch: int, rng: np.random.Generator
               ) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[np.ndarray], list[np.ndarray], np.ndarray]:
        """``batch`` positions drawn uniformly (with replacement): observations as (indices, values) rows
        (:meth:`agents.az_net.SparseBatch.from_rows`), legal action lists, policy targets, outcomes
        (B, seats)."""
        if not self.positions:
            raise ValueError("the replay buffer is empty: play some games first")
        picks = [self.positions[int(k)] for k in rng.integers(len(self.positions), size=batch)]
        return ([(p.index, p.value) for p in picks], [p.legal for p in picks], [p.policy for p in picks],
                np.stack([p.outcome for p in picks]))

    def dense(self, rows: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """Observation rows of :meth:`sample` as a dense (B, D) float32 array."""
        out = np.zeros((len(rows), self.observation_size), np.float32)
        for r, (index, value) in enumerate(rows):
            out[r, index] = value
        return out

    # -- files --------------------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write every position to ``path`` (``.npz``), atomically."""
        path = Path(path)
        arrays: dict[str, np.ndarray] = {"meta": np.array([self.capacity, self.observation_size, self.added],
                                                          np.int64)}
        for name in _FIELDS:
            parts = [getattr(p, name) for p in self.positions]
            arrays[f"{name}_lengths"] = np.array([len(x) for x in parts], np.int64)
            arrays[name] = np.concatenate(parts) if parts else np.zeros(0, np.float32)
        tmp = path.with_name(f".{path.name}.tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | Path, capacity: int | None = None) -> ReplayBuffer:
        """A buffer read back from :meth:`save` (``capacity``: a new capacity, else the saved one)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                saved_capacity, size, added = (int(x) for x in data["meta"])
                columns = {}
                for name in _FIELDS:
                    ends = np.cumsum(data[f"{name}_lengths"])
                    columns[name] = np.split(data[name], ends[:-1]) if len(ends) else []
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"{path}: not a replay buffer file ({type(e).__name__}: {e})") from None
        counts = {len(c) for c in columns.values()}
        if len(counts) > 1:
            raise ValueError(f"{path}: the replay buffer's columns have different lengths {sorted(counts)}")
        buffer = cls(capacity or saved_capacity, size)
        buffer.positions.extend(Position(*row) for row in zip(*(columns[n] for n in _FIELDS)))
        buffer.added = added
        return buffer
