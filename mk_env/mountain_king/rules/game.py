"""The game: its options, its content and the precomputed tables every state shares.

>>> game = Game(num_players=3)
>>> state = game.new_initial_state(seed=7)
>>> while not state.is_terminal():
...     state.apply(int(state.legal_actions()[0]))
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

import numpy as np

from mk_env.core.errors import ConfigError

from . import native, setup
from .actions import ActionLayout
from .content import N_TOKEN_KINDS, PLAYER_COUNTS, TOKEN_KINDS, ContentPack
from .fields import array_shapes
from .geometry import BoardGeometry
from .pack import load_pack
from .saved_state import StateError, read_state
from .state import GameState

OPTION_NAMES = ("num_players", "board_side", "workshops", "team_mode", "pack", "payment")
WORKSHOP_SELECTIONS = ("random", "no_duplicates")
#: who picks the tokens that pay: "auto", the engine's fixed order (the dominant-choice shortcut,
#: :mod:`mk_env.mountain_king.rules.economy`), or "choose", the payer (:mod:`mk_env.mountain_king.rules.payment`)
PAYMENTS = ("auto", "choose")


_TABLES: OrderedDict[tuple[int, str, str], tuple[ContentPack, BoardGeometry, ActionLayout]] = OrderedDict()
#: board sides whose tables are kept (least recently used first out: packs edited on disk are new packs)
_TABLES_KEPT = 32


def _tables(pack: ContentPack, side: str, payment: str = "auto") -> tuple[BoardGeometry, ActionLayout]:
    """Geometry and action layout of a pack's board side (and payment option), built once per loaded pack."""
    key = (id(pack), side, payment)
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not pack:
        other = _TABLES.get((id(pack), side, "choose" if payment == "auto" else "auto"))
        geo = other[1] if other is not None and other[0] is pack else BoardGeometry(
            pack.boards[side], pack.tunnels, pack.great_halls)
        hit = _TABLES[key] = (pack, geo, ActionLayout(pack, geo, payment))
        while len(_TABLES) > _TABLES_KEPT:
            _TABLES.popitem(last=False)
    _TABLES.move_to_end(key)
    return hit[1], hit[2]


