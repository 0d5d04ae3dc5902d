"""Leaf evaluators for :class:`agents.search_tree.Search`: a callable from a list of leaves to
``(priors, values)``, one prior array over each leaf's ``actions`` and a ``(len(leaves), num_players)`` array
of values in [-1, 1] (each seat's own view of the position). A value network is one more evaluator (the
AlphaZero-style training batches the leaves of many games into one forward); these two need no network:

* :class:`HeuristicEvaluator` (the default): the game's evaluation module (:mod:`agents.evaluation`).
  Priors: a softmax of the one-ply lookahead values (by default at every depth in the first game: the
  tree follows the heuristic's choices, the opponents' too, first; at the root only in Cave Troll; below
  ``lookahead_depth`` when given), deeper nodes get the quick policy's choice first with half the weight.
  Value: the quick policy plays on from the leaf to the search's rollout horizon (so every iteration is
  scored at the same point of the game), the pending sub-decisions are settled and each seat's
  evaluation becomes its margin over the best other seat, squashed: ``tanh(margin / scale)`` (the game's
  scale, its evaluation module's ``SEARCH_VALUE_SCALE``, or the evaluator's ``scale``). At the end of the game: the true returns.
* :class:`UniformEvaluator`: uniform priors and a value of 0 (tests; a search guided only by its visits).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .evaluation import evaluation_of, search_constant
from .search_tree import Leaf

#: decisions a rollout may take per seat before it is cut (a safety cap; a round is far shorter)
ROLLOUT_DECISIONS = 40
#: ``lookahead_depth`` meaning the game's own (its evaluation module's ``SEARCH_LOOKAHEAD``)
GAME_DEFAULT = "game"


class HeuristicEvaluator:
    """Priors, rollouts and values from the game's evaluation module. ``lookahead_depth``: leaves at
    fewer decisions from the root than this get lookahead priors (softmax of the values over
    ``temperature`` points), deeper ones the cheap quick-first priors (None: lookahead at every depth;
    ``"game"``: the game's own, its evaluation module's ``SEARCH_LOOKAHEAD``); ``rollout``: play on to the horizon (False:
    value the leaf where it is); ``scale``: the margin scale of the values (None: the game's)."""

    def __init__(self, lookahead_depth: int | None | str = GAME_DEFAULT, temperature: float = 1.5,
                 rollout: bool = True, scale: float | None = None):
        if lookahead_depth != GAME_DEFAULT and lookahead_depth is not None and (
                not isinstance(lookahead_depth, int) or lookahead_depth < 0):
            raise ValueError(f"HeuristicEvaluator: lookahead_depth must be a whole number >= 0, None (every "
                             f"depth) or 'game' (the game's default), got {lookahead_depth!r}")
        if not temperature > 0:
            raise ValueError(f"HeuristicEvaluator: temperature must be > 0, got {temperature!r}")
        if scale is not None and not 0 < scale < math.inf:
            raise ValueError(f"HeuristicEvaluator: scale must be a number > 0 (honour) or None, got {scale!r}")
        self.lookahead_depth, self.temperature, self.rollout = lookahead_depth, temperature, rollout
        self.scale = scale

    def __call__(self, leaves: Sequence[Leaf]) -> tuple[list[np.ndarray], np.ndarray]:
        priors, values = [], []
        for leaf in leaves:
            H = evaluation_of(leaf.state.game)
            priors.append(self.priors(H, leaf) if leaf.needs_priors else np.zeros(0))
            values.append(self.values(H, leaf))
        return priors, np.array(values, dtype=float)

    def priors(self, H: Any, leaf: Leaf) -> np.ndarray:
        """Weights over ``leaf.actions`` (the state is left as it was)."""
        actions = [int(a) for a in leaf.actions]
        if len(actions) == 1:
            return np.ones(1)
        depth = self.lookahead_depth
        if depth == GAME_DEFAULT:
            depth = search_constant(leaf.state.game, "SEARCH_LOOKAHEAD")
        if depth is None or leaf.depth < depth:
            v = np.asarray(H.lookahead_values(leaf.state, leaf.player, actions), dtype=float)
            # the C library's exp (numpy's own rounds some values apart from it): the compiled search computes
            # the same priors to the last bit
            z = np.array([math.exp(x) for x in ((v - v.max()) / self.temperature).tolist()])
            return z / z.sum()
        quick = int(H.quick_action(leaf.state, leaf.player))
        pri = np.full(len(actions), 0.5 / (len(actions) - 1))
        if quick in actions:
            pri[actions.index(quick)] = 0.5
        return pri

    def values(self, H: Any, leaf: Leaf) -> list[float]:
        """Each seat's value after the rollout (the leaf's state is played on)."""
        st = leaf.state
        if self.rollout:
            play_to_horizon(H, st, leaf.turns_left)
        return state_values(H, st, self.scale)


class UniformEvaluator:
    """Uniform priors and a neutral value (0 for every seat; the true returns at the end of the game)."""

    def __call__(self, leaves: Sequence[Leaf]) -> tuple[list[np.ndarray], np.ndarray]:
        priors = [np.full(len(leaf.actions), 1.0 / max(1, len(leaf.actions))) for leaf in leaves]
        values = [list(leaf.state.returns()) if leaf.state.is_terminal() else [0.0] * leaf.state.num_players
                  for leaf in leaves]
        return priors, np.array(values, dtype=float)


def play_to_horizon(H: Any, st: Any, turns_left: int) -> None:
    """The quick policy plays ``st`` on until the player to move has changed ``turns_left`` times (or the
    game ends, or the safety cap)."""
    changes, player = 0, st.current_player()
    for _ in range(ROLLOUT_DECISIONS * st.num_players):
        if changes >= turns_left or st.is_terminal():
            return
        st.apply(H.quick_action(st, player))
        if not st.is_terminal():
            q = st.current_player()
            changes += q != player
            player = q


def state_values(H: Any, st: Any, scale: float | None = None) -> list[float]:
    """Per-seat values in [-1, 1]: the true returns at the end, else each seat's evaluation margin over the
    best other seat (after settling the sub-decisions under way), squashed: ``tanh(margin / scale)``, the
    game's scale unless ``scale`` is given."""
    if not st.is_terminal():
        H.settle(st, st.current_player())
    if st.is_terminal():
        return [float(x) for x in st.returns()]
    n = st.num_players
    v = np.array([H.evaluate(st, q) for q in range(n)], dtype=float)
    scale = scale or search_constant(st.game, "SEARCH_VALUE_SCALE")
    return [math.tanh((v[q] - np.delete(v, q).max()) / scale) for q in range(n)]
