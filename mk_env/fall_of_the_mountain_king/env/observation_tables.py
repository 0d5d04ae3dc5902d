"""What :class:`~mk_env.fall_of_the_mountain_king.env.observation.FallObserver` builds once per game: the
entries of each ancestry grid code, of each ancestry card's cells (:func:`cell_vector`, which the global state
shares), and the static part of every observation (the map's geometry, the halls' caverns, the champions'
printed facts)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mk_env.fall_of_the_mountain_king.rules import Symbol

_F32 = np.float32
#: trolls, pawns and gnomes in one location, votes and influence are encoded as min(x, COUNT_SCALE) / COUNT_SCALE
COUNT_SCALE = 10.0
#: the numbers of a decision under way (power, trolls left to move, ...) are encoded / NUMBER_SCALE, capped
NUMBER_SCALE = 10.0


def cell_vector(value: tuple[Symbol, int] | None, width: int) -> np.ndarray:
    """A grid cell's or a card cell's entries: card, blank, the symbol (one-hot), strength / 3 (and the
    marker, left 0)."""
    v = np.zeros(width, _F32)
    v[0] = 1.0
    if value is None:
        v[1] = 1.0
    else:
        v[2 + int(value[0])] = 1.0
        v[2 + len(Symbol)] = value[1] / 3.0
    return v


def code_table(ob: Any) -> np.ndarray:
    """Row ``code + 1`` (grid codes: -1 no card, 0 blank, 1 + symbol * 3 + strength - 1) -> cell entries."""
    from mk_env.fall_of_the_mountain_king.rules.ancestry import decode

    codes = 2 + len(Symbol) * 3
    table = np.zeros((codes, ob.cell_width), _F32)
    for code in range(0, codes - 1):
        table[code + 1] = cell_vector(decode(code), ob.cell_width)
    return table


def card_table(ob: Any) -> np.ndarray:
    """Per ancestry card: its first 4 cells' entries (row-major) as in the hand; rows of no cell stay 0."""
    table = np.zeros((len(ob.game.pack.cards), 4, ob.cell_width), _F32)
    for card, printed in enumerate(ob.game.pack.cards):
        for i, cell in enumerate(printed.cells[:4]):
            table[card, i] = cell_vector(cell, ob.cell_width)
    return table


def _clan0(ob: Any, key: str) -> int:
    """The column of the first clan's one-hot in part ``key``."""
    return ob.col[key][f"clan_{ob.game.pack.clans[0].lower()}"]


def static_template(ob: Any) -> np.ndarray:
    """What never changes in a game: the map's geometry, the halls' caverns, the champions' printed facts."""
    side, pack = ob.game.side, ob.game.pack
    flat = np.zeros(ob.size, _F32)
    v = ob.views(flat)
    for x, near in enumerate(side.adjacent):
        v["adjacency"][x, list(near)] = 1.0
    mc, m = ob.col["map"], v["map"]
    m[:side.n_caverns, mc["cavern"]] = 1.0
    m[side.n_caverns:, mc["lair_space"]] = 1.0
    for x in range(side.n_caverns):
        m[x, _clan0(ob, "map") + side.clan_of[x]] = 1.0
    for gates in side.gates:
        m[list(gates), mc["gate"]] = 1.0
    for h, caverns in enumerate(side.halls):
        v["halls"][h, 2 + np.array(caverns)] = 1.0
    cc, ch = ob.col["champions"], v["champions"]
    for c, champ in enumerate(pack.champions):
        ch[c, cc["deck_0"] + champ.deck] = 1.0
        ch[c, cc["outsider"] if champ.clan < 0 else _clan0(ob, "champions") + champ.clan] = 1.0
        ch[c, cc["votes"]] = min(champ.votes, COUNT_SCALE) / COUNT_SCALE
        ch[c, cc[f"ability_{champ.ability.value}"]] = 1.0
        ch[c, cc["amount"]] = min(champ.amount, NUMBER_SCALE) / NUMBER_SCALE
    return flat
