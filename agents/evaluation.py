"""Each game's evaluation for the search agents: the module that :mod:`mk_env.games` names for it (the
first game's :mod:`agents.heuristic`, Cave Troll's :mod:`agents.cave_troll_heuristic`).

An evaluation module provides ``candidates(state, seat)``, ``lookahead_values(state, seat, actions)``,
``quick_action(state, seat)``, ``settle(state, seat)``, ``evaluate(state, seat)`` and
``best_action(state, seat, rng)``: the ``heuristic`` agent plays ``best_action``, and ``mcts`` takes its
priors, rollout policy and leaf values from the rest, so both serve every game of the suite.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from mk_env.games import game_entry, game_name

_LOADED: dict[str, ModuleType] = {}


def evaluation_of(game: Any) -> ModuleType:
    """The evaluation module of ``game`` (a ``Game`` of the suite), imported on first use."""
    name = game_name(game)
    module = _LOADED.get(name)
    if module is None:
        module = _LOADED[name] = importlib.import_module(game_entry(name).evaluation)
    return module
