"""The game state: every fact of one game in progress, as small numpy arrays and lists.

The state is plain data; the rules that read and change it live in the mechanics' modules, reached through
:mod:`mk_env.mountain_king.rules.legal` (legal decisions), :mod:`mk_env.mountain_king.rules.turn` (applying a
decision), :mod:`mk_env.mountain_king.rules.hidden` and :mod:`mk_env.mountain_king.rules.scoring`. The methods
here are the engine's surface that the environment, agents and records use: whose decision it is, the legal
decisions, ``apply``, ``clone``, ``determinize``, JSON ``to_json``/``from_json`` and the score breakdown.

Every field is declared once, with its type, shape and meaning, in :mod:`mk_env.mountain_king.rules.fields`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

from . import scoring
from .errors import action_number
from .fields import ARRAY, FIELD_NAMES, FIELDS, PENDING, copy_fields
from .hidden import determinize
from .legal import legal_actions
from .turn import apply_action
from .vocabulary import PHASE_NAMES, Phase, pending_to_save

if TYPE_CHECKING:
    from .game import Game

FORMAT_VERSION = 1
_GAME_OVER = int(Phase.GAME_OVER)  # compared on every step: a global is cheaper than the attribute


class GameState:
    """One game in progress. Create with :meth:`Game.new_initial_state`."""

    __slots__ = ("game", "_rng", "_rng_state", "_cache") + FIELD_NAMES  # the fields: mk_env.rules.fields

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
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == _GAME_OVER

    def legal_actions(self) -> np.ndarray:
        """The legal decisions now, as sorted action numbers."""
        return legal_actions(self)

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the whole action space: 1 exactly where :meth:`legal_actions` has it."""
        mask = np.zeros(self.game.layout.size, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` (an int, a numpy integer or a 0-d integer array) is legal now; any other
        type raises the engine's ``ActionTypeError``."""
        if type(action) is not int:
            action = action_number(action, self.game.layout.size)
        legal = self.legal_actions()
        i = int(legal.searchsorted(action))
        return i < len(legal) and int(legal[i]) == action

    def apply(self, action: int) -> None:
        """Apply one decision. An illegal one raises :class:`IllegalActionError` and changes nothing."""
        apply_action(self, action)

    def describe_action(self, action: int) -> str:
        return self.game.layout.describe(action)

    def score_breakdown(self, player: int) -> dict[str, int]:
        """Honour by the rulebook's scoring categories (as if the game ended now) and ``total``."""
        return scoring.breakdown(self, player)

    def ranks(self) -> list[int]:
        """Rank of each seat (0 = winner) after the tie-break; tied seats share a rank."""
        return scoring.ranks(self)

    def returns(self) -> list[float]:
        """+1 to each winner and -1/(n-1) to each other player at the end; zeros before."""
        return scoring.returns(self)

    def seat_starts(self) -> list[int]:
        """Each seat's start: the start point its gate took (its index in ``game.geo.start_points``)."""
        start = {sq: k for k, (sq, _) in enumerate(self.game.geo.start_points)}
        return [start[int(sq)] for sq in self.gate_sq]

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
        copy_fields(self, other)  # each field as its declaration says (mk_env.rules.fields)
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> GameState:
        """A copy in which everything ``player`` cannot see is resampled from ``rng``: the unseen
        part of each horde deck and of the spell deck, other players' starter hands and decks during
        the draft, the player's own unseen starters, and the generator of future chance."""
        return determinize(self, player, rng)

    # -- JSON ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything, generator included, as JSON-able data."""
        data = {"format_version": FORMAT_VERSION, "pack_id": self.game.pack.pack_id,
                "options": self.game.options_dict(), "rng": _jsonable(self._rng_dict())}
        for f in FIELDS:
            value = getattr(self, f.name)
            data[f.name] = (value.tolist() if f.kind == ARRAY else pending_to_save(value) if f.kind == PENDING
                            else _jsonable(value))
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
