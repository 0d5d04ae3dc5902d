"""PettingZoo's global state of Fall of the Mountain King (``env.state()``): seat 0's observation, then what no
single seat may see (every gnome's strength by location, the gate cards, every draft hand)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mk_env.core.env.observation_parts import Field

from .observation_tables import COUNT_SCALE, cell_vector

_F32 = np.float32


def state_fields(ob: Any) -> list[Field]:
    """The global state's fields, in their order, for observer ``ob``."""
    return [
        Field("observation", (ob.size,), "seat 0's observation (the flat vector)", ()),
        Field("gnomes", (ob.n_loc, 3), "per location: its gnomes of strength 1, 2, 3 (/ 10), facedown ones too", ()),
        Field("gates", (ob.n_gates, ob.n_clans), "per gate card by the board: its clan (one-hot)", ()),
        Field("hands", (ob.n, ob.hand, 4, ob.cell_width), "every seat's draft hand (absolute seats)", ()),
    ]


def encode_state(ob: Any, st: Any) -> np.ndarray:
    """The full-information vector of ``ob.state_slices`` for state ``st``."""
    out = np.zeros(ob.state_size, _F32)
    out[:ob.size] = ob.encode_flat(st, 0)
    part = {k: out[a:b].reshape(shape) for k, (a, b, shape) in ob.state_slices.items()}
    strength = st.strength  # each gnome's strength by id (dealt at setup)
    for gnome, x in enumerate(st.gnome_at):
        if x >= 0:
            part["gnomes"][x, strength[gnome] - 1] += 1.0 / COUNT_SCALE
    for pos, clan in enumerate(st.invasion):
        part["gates"][pos, clan] = 1.0
    cards = ob.game.pack.cards
    for seat, hand in enumerate(st.hands):
        for slot, card in enumerate(hand[:ob.hand]):
            for i, cell in enumerate(cards[card].cells[:4]):
                part["hands"][seat, slot, i] = cell_vector(cell, ob.cell_width)
    return out