class Game:
    """Options + content + precomputed geometry and action layout. Cheap to create after the first
    time for a given pack and board side (the tables are cached)."""

    #: the engine of games pickled before backends: the reference
    backend: str = "python"
    #: the payment option (class defaults: games pickled before the option was added read as "auto")
    payment: str = "auto"
    choose_payment: bool = False

    def __init__(self, num_players: int = 4, *, board_side: str | None = None,
                 workshops: str | list[str] | tuple[str, ...] = "random", team_mode: bool = False,
                 pack: str | ContentPack | None = None, payment: str = "auto", backend: str | None = None,
                 **unknown: Any):
        if unknown:
            raise ConfigError(f"unknown option(s) {', '.join(map(repr, sorted(unknown)))}; allowed: "
                              f"{', '.join(OPTION_NAMES)}")
        if not isinstance(team_mode, (bool, np.bool_)):
            raise ConfigError(f"team_mode={team_mode!r} is not allowed; use True or False")
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) \
                or num_players not in PLAYER_COUNTS:
            raise ConfigError(f"num_players={num_players!r} is not allowed; the game is for "
                              f"{', '.join(map(str, PLAYER_COUNTS))} players")
        self.num_players = n = int(num_players)
        self.pack = pack if isinstance(pack, ContentPack) else load_pack(pack)
        self.board_side = self._choose_side(board_side)
        self.team_mode = bool(team_mode)
        if self.team_mode and n != 4:
            raise ConfigError(f"team_mode=True needs exactly 4 players, got num_players={n}")
        self.workshop_selection = self._check_workshops(workshops)
        if not isinstance(payment, str) or payment not in PAYMENTS:
            raise ConfigError(f"payment={payment!r} is not allowed; use \"auto\" (the engine pays in its fixed "
                              "order) or \"choose\" (the payer picks the tokens)")
        self.payment = payment
        #: payment="choose": the payer picks the tokens (read on every payment: a plain bool)
        self.choose_payment = payment == "choose"
        self.geo, self.layout = _tables(self.pack, self.board_side, payment)
        # cards: starters first, then the horde
        self.cards = self.pack.starter_trolls + self.pack.horde_trolls
        self.n_starters = len(self.pack.starter_trolls)
        self.card_level = np.array([c.level for c in self.cards], dtype=np.int8)
        sym = np.zeros((len(self.cards), N_TOKEN_KINDS), dtype=np.int8)
        for i, c in enumerate(self.cards):
            for s in c.symbols:
                sym[i, TOKEN_KINDS.index(s)] += 1
        sym.flags.writeable = False  # content: fixed for the game's life (the rows below copy it)
        self.card_symbols = sym
        self.card_symbol_rows: list[list[int]] = sym.tolist()  # the same, as lists (read by activation)
        self.storage_of = [0, 1, 1, 0] if self.team_mode else list(range(n))
        self.n_storages = max(self.storage_of) + 1
        self.teammates = [[q for q in range(n) if self.storage_of[q] == self.storage_of[p]]
                          for p in range(n)]
        rules = self.pack.rules
        self.trade_rate = int(rules.get("trade_rate", 4))
        self.set_size = int(rules.get("set_size", 3))
        self.retire_bribes = int(rules.get("retire_bribes", 4))
        self.max_trolls = int(rules.get("max_trolls", 10))
        self.runes_to_disintegrate = int(rules.get("runes_to_disintegrate", 3))
        #: "native" (the compiled engine, mk_env/mountain_king/rules/native.py) or "python" (the reference);
        #: not a game option: both play the same games from the same seeds
        self.backend = native.choose_backend(self, backend)

    def __getstate__(self) -> dict:
        """The game without the compiled tables kept on it (``_native*``: the engine's, and those of the compiled
        agents built on them; each is rebuilt on first use after unpickling)."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_native")}

    def __setstate__(self, state: dict) -> None:
        """A game pickled on the compiled engine plays on the reference where this machine has no compiled engine
        (the same games: a one-line notice says so)."""
        self.__dict__.update(state)
        if state.get("backend") == "native" and native.MISSING:
            self.backend = native.choose_backend(self, None)

    # -- options ------------------------------------------------------------------------------------
    def _choose_side(self, side: str | None) -> str:
        allowed = [name for name, b in self.pack.boards.items() if self.num_players in b.player_counts]
        if side is None:
            if not allowed:
                raise ConfigError(f"no board side of pack {self.pack.pack_id} is for "
                                  f"{self.num_players} players")
            return "winter" if "winter" in allowed else allowed[0]
        if side not in allowed:
            raise ConfigError(f"board_side={side!r} is not allowed for {self.num_players} players; "
                              f"allowed: {', '.join(allowed)}")
        return side

    def _check_workshops(self, workshops: Any) -> str | tuple[str, ...]:
        if isinstance(workshops, str):
            if workshops not in WORKSHOP_SELECTIONS:
                raise ConfigError(f"workshops={workshops!r} is not allowed; use one of "
                                  f"{', '.join(WORKSHOP_SELECTIONS)} or a list of workshop names")
            return workshops
        names = [w.name for w in self.pack.workshops]
        if not isinstance(workshops, (list, tuple)) or not all(isinstance(x, str) for x in workshops):
            raise ConfigError(f"workshops={workshops!r} is not allowed; use one of "
                              f"{', '.join(WORKSHOP_SELECTIONS)} or a list of workshop names")
        chosen = tuple(workshops)
        want = 2 * self.num_players + 1
        if len(chosen) != want:
            raise ConfigError(f"workshops: a chosen set needs {want} workshops for "
                              f"{self.num_players} players (2 per player + 1), got {len(chosen)}")
        for name in chosen:
            if name not in names:
                raise ConfigError(f"workshops: unknown workshop {name!r}; known: {', '.join(names)}")
            limit = self.pack.workshops[names.index(name)].count
            if chosen.count(name) > limit:
                raise ConfigError(f"workshops: {name!r} chosen {chosen.count(name)} times; "
                                  f"the game has {limit}")
        return chosen

    def options_dict(self) -> dict:
        """The options, as saves and records keep them (``payment`` only when not the default "auto",
        so saves and records of default games read as before)."""
        out = {"num_players": self.num_players, "board_side": self.board_side,
               "workshops": self.workshop_selection if isinstance(self.workshop_selection, str)
               else list(self.workshop_selection), "team_mode": self.team_mode}
        if self.choose_payment:
            out["payment"] = self.payment
        return out

    # -- states -------------------------------------------------------------------------------------
    def array_shapes(self) -> dict[str, tuple[int, ...]]:
        """The shape of each array field of this game's states (declared in
        :mod:`mk_env.mountain_king.rules.fields`)."""
        shapes = self.__dict__.get("_array_shapes")
        if shapes is None:
            shapes = self._array_shapes = array_shapes(self)
        return shapes

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> GameState:
        """A new game after the general setup; the first decision is the start player's gate."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        if self.backend == "native":
            return native.new_state(self, rng)
        st = GameState(self)
        setup.setup(st, rng)
        return st

    def state_from_json(self, text: str | dict) -> GameState:
        """Load a state saved by :meth:`GameState.to_json` (the text or its parsed dict). The save is
        checked (types, shapes, ranges, then the game's invariants: see :mod:`mk_env.mountain_king.rules.saved_state`);
        a :class:`StateError` names the first fault and the field."""
        if isinstance(text, (str, bytes)):
            try:
                text = json.loads(text)
            except (ValueError, RecursionError) as e:  # bad JSON, an integer of thousands of digits, deep nesting
                raise StateError(f"saved state is not valid JSON (truncated or corrupt?): "
                                 f"{str(e)[:200] or type(e).__name__}") from None
        st = read_state(self, text)
        return native.NativeGameState.from_state(st) if self.backend == "native" else st
