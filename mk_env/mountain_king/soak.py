"""What ``mk-env soak`` needs of *In the Hall of the Mountain King* beyond the engine protocol (its game card
names this module): the options each soaked game draws, the two random policies, and the checks after every
decision (:mod:`mk_env.mountain_king.rules.invariants`: the invariants against the component totals of the
start, the step from the state before, the end).

Each game draws its board side, its workshop selection (a named rule or a chosen set), team mode (at 4
players) and, in :data:`CHOOSE_PAYMENT_SHARE` of the games, ``payment="choose"``. The policies:

* ``uniform``: uniform random over the legal actions;
* ``no_trade``: uniform over the legal actions that are not trades, preferring anything but pass, so that
  digs, great halls, statues, spells and workshops are exercised (random trading otherwise dominates).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .rules import Game, GameState
from .rules.game import WORKSHOP_SELECTIONS
from .rules.invariants import check_end, check_invariants, check_step, component_totals

POLICIES = ("uniform", "no_trade")
#: the share of games played with ``payment="choose"`` (drawn from a stream of its own: the rest of each
#: game's plan is what it was before the option)
CHOOSE_PAYMENT_SHARE = 0.3


def options(num_players: int, rng: np.random.Generator, seed: int, index: int) -> dict[str, Any]:
    """The options of game ``index`` of a soak run with ``seed`` (besides ``num_players``), drawn from ``rng``."""
    n = num_players
    pack = Game(n).pack
    sides = [name for name, b in pack.boards.items() if n in b.player_counts]
    selection = rng.integers(len(WORKSHOP_SELECTIONS) + 1)
    if selection < len(WORKSHOP_SELECTIONS):
        workshops: str | list[str] = WORKSHOP_SELECTIONS[selection]
    else:  # a chosen set: 2 per player + 1 of the pack's tiles
        tiles = [w.name for w in pack.workshops for _ in range(w.count)]
        workshops = [tiles[i] for i in rng.permutation(len(tiles))[:2 * n + 1]]
    out: dict[str, Any] = {"board_side": str(rng.choice(sorted(sides))), "workshops": workshops,
                           "team_mode": bool(n == 4 and rng.random() < 0.3)}
    if np.random.default_rng([seed, index, 1]).random() < CHOOSE_PAYMENT_SHARE:
        out["payment"] = "choose"
    return out


def choose(state: GameState, policy: str, rng: np.random.Generator) -> int:
    """One decision of a random ``policy`` (see the module docstring)."""
    legal = state.legal_actions()
    if policy == "no_trade":
        layout = state.game.layout
        lo, hi = layout.offset["trade"], layout.offset["trade"] + layout.sizes["trade"]
        keep = legal[((legal < lo) | (legal >= hi)) & (legal != 0)]
        if len(keep):
            legal = keep
        elif len(legal) > 1 and legal[0] == 0 and rng.random() < 0.9:
            legal = legal[:1]  # only trades or pass: mostly pass, so trades do not take over
    return int(legal[rng.integers(len(legal))])


class Checks:
    """The checks of one game: built on its first state (which it checks), then :meth:`step` after every
    decision (``before``: a copy of the state before it) and :meth:`end` once the game is over."""

    needs_before = True

    def __init__(self, state: GameState):
        self.baseline = component_totals(state)
        check_invariants(state, self.baseline)

    def step(self, before: GameState | None, state: GameState) -> None:
        check_invariants(state, self.baseline)
        check_step(before, state)

    def end(self, state: GameState) -> None:
        check_end(state)
