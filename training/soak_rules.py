"""What ``mk-env soak`` plays and checks in each game of the suite: its :class:`SoakRules`.

A game's card may name a module (``soak`` in :mod:`mk_env.games`) with what the soak needs beyond the engine
protocol: ``POLICIES`` (names), ``choose(state, policy, rng)``, ``options(num_players, rng, seed, index)`` (the
options each game draws besides its player count) and ``Checks`` (built on the first state, which it checks;
``step(before, state)`` after every decision, ``before`` a copy of the state before it when ``needs_before``;
``end(state)``). A game that names none is soaked generically: no options, the policies ``uniform`` and
``busy``, and the game's invariant checker (the card's ``invariants``) after every decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from mk_env.games import game_entry, load

#: ``uniform``: uniform over the legal decisions; ``busy``: the same but never giving up the turn's actions
#: while anything else is legal (longer turns: more moves, pushes, Orcs and artifacts per game)
GENERIC_POLICIES = ("uniform", "busy")


@dataclass(frozen=True)
class SoakRules:
    """A game's soak: its policies, how one decides, the options a game draws, its checks."""

    policies: tuple[str, ...]
    choose: Callable[[Any, str, np.random.Generator], int]
    options: Callable[[int, np.random.Generator, int, int], dict[str, Any]]
    checks: Callable[[Any], Any]


def soak_rules(game: str) -> SoakRules:
    """The soak of ``game``: its card's ``soak`` module, else the generic soak with the game's invariants."""
    entry = game_entry(game)
    if entry.soak:
        module = load(entry.soak)
        return SoakRules(tuple(module.POLICIES), module.choose, module.options, module.Checks)
    return SoakRules(GENERIC_POLICIES, choose_generic, no_options, lambda state: InvariantChecks(entry, state))


def choose_generic(state: Any, policy: str, rng: np.random.Generator) -> int:
    """One decision of ``uniform`` or ``busy`` (see :data:`GENERIC_POLICIES`)."""
    legal = state.legal_actions()
    if policy == "busy" and len(legal) > 1:
        layout = state.game.layout
        keep = legal[[layout.decode(int(a))[0] != "end_turn" for a in legal]]
        legal = keep if len(keep) else legal
    return int(legal[rng.integers(len(legal))])


def no_options(num_players: int, rng: np.random.Generator, seed: int, index: int) -> dict[str, Any]:
    """A game without options to draw: none (``rng`` untouched)."""
    return {}


class InvariantChecks:
    """The checks of a game that declares only its invariant checker: after every decision."""

    needs_before = False

    def __init__(self, entry: Any, state: Any):
        self.check = entry.check_invariants()  # looked up now: a test may plant a broken checker
        self.check(state)

    def step(self, before: Any, state: Any) -> None:
        self.check(state)

    def end(self, state: Any) -> None:
        """Nothing more than every step's checks."""
