"""The rules of *Take-away* (numpy and the suite's core only): a pile of stones, its size drawn from the pack's
range at setup; in turn order each player takes 1 to ``most`` stones; each stone taken scores 1 and the player
who takes the last stone scores ``last_stone_bonus`` more; the most points wins (ties share the win)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from enum import Enum, IntEnum
from pathlib import Path
from typing import Any

import numpy as np

from mk_env.core.errors import ConfigError, PackError, StateError
from mk_env.core.flat_engine import BlockLayout, ChanceState, apply_checked, illegal_message
from mk_env.core.flat_engine import legal_actions as memo_legal_actions
from mk_env.core.pack_files import ContentCache, read_json
from mk_env.core.pack_json import read_int, read_list, read_object, read_str
from mk_env.core.saves import read_rng_state

PLAYERS = (2, 3, 4)
DEFAULT_PACK_DIR = Path(__file__).resolve().parent / "data" / "default"
CATEGORIES = ("stones", "last_stone")


class Block(str, Enum):
    """The one block of the action space: take ``argument + 1`` stones."""

    TAKE = "take"

    def __str__(self) -> str:
        return self.value


class Phase(IntEnum):
    TAKE = 0
    GAME_OVER = 1


PHASE_NAMES = ("take", "game_over")


@dataclass(frozen=True)
class TakeAwayPack:
    """The content: the pile's size range, the most stones a turn takes, the last stone's bonus."""

    pack_id: str
    pile: tuple[int, int]
    most: int
    last_stone_bonus: int


def _load(folder: Path) -> TakeAwayPack:
    data = read_object(read_json(folder, "pack.json"), "pack.json", "", required=("pack_id", "pile", "most"),
                       optional=("last_stone_bonus",))
    low, high = (read_int(v, "pack.json", f"pile[{i}]", 1, 1000)
                 for i, v in enumerate(read_list(data["pile"], "pack.json", "pile", length=2)))
    if low > high:
        raise PackError("pack.json", "pile", f"the range {low}..{high} is empty")
    return TakeAwayPack(read_str(data["pack_id"], "pack.json", "pack_id"), (low, high),
                        read_int(data["most"], "pack.json", "most", 1, 10),
                        read_int(data.get("last_stone_bonus", 0), "pack.json", "last_stone_bonus", 0, 100))


_CACHE: ContentCache = ContentCache(_load)


def load_pack(pack: str | Path | TakeAwayPack | None = None) -> TakeAwayPack:
    """The pack in folder ``pack`` (None: the default), checked; a pack object is returned as is."""
    return _CACHE.load(pack, TakeAwayPack, DEFAULT_PACK_DIR, "Take-away")


class TakeLayout(BlockLayout):
    """The action space: ``take`` with arguments 0..most-1 (take 1..most stones)."""

    def describe(self, action: int) -> str:
        _, arg = self.decode(action)
        return f"take {arg + 1} stone{'s' if arg else ''}"


class Game:
    """*Take-away* for ``num_players`` (2-4) with a content pack (None: the default)."""

    name = "take_away"

    def __init__(self, num_players: int = 2, pack: str | Path | TakeAwayPack | None = None):
        if isinstance(num_players, bool) or not isinstance(num_players, int) or num_players not in PLAYERS:
            raise ConfigError(f"num_players={num_players!r} is not allowed; Take-away is for 2-4 players")
        self.num_players = num_players
        self.pack = load_pack(pack)
        self.layout = TakeLayout(Block, {Block.TAKE: self.pack.most})

    def options_dict(self) -> dict[str, Any]:
        return {"num_players": self.num_players}

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> TakeAwayState:
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        low, high = self.pack.pile
        st = TakeAwayState(self, int(rng.integers(low, high + 1)))
        st._rng_state = rng.bit_generator.state
        return st

    def state_from_json(self, text: str | dict) -> TakeAwayState:
        """A saved state; whatever is wrong with it is a :class:`StateError` naming the field."""
        try:
            data = json.loads(text) if isinstance(text, str) else text
        except (ValueError, RecursionError) as e:
            raise StateError(f"not a saved Take-away state: {str(e)[:100]}") from None
        if not isinstance(data, dict):
            raise StateError("a saved Take-away state is a JSON object")
        st = TakeAwayState(self, 0)
        for field, hi in (("pile", 1000), ("turn", 100_000), ("phase", 1), ("current", self.num_players - 1),
                          ("last", self.num_players - 1)):
            value = data.get(field)
            lo = -1 if field == "last" else 0
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise StateError(f"saved state field {field!r} is {str(value)[:40]}, allowed {lo}..{hi}")
            setattr(st, field, value)
        taken = data.get("taken")
        if (not isinstance(taken, list) or len(taken) != self.num_players
                or any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= 1000 for t in taken)):
            raise StateError(f"saved state field 'taken' must list {self.num_players} counts 0..1000")
        st.taken = list(taken)
        st._rng_state = read_rng_state(data.get("rng"))
        return st


class TakeAwayState(ChanceState):
    """One position: the stones left, each seat's stones taken, whose turn, who took the last stone."""

    __slots__ = ("game", "pile", "taken", "current", "last", "turn", "phase", "_rng", "_rng_state", "_cache")
    PHASE_NAMES = PHASE_NAMES
    GAME_OVER = int(Phase.GAME_OVER)

    def __init__(self, game: Game, pile: int):
        self.game, self.pile = game, pile
        self.taken = [0] * game.num_players
        self.current, self.last, self.turn, self.phase = 0, -1, 0, int(Phase.TAKE)
        self._rng, self._rng_state, self._cache = None, None, {}

    ENGINE: Any = None  # set below: this module

    def current_player(self) -> int:
        return self.current

    def clone(self) -> TakeAwayState:
        c = TakeAwayState(self.game, self.pile)
        c.taken, c.current, c.last, c.turn, c.phase = list(self.taken), self.current, self.last, self.turn, self.phase
        c._rng_state = self._rng_dict()
        return c

    def determinize(self, player: int, rng: np.random.Generator) -> TakeAwayState:
        """Nothing is hidden: a copy (with its own generator drawn from ``rng``)."""
        c = self.clone()
        c._rng_state = np.random.default_rng(rng.integers(2**63)).bit_generator.state
        return c

    def to_json(self) -> str:
        return json.dumps({"pile": self.pile, "taken": self.taken, "current": self.current, "last": self.last,
                           "turn": self.turn, "phase": self.phase, "rng": self._rng_dict()}, sort_keys=True)

    def score_breakdown(self, player: int) -> dict[str, int]:
        bonus = self.game.pack.last_stone_bonus if player == self.last else 0
        return {"stones": self.taken[player], "last_stone": bonus, "total": self.taken[player] + bonus}

    def ranks(self) -> list[int]:
        totals = [self.score_breakdown(p)["total"] for p in range(self.game.num_players)]
        return [sum(1 for t in totals if t > mine) for mine in totals]

    def seat_starts(self) -> list[int]:
        """Each seat's place in the turn order (seat 0 starts)."""
        return list(range(self.game.num_players))

    def returns(self) -> list[float]:
        n = self.game.num_players
        if not self.is_terminal():
            return [0.0] * n
        winners = [p for p, r in enumerate(self.ranks()) if r == 0]
        return [1.0 / len(winners) if p in winners else -1.0 / (n - 1) for p in range(n)]


