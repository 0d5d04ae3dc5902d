"""The game's parameters and fixed tables (a content pack and a number of players), and the factory of
states: ``Game(num_players, pack=None).new_initial_state(seed)``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mk_env.core.errors import ConfigError, StateError

from .content import FallPack
from .flow import run
from .layout import ActionLayout
from .pack import load_pack
from .setup import chance_setup
from .state import FallState

#: players the rule text's condensed rules cover ("Condensed rules for 2-5 players")
PLAYERS = (2, 3, 4, 5)


class Game:
    """Fall of the Mountain King for ``num_players`` (2-5) with a content pack (None: the default pack).
    The map side follows the player count (2-3: small, 4-5: large)."""

    name = "fall_of_the_mountain_king"

    def __init__(self, num_players: int = 4, pack: str | Path | FallPack | None = None):
        if isinstance(num_players, bool) or not isinstance(num_players, int) or num_players not in PLAYERS:
            raise ConfigError(f"num_players must be 2, 3, 4 or 5 (Fall of the Mountain King's rules are for "
                              f"2-5 players), got {num_players!r}")
        self.pack = load_pack(pack)
        self.num_players = num_players
        self.side = self.pack.side_for(num_players)
        g = self.pack.grid
        #: the canvas the 6x6 grid grows on around the 2x3 starting card
        self.canvas_rows, self.canvas_cols = 2 * g - 2, 2 * g - 3
        self.cells = self.canvas_rows * self.canvas_cols
        self.start_anchor = (g - 2) * self.canvas_cols + (g - 3)
        #: the gnomes' strengths (10 each of 1, 2, 3 by default), dealt to the ids at random at setup
        self.gnome_strength = tuple(s + 1 for s, k in enumerate(self.pack.rules.gnomes) for _ in range(k))
        self.layout = ActionLayout(self.pack, self.side, num_players, self.cells, self.canvas_cols)

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> FallState:
        """Setup's chance, then the first decision (the first player's champion to keep)."""
        if isinstance(seed, np.random.Generator):
            seed = int(seed.integers(2**63))
        st = FallState(self)
        st._rng_state = np.random.default_rng(seed).bit_generator.state
        chance_setup(st)
        run(st)
        return st

    def state_from_json(self, text: str | bytes | dict) -> FallState:
        """A state saved by :meth:`FallState.to_json`, checked (header, fields, invariants)."""
        from .saves import read_state
        if isinstance(text, (str, bytes)):
            try:
                text = json.loads(text)
            except (ValueError, RecursionError) as e:
                raise StateError(f"saved state is not valid JSON (truncated or corrupt?): {str(e)[:200]}") from None
        return read_state(self, text)
