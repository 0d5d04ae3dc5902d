"""A Fall of the Mountain King game in progress: the suite's engine protocol
(:class:`mk_env.core.protocol.State`). The fields are declared in :mod:`.fields`."""

from __future__ import annotations

import json
from operator import attrgetter
from typing import TYPE_CHECKING

import numpy as np

from mk_env.core.flat_engine import ChanceState

from . import engine, scoring
from .fields import BY_SWARM, COPIED, DEALT, FIELD_NAMES, FIELDS, IN_DECK, NESTED, SHARED, SUPPLY, blank
from .simultaneous import resample_committed
from .vocabulary import PHASE_NAMES, Phase

#: the fields of each kind at once (one call each, for :meth:`FallState.clone`)
_SHARED_OF, _COPIED_OF, _NESTED_OF = attrgetter(*SHARED), attrgetter(*COPIED), attrgetter(*NESTED)

if TYPE_CHECKING:
    from .game import Game

#: the save format (changes when a save's fields change)
FORMAT_VERSION = 2


class FallState(ChanceState):
    """One game in progress. Create with :meth:`Game.new_initial_state`."""

    __slots__ = ("game", "_rng", "_rng_state", "_cache") + FIELD_NAMES

    def __init__(self, game: Game):
        self.game = game
        self._rng: np.random.Generator | None = None
        self._rng_state: dict | None = None
        self._cache: dict = {}
        blank(self, game)

    # -- engine surface (the rest: :class:`~mk_env.core.flat_engine.ChanceState`) ----------------------
    ENGINE, PHASE_NAMES, GAME_OVER = engine, PHASE_NAMES, Phase.GAME_OVER

    def current_player(self) -> int:
        """The seat deciding now (the vote leader in an invasion's tie, the owner of a falling troll...);
        -1 once the game is over."""
        return -1 if self.phase == Phase.GAME_OVER else self.decider

    score_breakdown = scoring.breakdown
    ranks = scoring.ranks
    returns = scoring.returns

    def seat_starts(self) -> list[int]:
        """Each seat's place in the turn order from the start player marker's holder (0: the hammer's)."""
        n = self.game.num_players
        return [(p - self.start_player) % n for p in range(n)]

    # -- copies ---------------------------------------------------------------------------------------
    def clone(self) -> FallState:
        """An independent copy that continues exactly like this state (the generator included)."""
        other = FallState.__new__(FallState)
        other.game = self.game
        other._rng = None
        other._rng_state = self._rng_dict()
        other._cache = dict(self._cache)
        for name, value in zip(SHARED, _SHARED_OF(self)):
            setattr(other, name, value)
        for name, value in zip(COPIED, _COPIED_OF(self)):
            setattr(other, name, value[:])
        for name, value in zip(NESTED, _NESTED_OF(self)):
            setattr(other, name, list(map(list.copy, value)))
        other.pending = {k: (v[:] if isinstance(v, list) else v) for k, v in self.pending.items()}
        other.tasks = [[a[:] if isinstance(a, list) else a for a in t] for t in self.tasks]  # list arguments too
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> FallState:
        """A copy in which everything ``player`` cannot see is resampled from ``rng``: the cards of the
        other players' draft hands it has not held and the ancestry deck, the strengths of facedown gnomes
        it has not peeked at (dealt again among them), the facedown gate cards it has not
        peeked at and those put aside, the champion decks and the champions dealt to others at setup, the
        other players' choices committed in the simultaneous decision under way (drawn among those they had:
        :func:`~.simultaneous.resample_committed`), and the generator."""
        st = self.clone()
        st._cache = {}
        # ancestry cards: the deck and the cards of the other hands this player has not held (a card it
        # passed on stays where it went)
        seen = set(st.seen[player])
        pool = st.deck + [c for p, h in enumerate(st.hands) if p != player for c in h if c not in seen]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for p, h in enumerate(st.hands):
            if p != player:
                k = sum(1 for c in h if c not in seen)
                st.hands[p], pool = [c for c in h if c in seen] + pool[:k], pool[k:]
        st.deck = pool
        # gnomes: facedown ones (supply, by the swarm, on the map) the player does not know
        known = set(st.known_gnomes[player])
        hidden = [g for g, x in enumerate(st.gnome_at)
                  if (x in (SUPPLY, BY_SWARM) or (x >= 0 and not st.gnome_public[g] and g not in known))]
        strengths = [st.strength[g] for g in hidden]
        for g, i in zip(hidden, rng.permutation(len(hidden))):
            st.strength[g] = strengths[i]
        # gate cards: facedown, not peeked, and the ones aside
        peeked = set(st.known_gates[player])
        slots = [i for i in range(st.revealed, len(st.invasion)) if i not in peeked]
        cards = [st.invasion[i] for i in slots] + st.gates_aside
        cards = [cards[i] for i in rng.permutation(len(cards))]
        for i in slots:
            st.invasion[i] = cards.pop()
        st.gates_aside = cards
        # champion decks, and the 0-deck cards dealt to others still to choose
        for d in range(3):
            st.champ_decks[d] = [st.champ_decks[d][i] for i in rng.permutation(len(st.champ_decks[d]))]
        others = [c for p, d in enumerate(st.dealt) if p != player for c in d]
        if others:
            pool = others + st.champ_decks[0]
            pool = [pool[i] for i in rng.permutation(len(pool))]
            for p, d in enumerate(st.dealt):
                if p != player and d:
                    st.dealt[p], pool = pool[:len(d)], pool[len(d):]
                    for c in st.dealt[p]:
                        st.champ_state[c], st.champ_owner[c] = DEALT, p
            st.champ_decks[0] = pool
            for c in pool:
                st.champ_state[c], st.champ_owner[c] = IN_DECK, -1
        resample_committed(st, player, rng)  # after the hands and dealt champions they choose among
        st._rng, st._rng_state = None, np.random.PCG64(int(rng.integers(2**63))).state
        return st

    # -- JSON -----------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything, the generator included, as JSON-able data."""
        bits = self._rng_dict()
        data = {"format_version": FORMAT_VERSION, "game": "fall_of_the_mountain_king",
                "pack_id": self.game.pack.pack_id, "num_players": self.num_players,
                "rng": {"bit_generator": bits["bit_generator"], "state": dict(bits["state"]),
                        "has_uint32": bits["has_uint32"], "uinteger": bits["uinteger"]}}
        for name, _, _ in FIELDS:
            data[name] = getattr(self, name)
        return json.loads(json.dumps(data))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FallState) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (f"<FallState {self.num_players} players, wave {self.wave}, {self.decision_kind()}, "
                f"seat {self.decider}>")
