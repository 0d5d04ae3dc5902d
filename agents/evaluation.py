"""Each game's evaluation for the search agents: the module that :mod:`mk_env.games` names for it (the
first game's :mod:`agents.heuristic`, Cave Troll's :mod:`agents.cave_troll_heuristic`).

An evaluation module provides ``candidates(state, seat)``, ``lookahead_values(state, seat, actions)``,
``quick_action(state, seat)``, ``settle(state, seat)``, ``evaluate(state, seat)`` and
``best_action(state, seat, rng)``: the ``heuristic`` agent plays ``best_action``, and ``mcts`` takes its
priors, rollout policy and leaf values from the rest, so both serve every game of the suite. The module may
also set the search's constants for its game (:data:`SEARCH_DEFAULTS` where it does not): the margin that
counts as a near-certain win (``SEARCH_VALUE_SCALE``), the tree depths given lookahead priors
(``SEARCH_LOOKAHEAD``, None: every depth) and the rounds of play before a leaf is valued
(``SEARCH_ROLLOUT_ROUNDS``), so no shared module keeps constants by game name.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from mk_env.games import game_entry, game_name

_LOADED: dict[str, ModuleType] = {}
#: the search's constants a game's evaluation module may set, and their values where it does not
SEARCH_DEFAULTS: dict[str, Any] = {"SEARCH_VALUE_SCALE": 10.0, "SEARCH_LOOKAHEAD": None, "SEARCH_ROLLOUT_ROUNDS": 1}


def evaluation_of(game: Any) -> ModuleType:
    """The evaluation module of ``game`` (a ``Game`` of the suite), imported on first use."""
    name = game_name(game)
    module = _LOADED.get(name)
    if module is None:
        module = _LOADED[name] = importlib.import_module(game_entry(name).evaluation)
    return module


def search_constant(game: Any, name: str) -> Any:
    """The search's constant ``name`` (a key of :data:`SEARCH_DEFAULTS`) for ``game``: its evaluation module's,
    else the default."""
    return getattr(evaluation_of(game), name, SEARCH_DEFAULTS[name])
