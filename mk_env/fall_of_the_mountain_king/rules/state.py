"""A Fall of the Mountain King game in progress: the suite's engine protocol
(:class:`mk_env.core.protocol.State`). The fields are declared in :mod:`.fields`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np

from . import engine, scoring
from .fields import BY_SWARM, COPIED, DEALT, FIELD_NAMES, FIELDS, IN_DECK, NESTED, SHARED, SUPPLY, blank
from .vocabulary import PHASE_NAMES, Phase

if TYPE_CHECKING:
    from .game import Game

#: the save format (changes when a save's fields change)
FORMAT_VERSION = 1


class FallState:
    """One game in progress. Create with :meth:`Game.new_initial_state`."""

    __slots__ = ("game", "_rng", "_rng_state", "_cache") + FIELD_NAMES

    def __init__(self, game: Game):
        self.game = game
        self._rng: np.random.Generator | None = None
        self._rng_state: dict | None = None
        self._cache: dict = {}
        blank(self, game)

    # -- engine surface -------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def rng(self) -> np.random.Generator:
        """The generator of the game's chance (part of the state)."""
        if self._rng is None:
            self._rng = np.random.Generator(np.random.PCG64())
            self._rng.bit_generator.state = self._rng_state
            self._rng_state = None
        return self._rng

    def _rng_dict(self) -> dict:
        return self._rng.bit_generator.state if self._rng is not None else self._rng_state

    def current_player(self) -> int:
        """The seat deciding now (the vote leader in an invasion's tie, the owner of a falling troll...);
        -1 once the game is over."""
        return -1 if self.phase == Phase.GAME_OVER else self.decider

    def decision_kind(self) -> str:
        """The kind of decision awaited: the phase's name, e.g. "route"."""
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == Phase.GAME_OVER

    def legal_actions(self) -> np.ndarray:
        """The legal decisions now, as sorted action numbers (read-only array)."""
        return engine.legal_actions(self)

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the whole action space: 1 exactly where :meth:`legal_actions` has it."""
        mask = np.zeros(self.game.layout.size, dtype=np.int8)
        mask[engine.legal_actions(self)] = 1
        return mask

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is legal now (a non-integer raises the engine's ``ActionTypeError``)."""
        a = engine.action_number(action, self.game.layout.size)
        legal = engine.legal_actions(self)
        i = int(legal.searchsorted(a))
        return i < len(legal) and int(legal[i]) == a

    def apply(self, action: object) -> None:
        """Apply one decision. An illegal one raises :class:`IllegalActionError` and changes nothing."""
        engine.apply_action(self, action)

    def describe_action(self, action: int) -> str:
        return self.game.layout.describe(action)

    score_breakdown = scoring.breakdown
    ranks = scoring.ranks
    returns = scoring.returns

    # -- copies ---------------------------------------------------------------------------------------
    def clone(self) -> FallState:
        """An independent copy that continues exactly like this state (the generator included)."""
        other = FallState.__new__(FallState)
        other.game = self.game
        other._rng = None
        other._rng_state = self._rng_dict()
        other._cache = dict(self._cache)
        for name in SHARED:
            setattr(other, name, getattr(self, name))
        for name in COPIED:
            setattr(other, name, getattr(self, name)[:])
        for name in NESTED:
            setattr(other, name, [x[:] for x in getattr(self, name)])
        other.pending = {k: (v[:] if isinstance(v, list) else v) for k, v in self.pending.items()}
        other.tasks = [[a[:] if isinstance(a, list) else a for a in t] for t in self.tasks]  # list arguments too
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> FallState:
        """A copy in which everything ``player`` cannot see is resampled from ``rng``: the cards of the
        other players' draft hands it has not held and the ancestry deck, the strengths of facedown gnomes
        it has not peeked at (dealt again among them), the facedown gate cards it has not
        peeked at and those put aside, the champion decks and the champions dealt to others at setup, and
        the generator."""
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
