"""What the suite's engines do the same way over one flat action space: the layout of named blocks laid
end to end (:class:`BlockLayout`), the memo of the legal action numbers, applying a decision only after
checking it, the message of an illegal one, and the state's own chance generator and mask
(:class:`ChanceState`). Each game keeps its blocks, its legal arguments by block and its mechanics."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

import numpy as np

from .errors import IllegalActionError, action_number


class BlockLayout:
    """The blocks of an action space laid end to end in the order of ``blocks``, each ``sizes[block]``
    action numbers long: ``offset[block] + argument`` is an action number."""

    def __init__(self, blocks: type[Enum], sizes: dict[Any, int]) -> None:
        self.block_type = blocks
        self.sizes = sizes
        self.offset: dict[Any, int] = {}
        at = 0
        for b in blocks:
            self.offset[b] = at
            at += sizes[b]
        self.size = at
        self._starts = [self.offset[b] for b in blocks]
        self._blocks = list(blocks)

    def index(self, block: Any, arg: int = 0) -> int:
        """The action number of argument ``arg`` in ``block``."""
        block = self.block_type(block)
        if not 0 <= arg < self.sizes[block]:
            raise ValueError(f"{block} argument {arg} out of range 0..{self.sizes[block] - 1}")
        return self.offset[block] + arg

    def decode(self, action: int) -> tuple[Any, int]:
        """(block, argument within the block)."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is outside the action space 0..{self.size - 1}")
        b = self._blocks[bisect.bisect_right(self._starts, action) - 1]
        return b, action - self.offset[b]


def legal_actions(st: Any, legal_by_block: Callable[[Any], Mapping[Any, list[int]]]) -> np.ndarray:
    """The legal action numbers of ``st``, sorted and read-only (memoised in ``st._cache`` until the state
    changes)."""
    legal = st._cache.get("legal")
    if legal is None:
        offset = st.game.layout.offset
        nums = [offset[b] + a for b, args in legal_by_block(st).items() for a in args]
        legal = np.array(sorted(nums), dtype=np.int64)
        legal.flags.writeable = False
        st._cache["legal"] = legal
    return legal


def apply_checked(st: Any, action: object, legal: np.ndarray, why_illegal: Callable[[Any, int], str],
                  apply: Mapping[Any, Callable[[Any, int], None]]) -> None:
    """Apply ``action`` with ``apply[block](st, argument)`` if it is among ``legal``; else raise
    :class:`IllegalActionError` with ``why_illegal(st, action)`` and change nothing."""
    layout = st.game.layout
    a = action_number(action, layout.size)
    i = int(legal.searchsorted(a))
    if i >= len(legal) or int(legal[i]) != a:
        raise IllegalActionError(why_illegal(st, a))
    block, arg = layout.decode(a)
    st._cache.clear()
    apply[block](st, arg)


def illegal_message(layout: Any, a: int, seat: int, over: bool, phase: str, awaited: frozenset,
                    legal: Mapping[Any, list[int]], reason: Callable[[Any, int], str | None] | None = None) -> str:
    """The message of an illegal decision ``a``: the action in words, why it is refused (the game is over;
    its block is not awaited in ``phase``; the rule it breaks, as ``reason(block, argument)`` says when it
    knows; no decision of its block is possible; it breaks a rule, with some legal ones of its block) and
    the legal ones now."""
    if not 0 <= a < layout.size:
        return f"action {a} is outside the action space 0..{layout.size - 1}"
    block, arg = layout.decode(a)
    what = f"action {a} ({layout.describe(a)})"
    if over:
        return f"{what} is not legal: the game is over"
    if block not in awaited:
        why = f"a {block} decision is not awaited in the {phase} phase"
    elif reason is not None and (said := reason(block, arg)):
        why = said
    elif block not in legal:
        why = f"no {block} decision is possible now (its conditions are not met)"
    else:
        some = "; ".join(layout.describe(layout.offset[block] + x) for x in legal[block][:6])
        why = f"that {block} breaks a rule of the {phase} phase (legal {block} decisions: {some}" + (
            ", ..." if len(legal[block]) > 6 else "") + ")"
    allowed = "; ".join(f"{b}: {len(v)} ({layout.describe(layout.offset[b] + v[0])}, ...)" for b, v in legal.items())
    return f"{what} is not legal for seat {seat}: {why}; legal now: {allowed}"


class ChanceState:
    """The part of a state the games share: its own generator (kept as a plain state until first used, so
    a clone is cheap), the engine surface delegated to the game's engine module, and the mask and test of
    legality. A subclass declares ``_rng`` and ``_rng_state`` in its slots and sets :attr:`ENGINE` (a module
    with ``legal_actions(st)`` and ``apply_action(st, action)``), :attr:`PHASE_NAMES` and :attr:`GAME_OVER`."""

    __slots__ = ()
    ENGINE: Any = None
    PHASE_NAMES: tuple[str, ...] = ()
    GAME_OVER: int = -1

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def decision_kind(self) -> str:
        """The kind of decision awaited: the phase's name."""
        return self.PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == self.GAME_OVER

    def legal_actions(self) -> np.ndarray:
        """The legal decisions now, as sorted action numbers (read-only array)."""
        return self.ENGINE.legal_actions(self)

    def apply(self, action: object) -> None:
        """Apply one decision. An illegal one raises :class:`IllegalActionError` and changes nothing."""
        self.ENGINE.apply_action(self, action)

    def describe_action(self, action: int) -> str:
        return self.game.layout.describe(action)

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

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the whole action space: 1 exactly where ``legal_actions`` has it."""
        mask = np.zeros(self.game.layout.size, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is legal now (a non-integer raises ``ActionTypeError``)."""
        a = action_number(action, self.game.layout.size)
        legal = self.legal_actions()
        i = int(legal.searchsorted(a))
        return i < len(legal) and int(legal[i]) == a
