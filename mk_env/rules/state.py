"""The game state: every fact of one game in progress, as small numpy arrays and lists.

The state is plain data; the rules that read and change it live in :mod:`mk_env.rules.turn` (legal
decisions, applying a decision) and :mod:`mk_env.rules.scoring`. The methods here are the engine's
surface that the environment, agents and records use: whose decision it is, the legal decisions,
``apply``, ``clone``, ``determinize``, JSON ``to_json``/``from_json`` and the score breakdown.

Board arrays are indexed by square (``r * width + c``) with one sentinel entry at the end.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

from .vocabulary import NO_PENDING, pending_to_save

if TYPE_CHECKING:
    from .game import Game

FORMAT_VERSION = 1

#: array fields: name -> dtype (shapes come from the game)
ARRAY_FIELDS: dict[str, Any] = {
    "kind": np.int8,  # per square: 0 empty, 1 gate, 2 tunnel, 3 great hall
    "tile": np.int16,  # per square: placed tile id (gates, tunnels, halls), -1 none
    "region": np.int16,  # per square: the "tunnel" it belongs to for statue moves/scoring, -1 none
    "hall_at": np.int8,  # per square: great hall index covering it, -1 none
    "statue": np.int8,  # per square: statue clan, -1 none
    "pedestal": np.int8,  # per square: pedestal clan, -1 none
    "buried": np.int8,  # per square: buried resource still there, -1 none
    "reach": np.bool_,  # [player, square]: in that player's network
    "gate_sq": np.int32,  # per player: gate square, -1 before placement
    "hall_altar": np.int32,  # per great hall: altar square once dedicated, -1 in the supply
    "workshop": np.int8,  # per workshop site: workshop kind established there, -1 empty
    "workshop_supply": np.int8,  # per workshop kind: tiles revealed and not yet established
    "tunnel_supply": np.int8,  # per tunnel shape: tiles left
    "supply": np.int16,  # per resource: tokens in the supply
    "horde": np.int16,  # per horde slot: card index, -1 empty
    "horde_bribes": np.int8,  # [horde slot, resource]
    "horde_pedestal": np.int8,  # per horde slot: pedestal clan on it, -1 none
    "bag": np.int8,  # per clan: pedestals in the draw bag
    "spellbook": np.int16,  # per spellbook position: spell index, -1 empty
    "spell_runes": np.int8,  # per spellbook position
    "track_value": np.int8,  # [tier, clan]: pedestal point token value on the track
    "track_taken": np.int8,  # [tier, clan]: player who placed that pedestal, -1 free
    "coronation": np.int16,  # per player: coronation honour earned
    "storage": np.int16,  # [storage, resource]
    "storage_pedestals": np.int8,  # [storage, clan]
    "smoot": np.int16,  # [player, trollsmoot slot]: card index, -1 empty
    "tokens": np.int8,  # [player, slot, token kind]: tokens the troll holds
    "honour": np.int16,  # per player: honour scored during the game (tunnels)
    "pedestal_points": np.int16,  # per player: value of pedestal point tokens taken
    "pedestal_tokens": np.int8,  # per player: number of pedestal point tokens taken
}

#: plain (JSON-able) fields with their defaults
SCALAR_FIELDS: dict[str, Any] = {
    "phase": 0, "current": 0, "turn": 0, "board_version": 0, "next_tile": 0, "next_region": 0,
    "spell_cast": False, "workshops_left": 1, "used_sites": [], "active_site": -1, "uses_left": 0,
    "bribe_any": False, "ignore_rubble": False, "free_moves": 0, "pending": NO_PENDING,
    "final_turns_left": -1, "coronation_left": [], "decks": [[], [], []], "deck_unseen": [0, 0, 0],
    "spell_deck": [], "spell_unseen": 0, "draft_deck": [], "draft_hand": [], "draft_placed": [],
    "tile_shape": [], "history": [],
}


class GameState:
    """One game in progress. Create with :meth:`Game.new_initial_state`."""

    __slots__ = ("game", "_rng", "_rng_state", "_cache") + tuple(ARRAY_FIELDS) + tuple(SCALAR_FIELDS)

    def __init__(self, game: Game):
        self.game = game
        self._rng: np.random.Generator | None = None
        self._rng_state: dict | None = None
        self._cache: dict = {}

    # -- randomness ---------------------------------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        """The generator every chance event of this game draws from (part of the state)."""
        if self._rng is None:
            bg = np.random.PCG64()
            bg.state = self._rng_state
            self._rng = np.random.Generator(bg)
            self._rng_state = None
        return self._rng

    def _rng_dict(self) -> dict:
        return self._rng.bit_generator.state if self._rng is not None else self._rng_state

    # -- engine surface -----------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def current_player(self) -> int:
        """The seat whose decision it is (-1 once the game is over)."""
        return -1 if self.is_terminal() else self.current

    def decision_kind(self) -> str:
        """The kind of decision awaited: the phase's name, e.g. "step2_recruit_or_dig"."""
        return self.game.rules.PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == self.game.rules.GAME_OVER

    def legal_actions(self) -> np.ndarray:
        """The legal decisions now, as sorted action numbers."""
        return self.game.rules.legal_actions(self)

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the whole action space: 1 exactly where :meth:`legal_actions` has it."""
        mask = np.zeros(self.game.layout.size, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` (an int, a numpy integer or a 0-d integer array) is legal now; any other
        type raises the engine's ``ActionTypeError``."""
        if type(action) is not int:
            action = self.game.rules.action_number(action, self.game.layout.size)
        legal = self.legal_actions()
        i = int(legal.searchsorted(action))
        return i < len(legal) and int(legal[i]) == action

    def apply(self, action: int) -> None:
        """Apply one decision. An illegal one raises :class:`IllegalActionError` and changes nothing."""
        self.game.rules.apply_action(self, action)

    def describe_action(self, action: int) -> str:
        return self.game.layout.describe(action)

    def score_breakdown(self, player: int) -> dict[str, int]:
        """Honour by the rulebook's scoring categories (as if the game ended now) and ``total``."""
        return self.game.scoring.breakdown(self, player)

    def ranks(self) -> list[int]:
        """Rank of each seat (0 = winner) after the tie-break; tied seats share a rank."""
        return self.game.scoring.ranks(self)

    def returns(self) -> list[float]:
        """+1 to each winner and -1/(n-1) to each other player at the end; zeros before."""
        return self.game.scoring.returns(self)

    def invalidate_caches(self) -> None:
        """Forget every memoised answer (the legal set, the board queries, the legal digs). Call it after
        editing a state's fields by hand (tests, tools): the engine's own changes keep the memos right."""
        self._cache = {}

    # -- copies -------------------------------------------------------------------------------------
    def clone(self) -> GameState:
        """An independent copy that continues exactly like this state (the generator included)."""
        other = GameState.__new__(GameState)
        other.game = self.game
        other._rng = None
        other._rng_state = self._rng_dict()
        other._cache = dict(self._cache)
        for name in ARRAY_FIELDS:
            setattr(other, name, getattr(self, name).copy())
        other.phase, other.current, other.turn = self.phase, self.current, self.turn
        other.board_version, other.next_tile, other.next_region = (
            self.board_version, self.next_tile, self.next_region)
        other.spell_cast, other.workshops_left = self.spell_cast, self.workshops_left
        other.used_sites = list(self.used_sites)
        other.active_site, other.uses_left = self.active_site, self.uses_left
        other.bribe_any, other.ignore_rubble, other.free_moves = (
            self.bribe_any, self.ignore_rubble, self.free_moves)
        other.pending = self.pending  # immutable
        other.final_turns_left = self.final_turns_left
        other.coronation_left = list(self.coronation_left)
        other.decks = [list(d) for d in self.decks]
        other.deck_unseen = list(self.deck_unseen)
        other.spell_deck = list(self.spell_deck)
        other.spell_unseen = self.spell_unseen
        other.draft_deck = [list(d) for d in self.draft_deck]
        other.draft_hand = [list(d) for d in self.draft_hand]
        other.draft_placed = list(self.draft_placed)
        other.tile_shape = list(self.tile_shape)
        other.history = list(self.history)
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> GameState:
        """A copy in which everything ``player`` cannot see is resampled from ``rng``: the unseen
        part of each horde deck and of the spell deck, other players' starter hands and decks during
        the draft, the player's own unseen starters, and the generator of future chance."""
        return self.game.rules.determinize(self, player, rng)

    # -- JSON ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything, generator included, as JSON-able data."""
        data = {"format_version": FORMAT_VERSION, "pack_id": self.game.pack.pack_id,
                "options": self.game.options_dict(), "rng": _jsonable(self._rng_dict())}
        for name in ARRAY_FIELDS:
            data[name] = getattr(self, name).tolist()
        for name in SCALAR_FIELDS:
            data[name] = _jsonable(getattr(self, name))
        data["pending"] = pending_to_save(self.pending)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (f"<GameState {self.num_players} players, turn {self.turn}, "
                f"{self.decision_kind()}, seat {self.current}>")


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value
