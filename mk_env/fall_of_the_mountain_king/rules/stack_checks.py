"""The save reader's checks of the engine's own bookkeeping: the task stack (every entry a registered task
with its arguments in range) and the awaited decision's context (``pending``: the keys its phase reads,
each of the right kind and range), so that a corrupt save is refused with the fault named instead of
breaking the engine later."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any


from .flow import TASKS
from .vocabulary import ACTIONS, Phase

if TYPE_CHECKING:
    from .state import FallState

Check = Callable[["FallState", Any], str]  # "" when fine, else what is allowed


def _int(lo: Callable[[FallState], int], hi: Callable[[FallState], int]) -> Check:
    def check(st: FallState, v: Any) -> str:
        a, b = lo(st), hi(st)
        return "" if type(v) is int and a <= v <= b else f"an integer {a}..{b}"
    return check


def _ints(item: Check, nonempty: bool = False) -> Check:
    def check(st: FallState, v: Any) -> str:
        if type(v) is not list or (nonempty and not v):
            return "a non-empty list" if nonempty else "a list"
        bad = next((m for x in v if (m := item(st, x))), "")
        return f"a list of {bad}" if bad else ""
    return check


def _const(n: int) -> Callable[[FallState], int]:
    return lambda st: n


SEAT = _int(_const(0), lambda st: st.num_players - 1)
LOC = _int(_const(0), lambda st: st.game.side.size - 1)
CARD = _int(_const(0), lambda st: len(st.game.pack.champions) - 1)
FLAG = _int(_const(0), _const(1))
COUNT = _int(_const(0), _const(10_000))
POSITIVE = _int(_const(1), _const(10_000))
SYMBOL_CELL = _int(_const(0), lambda st: st.game.layout.symbol_cells - 1)
ACTION = _int(_const(int(min(ACTIONS))), _const(int(max(ACTIONS))))


def _reason(st: FallState, v: Any) -> str:
    return "" if v in ("repelled", "fall") else "'repelled' or 'fall'"


#: the task arguments by parameter name
ARGS: dict[str, Check] = {
    "seat": SEAT, "loc": LOC, "card": CARD, "gnome": _int(_const(0), lambda st: len(st.strength) - 1),
    "pos": _int(_const(0), lambda st: len(st.display) - 1), "k": _int(_const(0), lambda st: len(st.invasion) - 1),
    "kind": FLAG, "strong": FLAG, "power": POSITIVE, "m": POSITIVE, "amount": COUNT,
    "pick": _int(_const(0), lambda st: st.game.pack.rules.picks - 1), "i": _int(_const(0), lambda st: st.num_players),
    "chosen": _ints(LOC), "before": _ints(LOC),
}
#: arguments whose range differs for one task (an invasion's gnome has no active player: -1)
TASK_ARGS: dict[tuple[str, str], Check] = {("gnome_in", "seat"): _int(_const(-1), lambda st: st.num_players - 1)}

#: each phase's context: key -> check (keys in OPTIONAL may be absent)
PENDING: dict[Phase, dict[str, Check]] = {
    Phase.LAIR_TROLL: {"lair": FLAG, "chosen": _ints(LOC)},
    Phase.PAWN_SETUP: {"card": CARD, "chosen": _ints(LOC, nonempty=True)},
    Phase.WILD_PAIR: {"covered": FLAG},
    Phase.TURN: {"weak": FLAG, "bonus": FLAG},
    Phase.GATHER: {"action": ACTION, "cells": _ints(SYMBOL_CELL, nonempty=True), "power": POSITIVE, "numbered": FLAG},
    Phase.BOOST: {"action": ACTION, "power": POSITIVE, "strong": FLAG},
    Phase.ADVANCE_DEST: {"power": POSITIVE, "strong": FLAG},
    Phase.ADVANCE_TROLL: {"dest": LOC, "left": COUNT, "strong": FLAG, "moved": COUNT, "sources": _ints(LOC),
                          "champions": _ints(CARD)},
    Phase.BOLSTER_DEST: {"power": POSITIVE},
    Phase.BOLSTER_COUNT: {"dest": LOC, "power": POSITIVE,
                          "most": _int(_const(1), lambda st: st.game.pack.rules.trolls)},
    Phase.BOLSTER_FROM: {"dest": LOC, "left": POSITIVE},
    Phase.INFLUENCE: {"power": POSITIVE},
    Phase.WHEEL: {"most": _int(_const(1), lambda st: len(st.game.pack.wheel.spaces))},
    Phase.SHOVE_FROM: {"m": POSITIVE},
    Phase.SHOVE: {"src": LOC, "left": COUNT},
    Phase.ROUTE: {"kind": FLAG, "gnome": ARGS["gnome"], "options": _ints(LOC, nonempty=True)},
    Phase.FALL: {"loc": LOC},
    Phase.LAIR_CHOICE: {"reason": _reason, "loc": LOC, "card": CARD},
    Phase.OUTSIDER: {"amount": POSITIVE},
    Phase.VOTE_OR_HONOR: {"card": CARD},
    Phase.PAWN_PLACE: {"card": CARD},
    Phase.STARBURST: {"card": CARD},
}
OPTIONAL = {(Phase.TURN, "bonus"), (Phase.LAIR_CHOICE, "loc"), (Phase.LAIR_CHOICE, "card")}


@cache
def _params(name: str) -> list[str]:
    return list(inspect.signature(TASKS[name]).parameters)[1:]


def _task_problem(st: FallState, i: int, entry: Any) -> str:
    if not entry or type(entry[0]) is not str or entry[0] not in TASKS:
        return f"tasks[{i}]: {str(entry)[:60]} is not a task; the engine's tasks are {', '.join(sorted(TASKS))}"
    name, args = entry[0], entry[1:]
    params = _params(name)
    if len(args) != len(params):
        return f"tasks[{i}]: task {name!r} takes {len(params)} arguments ({', '.join(params)}), got {len(args)}"
    for p, v in zip(params, args):
        if want := TASK_ARGS.get((name, p), ARGS[p])(st, v):
            return f"tasks[{i}]: task {name!r} argument {p!r} is {str(v)[:40]}, allowed {want}"
    return ""


def stack_problems(st: FallState) -> list[str]:
    """What is wrong with ``st.tasks`` and ``st.pending`` for the phase awaited (empty: nothing)."""
    out = [m for i, e in enumerate(st.tasks) if (m := _task_problem(st, i, e))]
    phase = Phase(st.phase)
    if phase != Phase.GAME_OVER and not st.tasks:
        out.append("tasks: empty while a decision is awaited (the game's end is always scheduled)")
    spec = PENDING.get(phase, {})
    for key in st.pending:
        if key not in spec:
            allowed = ", ".join(spec) or "nothing"
            out.append(f"pending: key {key!r} is not part of a {phase.name.lower()} decision (allowed: {allowed})")
    for key, check in spec.items():
        if key not in st.pending:
            if (phase, key) not in OPTIONAL:
                out.append(f"pending: a {phase.name.lower()} decision needs {key!r}")
        elif want := check(st, st.pending[key]):
            out.append(f"pending: {key!r} is {str(st.pending[key])[:40]}, allowed {want}")
    if phase == Phase.LAIR_CHOICE and not out:
        need = "loc" if st.pending["reason"] == "repelled" else "card"
        if need not in st.pending:
            out.append(f"pending: a lair choice for {st.pending['reason']!r} needs {need!r}")
    return out
