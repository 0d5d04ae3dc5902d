"""Invariants of a game state: facts that hold after every decision of every legal game.

Used by the soak test (``mk-env soak``), the property tests and :meth:`Game.state_from_json` (a loaded
state must satisfy them). Part of the rules engine: imports numpy only (``mk_env.invariants`` re-exports
it). Every check asks the state and the pack for the facts; none of them re-implements a rule, except
the network reach, which is recomputed by a plain breadth-first search to cross-check the engine's.

>>> from mk_env.mountain_king.rules import Game
>>> state = Game(num_players=3).new_initial_state(seed=1)
>>> check_invariants(state)            # raises InvariantError naming the broken invariant
>>> totals = component_totals(state)   # where every component is, by place
>>> check_invariants(state, baseline=totals)

The checks are grouped by what they look at: :mod:`.totals` (where every component is),
:mod:`.board` (statues, tiles, halls, pedestals, networks, buried resources), :mod:`.trolls`
(trollsmoots, the draft, the horde) and :mod:`.supplies` (counts, tokens, spells, workshops, coronation).

Two kinds of checks:

* :func:`check_invariants` looks at one state: every token is somewhere, no tile overlaps another,
  networks are what the tiles say, the trollsmoot is a pyramid, scores add up, and so on.
* :func:`check_step` compares a state with the one before the last decision: honour never falls, the
  tunnel honour gained equals the honour chart's value for the tunnel just dug, statues never appear
  or vanish.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..content import CLANS, MINERALS
from ..payment import payment_fault
from ..scoring import CATEGORIES
from .board import check_buried, check_networks, check_pedestals, check_statues, check_tiles
from .supplies import check_coronation, check_counts, check_spells, check_tokens, check_workshops
from .totals import ComponentTotals, InvariantError, component_totals, fail, pedestal_places, token_places
from .trolls import check_draft, check_horde, check_trollsmoot

if TYPE_CHECKING:
    from ..state import GameState

__all__ = ["ComponentTotals", "InvariantError", "check_end", "check_invariants", "check_step", "component_totals",
           "pedestal_places", "token_places"]


def check_invariants(state: GameState, baseline: ComponentTotals | None = None) -> None:
    """Raise :class:`InvariantError` if ``state`` breaks any invariant of the game.

    ``baseline`` (the :func:`component_totals` of the game's initial state) adds the exact checks that
    need the setup: statues by clan and the number of workshops revealed.
    """
    for check in _CHECKS:
        check(state)
    if baseline is not None:
        check_baseline(state, baseline)


def check_decision(state: GameState) -> None:
    """The decision: a terminal state has no legal action; otherwise the legal actions are sorted,
    unique, in range, never the lone forced pass (taken automatically), and the mask agrees."""
    legal = state.legal_actions()
    size = state.game.layout.size
    if state.is_terminal():
        if len(legal) or state.current_player() != -1:
            fail("decision", f"terminal state with legal actions {legal[:5].tolist()} / player "
                              f"{state.current_player()}")
        return
    if not 0 <= state.current < state.num_players:
        fail("decision", f"current player {state.current} out of range")
    if len(legal) == 0:
        fail("decision", f"no legal action in phase {state.decision_kind()}")
    if len(legal) == 1 and legal[0] == 0:
        fail("decision", f"the only legal action is pass in phase {state.decision_kind()} (should be automatic)")
    if (np.diff(legal) <= 0).any() or legal[0] < 0 or legal[-1] >= size:
        fail("decision", f"legal actions not sorted, unique and in 0..{size - 1}")
    mask = state.legal_mask()
    if int(mask.sum()) != len(legal) or not mask[legal].all():
        fail("decision", "legal_mask disagrees with legal_actions")


def check_payment(state: GameState) -> None:
    """The payment under way (``payment="choose"``): recorded only in phase pay, its tokens owned, owed
    and in the order of choices (:func:`mk_env.mountain_king.rules.payment.payment_fault`)."""
    fault = payment_fault(state)
    if fault is not None:
        fail("payment", fault)


def check_score(state: GameState) -> None:
    """The score breakdown adds up: the categories sum to ``total``."""
    for p in range(state.num_players):
        parts = state.score_breakdown(p)
        if sum(parts[c] for c in CATEGORIES) != parts["total"]:
            fail("score", f"player {p}'s categories {parts} do not add up to the total")
        if any(parts[c] < 0 for c in CATEGORIES):
            fail("score", f"player {p} has a negative category: {parts}")


def check_baseline(state: GameState, baseline: ComponentTotals) -> None:
    """The totals that setup fixes (statues, workshops revealed, every component) are unchanged."""
    now = component_totals(state)
    if now.statues != baseline.statues:
        fail("statues", f"statues by clan {list(now.statues)}, setup placed {list(baseline.statues)}")
    if now.workshops != baseline.workshops:
        fail("workshops", f"{now.workshops} workshops revealed now, {baseline.workshops} at setup")
    for field in ("tokens", "pedestals", "tunnel_tiles", "horde_trolls", "spells"):
        if getattr(now, field) != getattr(baseline, field):
            fail("component totals", f"{field} {getattr(now, field)} != at setup {getattr(baseline, field)}")


_CHECKS = (check_counts, check_tokens, check_statues, check_tiles, check_pedestals, check_networks,
           check_trollsmoot, check_draft, check_horde, check_spells, check_workshops, check_buried,
           check_coronation, check_decision, check_payment, check_score)


def check_step(before: GameState, after: GameState) -> None:
    """Raise :class:`InvariantError` if the change from ``before`` to ``after`` (one decision and the
    forced passes after it) breaks an invariant: honour, coronation and pedestal points never fall;
    tunnel honour rises only by digging, by the honour chart's value for the tunnel dug (size x one
    mineral); statues never appear or vanish."""
    pack = before.game.pack
    for name in ("honour", "coronation", "pedestal_points", "pedestal_tokens"):
        old, new = getattr(before, name), getattr(after, name)
        if (new < old).any():
            fail(f"{name} fell", f"{old.tolist()} -> {new.tolist()}")
    new_tiles = after.tile_shape[len(before.tile_shape):]
    tunnels = [s for s in new_tiles if s >= 0]
    gained = after.honour.astype(np.int64) - before.honour
    if len(tunnels) > 1:
        fail("tunnel honour", f"{len(tunnels)} tunnels dug by one decision")
    if not tunnels:
        if gained.any():
            fail("tunnel honour", f"honour {before.honour.tolist()} -> {after.honour.tolist()} without a dig")
    else:
        size = pack.tunnels[tunnels[0]].size
        values = {pack.tunnel_honour[size][m] for m in MINERALS}
        p = before.current
        others = np.delete(gained, p)
        if others.any() or int(gained[p]) not in values:
            fail("tunnel honour", f"player {p} dug a size-{size} tunnel (chart {sorted(values)}) and honour "
                                   f"went {before.honour.tolist()} -> {after.honour.tolist()}")
    statues = np.bincount(after.statue[after.statue >= 0], minlength=len(CLANS))
    statues0 = np.bincount(before.statue[before.statue >= 0], minlength=len(CLANS))
    if (statues != statues0).any():
        fail("statues", f"statues by clan {statues0.tolist()} -> {statues.tolist()}")


# ================================================================================================
# the end
# ================================================================================================


def check_end(state: GameState) -> None:
    """Raise :class:`InvariantError` if a finished game's ranks and returns disagree with the scores:
    someone ranks first; more honour never ranks worse; the best return goes exactly to the players
    ranked first (all equal when everyone ties: a drawn team game pays 0); teammates share both."""
    if not state.is_terminal():
        fail("game end", "the game is not over")
    n, game = state.num_players, state.game
    ranks, returns = state.ranks(), state.returns()
    totals = [state.score_breakdown(p)["total"] for p in range(n)]
    if min(ranks) != 0 or not all(0 <= r < n for r in ranks):
        fail("game end", f"ranks {ranks} (totals {totals})")
    for p in range(n):
        for q in range(n):
            if totals[p] > totals[q] and ranks[p] > ranks[q]:
                fail("game end", f"player {p} has more honour than {q} ({totals}) but ranks worse ({ranks})")
    best = max(returns)
    first = [p for p in range(n) if ranks[p] == 0]
    if len(first) < n and [p for p in range(n) if returns[p] == best] != first:
        fail("game end", f"returns {returns} do not favour the winners {first} (ranks {ranks})")
    if len(first) == n and len(set(returns)) != 1:
        fail("game end", f"everyone ties but returns differ: {returns}")
    for p in range(n):
        for q in game.teammates[p]:
            if ranks[p] != ranks[q] or returns[p] != returns[q]:
                fail("game end", f"teammates {p} and {q}: ranks {ranks}, returns {returns}")
