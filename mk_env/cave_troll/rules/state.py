"""A Cave Troll game in progress: the suite's engine protocol (:class:`mk_env.core.protocol.State`, the
same surface as the first game's :class:`~mk_env.mountain_king.rules.GameState`). The fields are declared in
:mod:`.fields`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np

from mk_env.core.flat_engine import ChanceState

from . import engine, scoring
from .fields import COPIED, FIELDS, FIELD_NAMES, NESTED, PENDING, SHARED, blank
from .vocabulary import PHASE_NAMES, STACK, Phase, pending_to_save

if TYPE_CHECKING:
    from .board import Occupancy
    from .game import Game

#: the save format (changes when a save's fields change)
FORMAT_VERSION = 1


class CaveTrollState(ChanceState):
    """One game in progress. Create with :meth:`Game.new_initial_state`."""

    __slots__ = ("game", "_rng", "_rng_state", "_cache", "_occ") + FIELD_NAMES

    def __init__(self, game: Game):
        self.game = game
        self._rng: np.random.Generator | None = None
        self._rng_state: dict | None = None  # the generator's state while it is not materialised
        self._cache: dict = {}  # memos forgotten at every change (the legal actions)
        self._occ: Occupancy | None = None  # who is where, kept up to date by board.relocate
        blank(self, game)

    # -- engine surface (the rest: :class:`~mk_env.core.flat_engine.ChanceState`) ----------------------
    ENGINE, PHASE_NAMES, GAME_OVER = engine, PHASE_NAMES, Phase.GAME_OVER

    def current_player(self) -> int:
        """The seat whose decision it is (an escaping player during escapes); -1 once the game is over."""
        return -1 if self.phase == Phase.GAME_OVER else self.current

    #: gold by scoring category and ``total``; the ranks (0 = winner, ties share); the returns
    score_breakdown = scoring.breakdown
    ranks = scoring.ranks
    returns = scoring.returns

    def seat_starts(self) -> list[int]:
        """Each seat's place in the turn order (0: the first player, drawn at setup)."""
        n = self.game.num_players
        return [(p - self.first_player) % n for p in range(n)]

    def invalidate_caches(self) -> None:
        """Forget the memos (call after editing fields by hand)."""
        self._cache = {}
        self._occ = None

    # -- copies -------------------------------------------------------------------------------------
    def clone(self) -> CaveTrollState:
        """An independent copy that continues exactly like this state (the generator included)."""
        other = CaveTrollState.__new__(CaveTrollState)
        other.game = self.game
        other._rng = None
        other._rng_state = self._rng_dict()
        other._cache = dict(self._cache)
        other._occ = None
        for name in SHARED:
            setattr(other, name, getattr(self, name))
        for name in COPIED:
            setattr(other, name, getattr(self, name)[:])
        for name in NESTED:
            setattr(other, name, [x[:] for x in getattr(self, name)])
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> CaveTrollState:
        """A copy in which everything ``player`` cannot see is resampled from ``rng``: the order of every
        pile (its own too: piles are face down), which artifacts lie in the stack and in the other players'
        hands (each hand keeps its size), and the generator."""
        st = self.clone()
        st._cache = {}
        st._occ = None
        for pile in st.piles:
            order = rng.permutation(len(pile))
            pile[:] = [pile[i] for i in order]
        hidden = [i for i, at in enumerate(st.art_at) if at == STACK or (at >= 0 and at != player)]
        holders = [st.art_at[i] for i in hidden]
        shuffled = [hidden[i] for i in rng.permutation(len(hidden))]
        for i, holder in zip(shuffled, holders):
            st.art_at[i] = holder
        st.stack = [i for i in shuffled if st.art_at[i] == STACK]
        st._rng, st._rng_state = None, np.random.PCG64(int(rng.integers(2**63))).state
        return st

    # -- JSON ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything, the generator included, as JSON-able data."""
        bits = self._rng_dict()
        data = {"format_version": FORMAT_VERSION, "game": "cave_troll", "pack_id": self.game.pack.pack_id,
                "num_players": self.num_players,
                "rng": {"bit_generator": bits["bit_generator"], "state": dict(bits["state"]),
                        "has_uint32": bits["has_uint32"], "uinteger": bits["uinteger"]}}
        for f in FIELDS:
            value = getattr(self, f.name)
            data[f.name] = pending_to_save(value) if f.kind == PENDING else value
        return json.loads(json.dumps(data))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CaveTrollState) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (f"<CaveTrollState {self.num_players} players, turn {self.turn}, {self.decision_kind()}, "
                f"seat {self.current}>")
