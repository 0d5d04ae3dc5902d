"""The engine's task stack: the game is a sequence of steps (deal, a player's turn, an invasion, a gnome
running in, a champion awarded...), each a named task kept in ``state.tasks`` as plain data. :func:`run`
carries out tasks until one needs a decision (:func:`ask`); the decision's handler then calls :func:`run`
again. A task that must come back after a decision pushes its continuation first.

Tasks are registered by name with :func:`task` (each module registers its own), so the stack is JSON and a
saved game resumes exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .fields import RUNNING
from .vocabulary import Phase

if TYPE_CHECKING:
    from .state import FallState

#: every task by name: ``TASKS[name](state, *args)``
TASKS: dict[str, Callable[..., None]] = {}


def task(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register the function as the task ``name``."""
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        if name in TASKS:
            raise ValueError(f"task {name!r} is registered twice")
        TASKS[name] = fn
        return fn
    return register


def push(st: FallState, *steps: list[Any]) -> None:
    """Schedule ``steps`` to run in the order given (before anything already scheduled)."""
    for step in reversed(steps):
        st.tasks.append(list(step))


def ask(st: FallState, phase: Phase, seat: int, **context: Any) -> None:
    """Await ``seat``'s decision of kind ``phase``; ``context`` is kept in ``state.pending``."""
    st.phase, st.decider, st.pending = int(phase), seat, dict(context)


def run(st: FallState) -> None:
    """Carry out scheduled tasks until a decision is awaited or the game is over."""
    st.phase = RUNNING
    while st.phase == RUNNING:
        if not st.tasks:
            raise RuntimeError("the engine ran out of tasks without a decision or the game's end")
        name, *args = st.tasks.pop()
        TASKS[name](st, *args)


def cancel(st: FallState) -> None:
    """Inside a task: take back the decision just asked (it has no legal choice); the tasks go on."""
    st.phase, st.pending = RUNNING, {}


def resume(st: FallState) -> None:
    """A decision is applied: clear it and go on with the tasks."""
    st.pending = {}
    run(st)


def order_from(st: FallState, first: int) -> list[int]:
    """The seats clockwise from ``first``."""
    n = st.num_players
    return [(first + i) % n for i in range(n)]


def gain_honor(st: FallState, seat: int, amount: int, category: int) -> None:
    """``seat`` scores ``amount`` honor in scoring category ``category`` (an index of CATEGORIES)."""
    st.honor[seat] += amount
    st.honor_by[seat][category] += amount


def gain_votes(st: FallState, seat: int, clan: int, amount: int = 1) -> None:
    """``seat`` gains ``amount`` votes in ``clan``; its marker goes on top of any stack it joins."""
    if amount <= 0:
        return
    st.votes[clan][seat] += amount
    st.stamp += 1
    st.vote_stamp[clan][seat] = st.stamp


def leader(amounts: list[int], stamps: list[int]) -> int:
    """The seat leading a track (most, then the bottom marker of a stack: placed first); -1 if none has any."""
    best = -1
    for seat, (a, s) in enumerate(zip(amounts, stamps)):
        if a > 0 and (best < 0 or a > amounts[best] or (a == amounts[best] and s < stamps[best])):
            best = seat
    return best


def standing(amounts: list[int], stamps: list[int]) -> list[int]:
    """The seats with any amount on a track, leader first (ties: the bottom marker of a stack leads)."""
    return [p for _, _, p in sorted((-a, s, p) for p, (a, s) in enumerate(zip(amounts, stamps)) if a > 0)]
