"""The game's parameters and fixed tables (a content pack and a number of players), and the factory of
states: ``Game(num_players, pack=None).new_initial_state(seed)``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mk_env.core.errors import ConfigError, StateError

from .board import ROLE_CROWD, ROLE_KNIGHT, ROLE_TREASURE, ROLE_TROLL
from .content import CaveTrollPack
from .layout import ActionLayout
from .pack import load_pack
from .saves import read_state
from .state import CaveTrollState
from .turn import begin_turn
from .vocabulary import ADVENTURERS, MONSTERS, MOVERS, STACK, Kind

#: players the rule text allows ("2-4 players")
PLAYERS = (2, 3, 4)
_ROLES = {Kind.CAVE_TROLL: ROLE_TROLL, Kind.KNIGHT: ROLE_KNIGHT, Kind.TREASURE: ROLE_TREASURE}


class Game:
    """Cave Troll for ``num_players`` (2-4) with a content pack (None: the default pack)."""

    name = "cave_troll"

    def __init__(self, num_players: int = 4, pack: str | Path | CaveTrollPack | None = None):
        if isinstance(num_players, bool) or not isinstance(num_players, int) or num_players not in PLAYERS:
            raise ConfigError(f"num_players must be 2, 3 or 4 (Cave Troll is for 2-4 players), got {num_players!r}")
        self.pack = load_pack(pack)
        if num_players > len(self.pack.colours):
            raise ConfigError(f"the pack {self.pack.pack_id!r} has {len(self.pack.colours)} colours; "
                              f"{num_players} players need as many")
        self.num_players = num_players
        k = self.pack.slots
        ids = range(num_players * k)
        #: per counter id: its kind, owner, slot, and whether it is an adventurer / monster / may move
        self.kind_of = tuple(int(self.pack.slot_kinds[c % k]) for c in ids)
        self.owner_of = tuple(c // k for c in ids)
        self.slot_of = tuple(c % k for c in ids)
        self.is_adventurer = tuple(self.pack.slot_kinds[c % k] in ADVENTURERS for c in ids)
        self.is_monster = tuple(self.pack.slot_kinds[c % k] in MONSTERS for c in ids)
        self.is_mover = tuple(self.pack.slot_kinds[c % k] in MOVERS for c in ids)
        self.role_of = tuple(_ROLES.get(kind, ROLE_CROWD) for kind in self.kind_of)
        #: each seat's counter ids, by slot
        self.counters_of = tuple(tuple(range(p * k, (p + 1) * k)) for p in range(num_players))
        self.layout = ActionLayout(self.pack, num_players)

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> CaveTrollState:
        """SETUP: the artifact counters shuffled into a face-down stack, each player's counters shuffled
        into a face-down pile, scores at zero, a random first player."""
        if isinstance(seed, np.random.Generator):  # a game of its own, drawn from the caller's generator
            seed = int(seed.integers(2**63))
        rng = np.random.default_rng(seed)  # PCG64: its state is saved exactly
        st = CaveTrollState(self)
        st._rng_state = rng.bit_generator.state
        chance = st.rng
        st.stack = [int(i) for i in chance.permutation(len(self.pack.artifacts))]
        st.art_at = [STACK] * len(self.pack.artifacts)
        st.piles = [[int(c) for c in chance.permutation(self.counters_of[p])] for p in range(self.num_players)]
        first = int(chance.integers(self.num_players))
        st._rng, st._rng_state = None, chance.bit_generator.state
        st.first_player = first
        begin_turn(st, first)
        return st

    def state_from_json(self, text: str | bytes | dict) -> CaveTrollState:
        """A state saved by :meth:`CaveTrollState.to_json` (its text or parsed dict), checked: every field's
        type, length and range, then the game's invariants; a :class:`StateError` names the first fault."""
        if isinstance(text, (str, bytes)):
            try:
                text = json.loads(text)
            except (ValueError, RecursionError) as e:
                raise StateError(f"saved state is not valid JSON (truncated or corrupt?): {str(e)[:200]}") from None
        return read_state(self, text)
