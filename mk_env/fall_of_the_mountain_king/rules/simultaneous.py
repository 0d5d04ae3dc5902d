"""Simultaneous decisions, hidden until every player has chosen.

The rule text has every player make three decisions at once: "From the 0 deck, deal each player 2 facedown.
Each player chooses 1 to keep face-up" (the champion kept), "Three times, each player: Adds one card to their
ancestry" (the draft's placements) and "For each 2 wild symbols the player covers with ancestry markers, they
increase their supply by 1" (the wild pairs). The engine asks them one seat at a time, clockwise from the start
player (an AEC environment asks one agent at a time; OpenSpiel and PettingZoo model simultaneous moves so),
but a seat's choice is only committed (``state.committed``): hidden from the others, it is carried out when
every seat has chosen (the reveal: :func:`.setup.reveal_champions`, :func:`.ancestry.reveal_placements`,
:func:`.ancestry.reveal_wild_pairs`). A later seat's observation and its determinized copies never depend on
an earlier seat's choice of the same decision.

Here: which seats have chosen (:func:`chosen`), the position as a valuation sees it (:func:`revealed`), the
resampling of the other seats' choices by ``FallState.determinize`` (:func:`resample_committed`) and the
facts a save's committed choices obey (:func:`committed_problems`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from . import ancestry, setup
from .flow import TASKS, order_from
from .vocabulary import Phase

if TYPE_CHECKING:
    from .state import FallState

#: the decisions every player makes at once
SIMULTANEOUS = frozenset((Phase.KEEP_CHAMPION, Phase.PLACE_CARD, Phase.WILD_PAIR))
#: how each carries out the committed choices
REVEAL: dict[Phase, Callable[[FallState], None]] = {
    Phase.KEEP_CHAMPION: setup.reveal_champions,
    Phase.PLACE_CARD: ancestry.reveal_placements,
    Phase.WILD_PAIR: ancestry.reveal_wild_pairs,
}


def chosen(st: FallState) -> list[int]:
    """The seats that have made their choice in the simultaneous decision awaited: those before the seat
    deciding, clockwise from the start player (none outside such a decision)."""
    if st.phase not in SIMULTANEOUS:
        return []
    order = order_from(st, st.start_player)
    return order[:order.index(st.decider)]


def revealed(st: FallState) -> FallState:
    """``st`` itself, or, once a seat has chosen in the simultaneous decision awaited, a copy in which the
    choices made so far are carried out now as the reveal does them (a seat still to choose chooses nothing:
    no champion, no card, no wild). For valuing a choice (the heuristic's projected honor): the copy is read,
    never played on."""
    if st.phase not in SIMULTANEOUS or not (chosen(st) or any(st.committed)):
        return st
    c = st.clone()
    depth = len(c.tasks)
    REVEAL[Phase(c.phase)](c)
    while len(c.tasks) > depth:  # what the reveal scheduled: the kept champions' votes
        name, *args = c.tasks.pop()
        TASKS[name](c, *args)
    return c


# -- determinize ------------------------------------------------------------------------------------------
def _any_keep(st: FallState, seat: int, rng: np.random.Generator) -> list[int]:
    return [int(rng.integers(2))]


def _any_placement(st: FallState, seat: int, rng: np.random.Generator) -> list[int]:
    options = ancestry.place_actions(st, seat)
    return [options[int(rng.integers(len(options)))]] if options else []


def _some_wilds(st: FallState, seat: int, k: int, rng: np.random.Generator) -> list[int]:
    """``k`` of ``seat``'s uncovered wilds drawn from ``rng``."""
    wilds = ancestry.uncovered_wilds(st, seat)
    return [wilds[int(i)] for i in rng.permutation(len(wilds))[:k]]


def _any_wild_pairs(st: FallState, seat: int, rng: np.random.Generator) -> list[int]:
    """Any number of wild pairs the seat could cover (up to its supply's limit), any of its wilds."""
    room = st.game.pack.rules.supply_max - st.supply[seat]
    pairs = int(rng.integers(max(0, min(len(ancestry.uncovered_wilds(st, seat)) // 2, room)) + 1))
    return _some_wilds(st, seat, 2 * pairs, rng)


#: a choice a seat that has chosen could have made, drawn from a generator
ANY_CHOICE: dict[Phase, Callable[[FallState, int, np.random.Generator], list[int]]] = {
    Phase.KEEP_CHAMPION: _any_keep,
    Phase.PLACE_CARD: _any_placement,
    Phase.WILD_PAIR: _any_wild_pairs,
}


def resample_committed(st: FallState, player: int, rng: np.random.Generator) -> None:
    """Replace each other seat's committed choice, which ``player`` cannot see before the reveal, with one drawn
    from ``rng`` among those the seat had. The seat still choosing its wilds keeps how many it has chosen (the
    decision's context shows whether a pair is half covered), not which."""
    if st.phase not in SIMULTANEOUS:
        return
    phase = Phase(st.phase)
    for seat in chosen(st):
        if seat != player:
            st.committed[seat] = ANY_CHOICE[phase](st, seat, rng)
    if phase == Phase.WILD_PAIR and st.decider != player:
        st.committed[st.decider] = _some_wilds(st, st.decider, len(st.committed[st.decider]), rng)


# -- the facts of a save --------------------------------------------------------------------------------
def _keep_problem(st: FallState, seat: int, choice: list[int]) -> str:
    return "" if choice in ([0], [1]) and len(st.dealt[seat]) == 2 else "one of its two dealt champions, 0 or 1"


def _placement_problem(st: FallState, seat: int, choice: list[int]) -> str:
    options = ancestry.place_actions(st, seat)
    ok = (len(choice) == 1 and choice[0] in options) or (not choice and not options)
    return "" if ok else "one card of its hand on a legal anchor (none if it has no choice)"


def _wilds_problem(st: FallState, seat: int, choice: list[int]) -> str:
    wilds = ancestry.uncovered_wilds(st, seat)
    pairs = len(choice) // 2
    if len(set(choice)) != len(choice) or any(c not in wilds for c in choice) or \
            st.supply[seat] + pairs > st.game.pack.rules.supply_max:
        return "distinct uncovered wilds of its grid, a pair for each supply up to the limit"
    return ""


def _chosen_wilds_problem(st: FallState, seat: int, choice: list[int]) -> str:
    return _wilds_problem(st, seat, choice) or ("" if len(choice) % 2 == 0 else "whole pairs of wilds")


CHOICE_PROBLEM: dict[Phase, Callable[[FallState, int, list[int]], str]] = {
    Phase.KEEP_CHAMPION: _keep_problem,
    Phase.PLACE_CARD: _placement_problem,
    Phase.WILD_PAIR: _chosen_wilds_problem,
}


def _deciding_problem(st: FallState, seat: int, choice: list[int]) -> str:
    """The choice of the seat deciding now: empty, or its wilds so far (as many as the context says)."""
    if st.phase != Phase.WILD_PAIR:
        return "nothing before its decision" if choice else ""
    if len(choice) % 2 != st.pending.get("covered"):
        return "as many wilds as the decision's context has covered (a pair half covered or not)"
    return _wilds_problem(st, seat, choice)


def committed_problems(st: FallState) -> list[str]:
    """What is wrong with ``st.committed`` (empty: nothing): choices only in a simultaneous decision, each
    one its seat could make, none from a seat still to choose."""
    if st.phase not in SIMULTANEOUS or not 0 <= st.decider < st.num_players:
        return [f"seat {p} has a choice committed outside a simultaneous decision"
                for p, choice in enumerate(st.committed) if choice]
    done = chosen(st)
    out = []
    for seat, choice in enumerate(st.committed):
        if seat in done:
            want = CHOICE_PROBLEM[Phase(st.phase)](st, seat, choice)
        elif seat == st.decider:
            want = _deciding_problem(st, seat, choice)
        else:
            want = "nothing: it has not chosen yet" if choice else ""
        if want:
            out.append(f"seat {seat}'s committed choice {str(choice)[:40]} is impossible; allowed: {want}")
    return out
