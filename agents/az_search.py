"""A steppable information-set MCTS guided by a policy-value network (the search of ``az:PATH`` and of
``mk-env train --algo az``).

The search is driven from outside, so that many searches (parallel self-play games) can share one
batched network call:

>>> tree = SearchTree(lambda rng: view.determinize(rng), rng)         # doctest: +SKIP
>>> while tree.simulations < 64:                                        # doctest: +SKIP
...     leaf = tree.select()          # a state to evaluate, or None (a terminal was backed up)
...     if leaf is not None:
...         priors, values = evaluate([leaf])  # priors over leaf.actions, values by seat
...         tree.expand_backup(leaf, priors[0], values[0])
>>> actions, visits = tree.root_visits()                               # doctest: +SKIP

Each simulation draws a fresh determinization of the searcher's view (hidden parts resampled, never
the true hidden state) and walks one tree keyed by action numbers over **every** player's decisions;
children illegal in that determinization are skipped, and a node reached with none of its known
actions legal is evaluated again and learns the new ones. Selection is PUCT on the network's priors;
a leaf is scored by the network's value (per seat), a terminal state by the true returns
(``state.returns()``). ``expand_backup`` adds each seat's value to the edges that seat chose.

This is the interface announced on the board for ``agents/mcts.py``'s steppable ISMCTS
(``select``, ``expand_backup``, ``root_visits``); the AlphaZero code uses only these three calls.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

C_PUCT = 1.5
#: a simulation that keeps meeting terminal states gives up after this many tries in one select()
MAX_TERMINAL_TRIES = 8


class Node:
    """One decision point of the tree: who decides, the actions known, their priors and statistics."""

    __slots__ = ("player", "actions", "index", "priors", "n", "w", "children")

    def __init__(self, player: int):
        self.player = player
        self.actions: np.ndarray = np.zeros(0, np.int64)
        self.index: dict[int, int] = {}
        self.priors = np.zeros(0)
        self.n = np.zeros(0)
        self.w = np.zeros(0)
        self.children: dict[int, Node] = {}

    @property
    def expanded(self) -> bool:
        return len(self.actions) > 0

    def add_actions(self, actions: np.ndarray, priors: np.ndarray) -> None:
        """Learn the actions not yet known (with their priors); known ones keep theirs."""
        actions = np.asarray(actions, np.int64)
        priors = np.asarray(priors, float)
        if self.index:
            new = np.array([int(a) not in self.index for a in actions.tolist()], bool)
            actions, priors = actions[new], priors[new]
            if not len(actions):
                return
        start = len(self.index)
        self.index.update(zip(actions.tolist(), range(start, start + len(actions))))
        self.actions = np.concatenate([self.actions, actions])
        self.priors = np.concatenate([self.priors, priors])
        self.n = np.concatenate([self.n, np.zeros(len(actions))])
        self.w = np.concatenate([self.w, np.zeros(len(actions))])


@dataclass
class Leaf:
    """A state the search wants evaluated: priors over ``actions`` and a value per seat."""

    state: Any  # the determinized state reached (not terminal)
    player: int  # who decides there
    actions: np.ndarray  # its legal actions
    node: Node
    path: list[tuple[Node, int]] = field(default_factory=list)


class SearchTree:
    """One search from one seat's view. ``determinize(rng)`` gives a fresh full state consistent with
    the view; ``noise`` (alpha, fraction) mixes Dirichlet noise into the root's priors (self-play)."""

    def __init__(self, determinize: Callable[[np.random.Generator], Any], rng: np.random.Generator,
                 c_puct: float = C_PUCT, noise: tuple[float, float] | None = None):
        self.determinize, self.rng, self.c_puct, self.noise = determinize, rng, c_puct, noise
        self.root: Node | None = None
        self.simulations = 0  # completed (backed-up) simulations

    def select(self) -> Leaf | None:
        """Walk one simulation down to a state to evaluate. ``None`` when the simulations tried reached
        terminal states only (each is backed up with the true returns and counted)."""
        for _ in range(MAX_TERMINAL_TRIES):
            st = self.determinize(self.rng)
            if self.root is None:
                self.root = Node(st.current_player())
                return Leaf(st, self.root.player, st.legal_actions(), self.root)
            node, path = self.root, []
            while True:
                i = self._choose(node, st)
                if i is None:  # none of the known actions is legal here: learn this state's
                    return Leaf(st, node.player, st.legal_actions(), node, path)
                path.append((node, i))
                a = int(node.actions[i])
                st.apply(a)
                if st.is_terminal():
                    self._backup(path, np.asarray(st.returns(), float))
                    break
                child = node.children.get(a)
                if child is None or child.player != st.current_player():
                    child = node.children[a] = Node(st.current_player())
                if not child.expanded:
                    return Leaf(st, child.player, st.legal_actions(), child, path)
                node = child
        return None

    def expand_backup(self, leaf: Leaf, priors: np.ndarray, values: np.ndarray) -> None:
        """Give ``leaf.node`` the ``priors`` over ``leaf.actions`` and back ``values`` (by seat) up."""
        priors = np.asarray(priors, float)
        if len(priors) != len(leaf.actions):
            raise ValueError(f"{len(priors)} priors for {len(leaf.actions)} actions")
        if leaf.node is self.root and not self.root.expanded and self.noise is not None:
            alpha, frac = self.noise
            priors = (1 - frac) * priors + frac * self.rng.dirichlet(np.full(len(priors), alpha))
        leaf.node.add_actions(leaf.actions, priors)
        self._backup(leaf.path, np.asarray(values, float))

    def root_visits(self) -> tuple[np.ndarray, np.ndarray]:
        """(the root's actions, their visit counts)."""
        if self.root is None:
            return np.zeros(0, np.int64), np.zeros(0)
        return self.root.actions.copy(), self.root.n.copy()

    def _choose(self, node: Node, st: Any) -> int | None:
        """PUCT over the node's actions legal in ``st`` (None if there is none)."""
        q = np.divide(node.w, node.n, out=np.zeros_like(node.w), where=node.n > 0)
        score = q + self.c_puct * node.priors * math.sqrt(node.n.sum() + 1) / (1 + node.n)
        best = int(np.argmax(score))
        if st.is_legal(int(node.actions[best])):
            return best
        for i in np.argsort(-score, kind="stable"):
            if st.is_legal(int(node.actions[i])):
                return int(i)
        return None

    def _backup(self, path: list[tuple[Node, int]], values: np.ndarray) -> None:
        for node, i in path:
            node.n[i] += 1
            node.w[i] += values[node.player]
        self.simulations += 1


def visit_policy(visits: np.ndarray, temperature: float) -> np.ndarray:
    """Visit counts -> a distribution: ``n^(1/T)`` normalised; ``T == 0`` puts all mass on the most
    visited (ties shared)."""
    visits = np.asarray(visits, float)
    if visits.sum() <= 0:
        return np.full(len(visits), 1.0 / max(1, len(visits)))
    if temperature <= 0:
        best = visits == visits.max()
        return best / best.sum()
    p = visits ** (1.0 / temperature)
    return p / p.sum()
