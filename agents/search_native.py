"""The compiled search (``agents/native/search.cpp``) behind :class:`agents.search_tree.Search`'s interface, and
:func:`new_search`, which every search of the suite is made with: the compiled tree for a state of the compiled
engine, the Python one (the reference) otherwise.

The compiled tree walks, widens, selects and backs up exactly as the Python one, from the same draws of the
caller's generator, so the same seed and simulation count give the same visits. With the default leaf
evaluator (:class:`agents.search_eval.HeuristicEvaluator`) whole iterations run in C++
(:meth:`NativeSearch.run`); any other evaluator (a network's batched forward, a uniform one) gets the leaves
handed out by :meth:`NativeSearch.select` and returns their priors and values to
:meth:`NativeSearch.expand_backup`, as with the Python tree. Inside :func:`agents.native_heuristic.reference`
the Python tree serves (the side-by-side benchmarks and the parity tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from mk_env.core.view import PlayerView
from mk_env.mountain_king.rules.native import NativeGameState

from .evaluation import search_constant
from .native_heuristic import compiled, in_reference
from .search_eval import GAME_DEFAULT, ROLLOUT_DECISIONS, HeuristicEvaluator
from .search_tree import (Evaluator, Leaf, Search, SearchConfig, SearchLoop, check_budget, checked_priors,
                          checked_values)


def new_search(root: Any, seat: int, rng: np.random.Generator, config: SearchConfig | None = None) -> Any:
    """A search of ``root`` (a :class:`PlayerView` or a state) from ``seat``'s view: compiled where the state
    is the compiled engine's, else :class:`agents.search_tree.Search`."""
    state = root._state if isinstance(root, PlayerView) else root
    if type(state) is NativeGameState and not in_reference():
        return NativeSearch(root, seat, rng, config)
    return Search(root, seat, rng, config)


@dataclass
class NativeLeaf(Leaf):
    """A leaf of the compiled tree: ``ticket`` is its number there, ``at_root`` whether it expands the root."""

    ticket: int = -1
    at_root: bool = False


@dataclass
class RootView:
    """The compiled root's actions and per-edge arrays (a copy, read when asked)."""

    actions: list[int]
    priors: np.ndarray
    n: np.ndarray
    w: np.ndarray

    @property
    def expanded(self) -> bool:
        return bool(self.actions)


class NativeSearch(SearchLoop):
    """:class:`agents.search_tree.Search` on the compiled tree (same constructor, same stepped interface)."""

    def __init__(self, root: Any, seat: int, rng: np.random.Generator, config: SearchConfig | None = None):
        if isinstance(root, PlayerView) and root.seat != seat:
            raise ValueError(f"Search: the view is seat {root.seat}'s, not seat {seat}'s")
        state = root._state if isinstance(root, PlayerView) else root
        self._settle_shape(seat, state.num_players, rng, config)
        self._game = state.game
        self._heuristic = compiled(state)  # the candidates (unless every legal action is one) and the leaf values
        from mk_env.mountain_king.rules import _native
        self._tree = _native.TreeSearch(state._n, seat, {
            "c_puct": self.config.c_puct, "horizon": self.horizon, "rollout_horizon": self.rollout_horizon,
            "fpu_parent": self.config.fpu == "parent", "max_depth": self.config.max_depth,
            "min_width": self.config.min_width, "widen": self.config.widen, "widen_power": self.config.widen_power,
            "legal_actions": self.config.actions == "legal"})
        self._root: RootView | None = None

    @property
    def simulations(self) -> int:
        return self._tree.simulations

    @property
    def root(self) -> RootView:
        """The root as it stands (a copy, made again only after the tree has moved)."""
        if self._root is None:
            actions, priors, n, w = self._tree.root
            self._root = RootView(list(actions), np.array(priors), np.array(n), np.array(w))
        return self._root

    def select(self) -> NativeLeaf | None:
        """Walk one determinization down the tree: the leaf to evaluate, or None (the walk ended the game)."""
        self._root = None
        ticket = self._tree.select(self.rng, self._heuristic)
        if ticket < 0:
            return None
        st, player, actions, needs_priors, depth, turns_left, node = self._tree.leaf(ticket)
        return NativeLeaf(NativeGameState._wrap(self._game, st), player, self.seat, np.asarray(actions, dtype=np.int64),
                          needs_priors, depth, turns_left, ticket=ticket, at_root=node == 0)

    def expand_backup(self, leaf: NativeLeaf, priors: np.ndarray | Sequence[float],
                      values: np.ndarray | Sequence[float]) -> None:
        """Expand ``leaf``'s node with ``priors`` (normalised in the tree) and back ``values`` up its path."""
        if leaf.backed_up:
            raise ValueError("expand_backup: this leaf was already backed up (each select() gives one leaf to "
                             "back up once)")
        values = checked_values(values, self.num_players)
        noise: list[float] = []
        if leaf.needs_priors:
            priors = checked_priors(priors, len(leaf.actions))
            if leaf.at_root and not self.root.expanded and self.config.dirichlet_alpha > 0:
                noise = self.root_noise(len(priors)).tolist()
        else:
            priors = np.zeros(0)
        self._root = None
        self._tree.expand_backup(leaf.ticket, priors.tolist(), values.tolist(), noise, self.config.dirichlet_frac)
        leaf.backed_up = True

    def run(self, evaluator: Evaluator, simulations: int | None = None, seconds: float | None = None,
            batch: int = 1) -> "NativeSearch":
        """As :meth:`agents.search_tree.Search.run`; the default heuristic evaluator runs whole iterations in
        C++."""
        check_budget(simulations, seconds, batch)
        settings = self._compiled_evaluation(evaluator)
        if settings is None:
            return super().run(evaluator, simulations, seconds, batch)
        self._root = None
        self._tree.run_heuristic(self.rng, self._heuristic, settings, simulations or 0, seconds or 0.0)
        return self

    def _compiled_evaluation(self, evaluator: Evaluator) -> dict[str, Any] | None:
        """The compiled settings of ``evaluator`` when it is the plain heuristic one, else None."""
        if type(evaluator) is not HeuristicEvaluator or self._heuristic is None:
            return None
        depth = evaluator.lookahead_depth
        if depth == GAME_DEFAULT:
            depth = search_constant(self._game, "SEARCH_LOOKAHEAD")
        return {"lookahead_depth": -1 if depth is None else depth, "temperature": evaluator.temperature,
                "scale": evaluator.scale or search_constant(self._game, "SEARCH_VALUE_SCALE"),
                "rollout": evaluator.rollout, "rollout_decisions": ROLLOUT_DECISIONS}
