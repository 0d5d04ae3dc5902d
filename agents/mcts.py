"""``mcts``: determinized (information-set) Monte-Carlo tree search.

Each simulation draws a fresh determinization of the seat's view (hidden deck orders, starter hands
and the generator resampled: never the true hidden state) and walks one shared tree keyed by action
numbers; children illegal in that determinization are skipped. Selection is PUCT: at the root the
priors are a softmax of the heuristic's one-ply lookahead values; deeper nodes use the heuristic's
candidate list with its quick choice first and progressive widening. The tree spans the searching
seat's own turn (its multi-step decisions: spells, workshops, trades, recruit or dig, halls, statue
moves); a leaf is played on by the heuristic's quick policy through the opponents' replies to the
start of the seat's next turn (one horizon for every simulation), then every seat is scored with
the heuristic evaluation, turned into a per-seat value (margin over the best opponent, squashed to
[-1, 1]). Terminal states use the true returns.

The heuristic pieces (``candidates``, ``lookahead_values``, ``quick_action``, ``settle``, ``evaluate``)
are the game's evaluation module (:mod:`agents.evaluation`): the first game's :mod:`agents.heuristic`,
Cave Troll's :mod:`agents.cave_troll_heuristic`; the search itself uses only the engine protocol, so it
serves every game of the suite.

Budget: ``mcts:400`` = 400 simulations per decision, ``mcts:2s`` = 2 seconds per decision.
"""

from __future__ import annotations

import math
import time
from types import ModuleType
from typing import Any

import numpy as np

from mk_env.mountain_king.rules.view import PlayerView

from .base import BaseAgent
from .evaluation import evaluation_of

DEFAULT_SIMULATIONS = 48
ROLLOUT_DECISIONS = 30  # per player: a cap on the rollout through one round
MAX_DEPTH = 10
C_PUCT = 1.5
PRIOR_TEMPERATURE = 1.5  # honour points: softmax of the heuristic's values
VALUE_SCALE = 10.0  # honour margin that counts as a near-certain win


class Node:
    __slots__ = ("player", "actions", "priors", "children", "n", "w")

    def __init__(self, player: int):
        self.player = player  # who decides here
        self.actions: list[int] | None = None
        self.priors: np.ndarray | None = None
        self.children: dict[int, Node] = {}
        self.n = np.zeros(0)
        self.w = np.zeros(0)

    def expand(self, actions: list[int], priors: np.ndarray) -> None:
        self.actions, self.priors = actions, priors
        self.n = np.zeros(len(actions))
        self.w = np.zeros(len(actions))


class MCTSAgent(BaseAgent):
    """Determinized PUCT search with heuristic priors, rollouts and evaluation."""

    name = "mcts"

    def __init__(self, simulations: int | None = DEFAULT_SIMULATIONS, seconds: float | None = None):
        self.simulations, self.seconds = simulations, seconds

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        seat = view.seat
        H = evaluation_of(view.game)
        first = view.determinize(rng)
        cands = H.candidates(first, seat)
        if len(cands) == 1:
            return cands[0]
        values = H.lookahead_values(first, seat, cands)
        root = Node(seat)
        root.expand(cands, _softmax(values / PRIOR_TEMPERATURE))
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        sims = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and sims > 0:
                    break
            elif sims >= self.simulations:
                break
            st = first if sims == 0 else view.determinize(rng)
            self._simulate(H, root, st.clone() if sims == 0 else st, rng)
            sims += 1
        best = np.flatnonzero(root.n == root.n.max())
        if len(best) > 1:  # ties broken by the heuristic's value
            best = [best[int(np.argmax(values[best]))]]
        return int(root.actions[best[0]])

    def _simulate(self, H: ModuleType, root: Node, st: Any, rng: np.random.Generator) -> None:
        path: list[tuple[Node, int]] = []
        node = root
        for _ in range(MAX_DEPTH):
            if st.is_terminal():
                break
            if node.actions is None:
                _expand_cheap(H, node, st)
            i = _select(node, st, rng)
            if i is None:
                break
            a = node.actions[i]
            path.append((node, i))
            st.apply(a)
            if st.is_terminal() or st.current_player() != root.player:
                break  # the tree covers the searching seat's own turn
            child = node.children.get(a)
            if child is None or child.player != st.current_player():
                child = node.children[a] = Node(st.current_player())
                node = child
                break
            node = child
        values = _leaf_values(H, st, root.player)
        for nd, i in path:
            nd.n[i] += 1
            nd.w[i] += values[nd.player]


def _expand_cheap(H: ModuleType, node: Node, st: Any) -> None:
    """Candidates without lookahead: the quick choice first, uniform priors."""
    p = st.current_player()
    cands = H.candidates(st, p)
    quick = H.quick_action(st, p)
    if quick in cands:
        cands.remove(quick)
    cands.insert(0, quick)
    pri = np.full(len(cands), 0.5 / max(1, len(cands) - 1))
    pri[0] = 0.5 if len(cands) > 1 else 1.0
    node.expand(cands, pri)


def _select(node: Node, st: Any, rng: np.random.Generator) -> int | None:
    total = node.n.sum()
    width = max(2, int(2 + math.sqrt(total)))  # progressive widening
    order = np.argsort(-node.priors, kind="stable")[:width]
    best, best_score = None, -math.inf
    for i in order:
        if not st.is_legal(node.actions[i]):
            continue
        q = node.w[i] / node.n[i] if node.n[i] else 0.0
        u = C_PUCT * node.priors[i] * math.sqrt(total + 1) / (1 + node.n[i])
        if q + u > best_score:
            best, best_score = int(i), q + u
    return best


def _leaf_values(H: ModuleType, st: Any, seat: int) -> list[float]:
    """Per-seat value in [-1, 1] after a quick-policy rollout to the start of ``seat``'s next turn:
    every simulation is scored at the same horizon, after one reply of each opponent."""
    left_turn = False
    for _ in range(ROLLOUT_DECISIONS * st.num_players):
        if st.is_terminal():
            break
        p = st.current_player()
        if p != seat:
            left_turn = True
        elif left_turn:
            break
        st.apply(H.quick_action(st, p))
    if not st.is_terminal():
        H.settle(st, st.current_player())
    n = st.num_players
    if st.is_terminal():
        return list(st.returns())
    v = np.array([H.evaluate(st, q) for q in range(n)])
    out = []
    for q in range(n):
        margin = v[q] - np.delete(v, q).max()
        out.append(math.tanh(margin / VALUE_SCALE))
    return out


def _softmax(x: np.ndarray) -> np.ndarray:
    z = np.exp(x - x.max())
    return z / z.sum()


def from_spec(arg: str) -> MCTSAgent:
    """``mcts`` (the default budget), ``mcts:N`` simulations or ``mcts:Xs`` seconds per decision."""
    if not arg:
        return MCTSAgent()
    try:
        if arg.endswith("s"):
            seconds = float(arg[:-1])
            if seconds <= 0:
                raise ValueError
            return MCTSAgent(simulations=None, seconds=seconds)
        sims = int(arg)
        if sims <= 0:
            raise ValueError
        return MCTSAgent(simulations=sims)
    except ValueError:
        raise ValueError(f"agent spec 'mcts:{arg}': the budget must be a positive number of "
                         f"simulations (mcts:400) or seconds (mcts:2s)") from None
