"""The Take-away observation: ``game`` (the stones left / the largest pile, my decision, my seat one-hot) and
``players`` (per player, egocentric: stones taken / the largest pile, took the last stone)."""

from __future__ import annotations

import numpy as np

from mk_env.core.env.observation_parts import DeclaredObserver, Field, Part

PARTS = (
    Part("game", lambda ob: (2 + ob.n,), "the stones left / the largest pile, my decision, my seat (one-hot)",
         lambda ob: ("stones_left", "my_decision") + tuple(f"seat_{p}" for p in range(ob.n))),
    Part("players", lambda ob: (ob.n, 2), "per player (row 0: me, then in turn order): stones taken / the largest "
         "pile, took the last stone", lambda ob: ("taken", "last")),
)


class TakeAwayObserver(DeclaredObserver):
    """Encodes Take-away states for any of their players."""

    def __init__(self, game):
        self.game, self.n = game, game.num_players
        self.scale = 1.0 / game.pack.pile[1]
        self.lay_out([p.build(self) for p in PARTS])
        self.lay_out_state([Field("observation", (self.size,), "seat 0's observation (nothing is hidden)", ())])

    def __reduce__(self) -> tuple:
        return TakeAwayObserver, (self.game,)

    def encode_flat(self, st, player: int) -> np.ndarray:
        flat = np.zeros(self.size, np.float32)
        v = self.views(flat)
        v["game"][0] = st.pile * self.scale
        v["game"][1] = float(st.current_player() == player and not st.is_terminal())
        v["game"][2 + player] = 1.0
        for k in range(self.n):
            seat = (player + k) % self.n
            v["players"][k] = (st.taken[seat] * self.scale, float(st.last == seat))
        return flat

    def encode_state(self, st) -> np.ndarray:
        return self.encode_flat(st, 0)