def legal_by_block(st: TakeAwayState) -> dict[Block, list[int]]:
    if st.phase == Phase.GAME_OVER:
        return {}
    return {Block.TAKE: list(range(min(st.game.pack.most, st.pile)))}


def legal_actions(st: TakeAwayState) -> np.ndarray:
    return memo_legal_actions(st, legal_by_block)


def _take(st: TakeAwayState, arg: int) -> None:
    """"Take 1 to 3 stones": they score; the last one ends the game."""
    st.pile -= arg + 1
    st.taken[st.current] += arg + 1
    st.turn += 1
    if st.pile == 0:
        st.last, st.phase = st.current, int(Phase.GAME_OVER)
    else:
        st.current = (st.current + 1) % st.game.num_players


def _why_illegal(st: TakeAwayState, a: int) -> str:
    return illegal_message(st.game.layout, a, st.current, st.is_terminal(), PHASE_NAMES[st.phase],
                           frozenset({Block.TAKE}), legal_by_block(st),
                           lambda block, arg: f"only {st.pile} stones are left" if arg >= st.pile else None)


def apply_action(st: TakeAwayState, action: object) -> None:
    apply_checked(st, action, legal_actions(st), _why_illegal, {Block.TAKE: _take})


TakeAwayState.ENGINE = sys.modules[__name__]


def check(st: TakeAwayState) -> None:
    """The invariants: the stones taken and left add up to a pile the pack allows."""
    total = st.pile + sum(st.taken)
    low, high = st.game.pack.pile
    if not low <= total <= high or st.pile < 0:
        raise AssertionError(f"{st.pile} stones left and {sum(st.taken)} taken: no pile of {low}..{high}")
