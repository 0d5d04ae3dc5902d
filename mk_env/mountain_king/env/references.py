"""What each action number refers to in the observation: the entries a policy should read to score it.

An action number alone says *where* (horde slot 3, placement 812, spellbook position 1); what is there is
in the observation (which troll sits in horde slot 3, what the squares of placement 812 hold, which spell
is in position 1). :func:`action_references` lists, for every action number, the flat observation
indices (:meth:`Observer.encode_flat`'s layout) that describe what it chooses, so a network can build
each legal action's features from the observation (:class:`agents.az_net.ActionFeatures`) instead of learning
for every action number which entries describe its target.

The lists, block by block (egocentric: row 0 of a player axis is the observer, the one who acts):

* ``gate``, ``activate_workshop``, ``select_statue``, ``move_statue``: every board channel of the square;
* ``dig``, ``hall``: every board channel of each square the placement covers;
* ``recruit``: the horde slot's entries and the observer's trollsmoot slot it fills;
* ``draft``: the starter's entry in the draft hand and the trollsmoot slot;
* ``cast``: the spellbook position's entries;
* ``smoot_slot``, ``horde_slot``: that slot's entries;
* ``workshop_use`` that moves a token off a troll, ``pay_token``: the source's entries (a trollsmoot
  slot, or the observer's storage);
* the rest (``pass``, ``spell_option``, ``trade``, ``bribe``, ``pedestal``, ``mineral``, ``establish``,
  the other workshop uses): nothing; the action number says all there is.
"""

from __future__ import annotations

import numpy as np

from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules.actions import N_TOKEN_KINDS, STORAGE_SOURCE, ActionLayout

from .observation import Observer


def action_references(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """``(pointer, index)`` in compressed-row form: action ``a`` refers to the flat observation entries
    ``index[pointer[a]:pointer[a + 1]]`` (int64, each list sorted, duplicates removed)."""
    ob, layout = Observer(game), game.layout
    lists: list[np.ndarray] = []
    for block in layout.BLOCKS:
        refer = _BLOCK_REFERENCES.get(block)
        for arg in range(layout.sizes[block]):
            lists.append(np.unique(refer(ob, layout, arg)) if refer else np.zeros(0, np.int64))
    pointer = np.zeros(len(lists) + 1, np.int64)
    pointer[1:] = np.cumsum([len(x) for x in lists])
    index = np.concatenate(lists).astype(np.int64) if lists else np.zeros(0, np.int64)
    return pointer, index


def _entries(ob: Observer, key: str, *lead: int) -> np.ndarray:
    """The flat indices of one row of array ``key`` (all its last-axis entries at the leading ``lead``)."""
    start, _, shape = ob.slices[key]
    return start + np.ravel_multi_index(tuple(lead), shape[:-1]) * shape[-1] + np.arange(shape[-1]) \
        if lead else start + np.arange(shape[-1])


def _squares(ob: Observer, squares: np.ndarray) -> np.ndarray:
    """Every board channel of ``squares`` (the board array is channels x rows x columns)."""
    start, _, (channels, _, _) = ob.slices["board"]
    squares = np.asarray(squares, np.int64)
    squares = squares[squares < ob.hw]  # drop the sentinel padding
    return (start + np.arange(channels)[:, None] * ob.hw + squares[None, :]).ravel()


def _smoot_slot(ob: Observer, slot: int) -> np.ndarray:
    return _entries(ob, "trollsmoots", 0, slot)


def _source(ob: Observer, source: int) -> np.ndarray:
    """A payment source: a trollsmoot slot of the observer, or its storage."""
    if source == STORAGE_SOURCE:
        return _entries(ob, "players", 0)[ob.at["players"].storage]
    return _smoot_slot(ob, source)


def _dig(ob: Observer, layout: ActionLayout, a: int) -> np.ndarray:
    t = ob.game.geo.tunnel_placements
    return _squares(ob, t.cells[a])


def _hall(ob: Observer, layout: ActionLayout, a: int) -> np.ndarray:
    t = ob.game.geo.hall_placements
    return _squares(ob, t.cells[a])


def _recruit(ob: Observer, layout: ActionLayout, a: int) -> np.ndarray:
    horde_slot, smoot_slot = layout.recruit_args(a)
    return np.concatenate([_entries(ob, "horde", horde_slot), _smoot_slot(ob, smoot_slot)])


def _draft(ob: Observer, layout: ActionLayout, a: int) -> np.ndarray:
    starter, slot = layout.draft_args(a)
    hand = ob.slices["draft"][0] + starter
    return np.concatenate([[hand], _smoot_slot(ob, slot)])


def _workshop_use(ob: Observer, layout: ActionLayout, a: int) -> np.ndarray:
    move = layout.conversions[a].move
    return _smoot_slot(ob, move[0]) if move is not None else np.zeros(0, np.int64)


def _pay_token(ob: Observer, layout: ActionLayout, a: int) -> np.ndarray:
    return _source(ob, a // N_TOKEN_KINDS)


_BLOCK_REFERENCES = {
    "gate": lambda ob, layout, a: _squares(ob, [ob.game.geo.start_points[a][0]]),
    "activate_workshop": lambda ob, layout, a: _squares(ob, [ob.game.geo.site_squares[a]]),
    "select_statue": lambda ob, layout, a: _squares(ob, [a]),
    "move_statue": lambda ob, layout, a: _squares(ob, [a]),
    "dig": _dig,
    "hall": _hall,
    "recruit": _recruit,
    "draft": _draft,
    "cast": lambda ob, layout, a: _entries(ob, "spellbook", a),
    "smoot_slot": lambda ob, layout, a: _smoot_slot(ob, a),
    "horde_slot": lambda ob, layout, a: _entries(ob, "horde", a),
    "workshop_use": _workshop_use,
    "pay_token": _pay_token,
}

__all__ = ["action_references"]
