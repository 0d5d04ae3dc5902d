"""Reading an action mask quickly: the legal action numbers, and a uniformly random legal action.

The mask is PettingZoo's ``int8`` vector over the whole action space, any game of the suite (9,790 entries
on the first game's winter side). ``np.flatnonzero`` on an ``int8`` vector of that size costs ~13 µs, more
than a tenth of an environment step; on the same bytes seen as ``bool`` numpy's counting fast path takes
~0.7 µs. The mask holds only 0 and 1, so the two views agree."""

from __future__ import annotations

import numpy as np


def legal_action_numbers(mask: np.ndarray) -> np.ndarray:
    """The legal action numbers of ``mask`` (0/1 entries, any integer or bool dtype), in increasing
    order: ``np.flatnonzero(mask)``, faster for one-byte masks."""
    mask = np.asarray(mask)
    if mask.ndim == 1 and mask.dtype.itemsize == 1 and mask.dtype.kind in "biu" and mask.flags.c_contiguous:
        return mask.view(np.bool_).nonzero()[0]
    return np.flatnonzero(mask)


def random_legal_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of ``mask`` (the same draw as
    ``rng.choice(np.flatnonzero(mask))``: one ``rng.integers`` call)."""
    legal = legal_action_numbers(mask)
    if len(legal) == 0:
        raise ValueError("the action mask has no legal action (the game is over for this agent: "
                         "step with None)")
    return int(legal[rng.integers(len(legal))])
