"""Information-set MCTS over every player's decisions, steppable so that many searches can batch their leaf
evaluations (one network forward for the leaves of many games).

One tree, from the searching seat's view: each iteration draws a fresh determinization (the view's
``determinize(rng)``: hidden deck orders, hands and the generator resampled, never the true state) and
walks the tree from the root; each node is the decision of the player to move there (the searcher or an
opponent), its edges are action numbers, and each edge keeps its visits, its total value *for the player
deciding at that node* and its availability (how often it was legal, and inside the widening, when the
node was visited: the ISMCTS correction, so an action legal in few determinizations is not starved).
Children illegal in this determinization are skipped; a node none of whose known actions is legal here is
handed out again as a leaf so that its actions in this determinization are added. Selection is PUCT with
the availability count in place of the parent's visits, over the node's actions in prior order, widened
progressively (``ceil(widen * visits ** widen_power)`` actions, at least ``min_width``). The tree stops at
a horizon: after ``horizon`` changes of the player to move (a turn each, in both games) or ``max_depth``
decisions; such a leaf is only valued. A terminal state is backed up with the game's true returns.

The stepped interface (what :mod:`agents.mcts` runs, and what a self-play loop with a network drives)::

    tree = Search(view_or_state, seat, rng, config)
    leaf = tree.select()                        # a Leaf to evaluate, or None (the iteration ended at the end
                                                # of the game and is already backed up)
    tree.expand_backup(leaf, priors, values)    # priors over leaf.actions, values per seat in [-1, 1]
    actions, visits = tree.root_visits()
    tree.run(evaluator, simulations=N)          # or seconds=X: the one-game loop

``select`` may be called several times before the leaves are backed up (a virtual loss spreads the
pending paths); an evaluator maps a list of leaves to ``(priors, values)``: one array over each leaf's
``actions`` and a ``(len(leaves), num_players)`` array (:mod:`agents.search_eval`: the heuristic one, the
default, and a uniform one). ``tree.simulations`` counts finished iterations, the root's own expansion
included, so the root's visits sum to ``simulations - 1`` after a plain run.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from mk_env.core.view import PlayerView

from .evaluation import evaluation_of

#: an evaluator: leaves -> (one prior array over each leaf's actions, values of shape (len(leaves), players))
Evaluator = Callable[[Sequence["Leaf"]], "tuple[Sequence[np.ndarray], np.ndarray]"]
VIRTUAL_LOSS = 1.0
ACTION_SETS = ("candidates", "legal")


@dataclass(frozen=True)
class SearchConfig:
    """The search's shape. ``horizon``: changes of the player to move the tree may span (None: one round,
    ``num_players``); ``actions``: a node's actions are the game evaluation's ``candidates`` (a short
    list: tunnel placements and trades pruned) or every ``legal`` action."""

    c_puct: float = 1.5
    horizon: int | None = None
    rollout_horizon: int | None = None  # where leaves are valued, in changes from the root (None: the horizon)
    fpu: str = "parent"  # an unvisited edge's value: the node's mean so far ("parent") or "zero"
    max_depth: int = 60
    min_width: int = 2
    widen: float = 2.0
    widen_power: float = 0.5
    actions: str = "candidates"
    dirichlet_alpha: float = 0.0  # > 0: Dirichlet noise on the root's priors (self-play exploration)
    dirichlet_frac: float = 0.25

    def __post_init__(self) -> None:
        for name in ("c_puct", "widen"):
            if not getattr(self, name) > 0:
                raise ValueError(f"SearchConfig.{name} must be > 0, got {getattr(self, name)!r}")
        if self.horizon is not None and (not isinstance(self.horizon, int) or self.horizon < 1):
            raise ValueError(f"SearchConfig.horizon must be a whole number >= 1 (changes of the player to "
                             f"move) or None (one round), got {self.horizon!r}")
        if self.rollout_horizon is not None and (not isinstance(self.rollout_horizon, int) or self.rollout_horizon
                                                 < (self.horizon or 1)):
            raise ValueError(f"SearchConfig.rollout_horizon must be a whole number >= the horizon "
                             f"({self.horizon or 1}) or None, got {self.rollout_horizon!r}")
        if self.fpu not in ("parent", "zero"):
            raise ValueError(f"SearchConfig.fpu must be 'parent' or 'zero', got {self.fpu!r}")
        if not isinstance(self.max_depth, int) or self.max_depth < 1:
            raise ValueError(f"SearchConfig.max_depth must be a whole number >= 1, got {self.max_depth!r}")
        if not isinstance(self.min_width, int) or self.min_width < 1:
            raise ValueError(f"SearchConfig.min_width must be a whole number >= 1, got {self.min_width!r}")
        if not 0 <= self.widen_power <= 1:
            raise ValueError(f"SearchConfig.widen_power must be in [0, 1], got {self.widen_power!r}")
        if self.actions not in ACTION_SETS:
            raise ValueError(f"SearchConfig.actions must be one of {ACTION_SETS}, got {self.actions!r}")
        if self.dirichlet_alpha < 0 or not 0 <= self.dirichlet_frac <= 1:
            raise ValueError(f"SearchConfig: dirichlet_alpha must be >= 0 and dirichlet_frac in [0, 1], got "
                             f"{self.dirichlet_alpha!r}, {self.dirichlet_frac!r}")


class Node:
    """One decision of ``player`` in the tree: its actions (prior order kept in ``order``) and per-edge
    visits ``n``, total value ``w`` for ``player``, availability ``avail``; children keyed by
    (action, player to move next)."""

    __slots__ = ("player", "actions", "index", "priors", "order", "n", "w", "avail", "visits", "children")

    def __init__(self, player: int):
        self.player = player
        self.actions: list[int] = []
        self.index: dict[int, int] = {}
        self.priors = np.zeros(0)
        self.order: list[int] = []
        self.n = np.zeros(0)
        self.w = np.zeros(0)
        self.avail = np.zeros(0)
        self.visits = 0
        self.children: dict[tuple[int, int], Node] = {}

    @property
    def expanded(self) -> bool:
        return bool(self.actions)

    def add(self, actions: Sequence[int], priors: np.ndarray) -> None:
        """Add the actions not yet known with their priors (a first expansion, or a determinization in
        which none of the known actions was legal)."""
        new = [(int(a), float(p)) for a, p in zip(actions, priors) if int(a) not in self.index]
        if not new:
            return
        for a, _ in new:
            self.index[a] = len(self.actions)
            self.actions.append(a)
        k = len(new)
        self.priors = np.concatenate([self.priors, [p for _, p in new]])
        self.n, self.w, self.avail = (np.concatenate([x, np.zeros(k)]) for x in (self.n, self.w, self.avail))
        self.order = sorted(range(len(self.actions)), key=lambda i: (-self.priors[i], self.actions[i]))


@dataclass
class Leaf:
    """A position the search wants valued: ``state`` (a determinized copy the evaluator may play on),
    ``player`` to move there, ``seat`` the searcher, ``actions`` to put priors on (empty when
    ``needs_priors`` is False: a leaf at the horizon is only valued), ``depth`` (decisions from the root)
    and ``turns_left`` (changes of the player to move left to the horizon: how far a rollout should go)."""

    state: Any
    player: int
    seat: int
    actions: np.ndarray
    needs_priors: bool
    depth: int
    turns_left: int
    path: list[tuple[Node, int]] = field(default_factory=list, repr=False)
    node: Node | None = field(default=None, repr=False)
    backed_up: bool = field(default=False, repr=False)


def checked_values(values: np.ndarray | Sequence[float], players: int) -> np.ndarray:
    """A leaf's values as a float array, refused unless one per seat, finite and in [-1, 1]."""
    values = np.asarray(values, dtype=float)
    if values.shape != (players,):
        raise ValueError(f"expand_backup: values must have one entry per seat ({players}), got shape {values.shape}")
    if not np.all(np.abs(values) <= 1 + 1e-6):
        raise ValueError(f"expand_backup: values must be finite and in [-1, 1], got {values.tolist()}")
    return values


def checked_priors(priors: np.ndarray | Sequence[float], k: int) -> np.ndarray:
    """A leaf's priors as a float array, refused unless ``k`` finite non-negative weights."""
    priors = np.asarray(priors, dtype=float)
    if priors.shape != (k,) or not np.all(np.isfinite(priors)) or (priors < 0).any():
        raise ValueError(f"expand_backup: priors must be {k} finite non-negative weights (one per leaf.actions), "
                         f"got shape {priors.shape}")
    return priors


def check_budget(simulations: int | None, seconds: float | None, batch: int = 1) -> None:
    """Refuse a search budget that is not exactly one of ``simulations`` >= 1 or ``seconds`` > 0."""
    if (simulations is None) == (seconds is None):
        raise ValueError("Search.run: give exactly one budget, simulations=N or seconds=X")
    if simulations is not None and (not isinstance(simulations, (int, np.integer)) or simulations < 1):
        raise ValueError(f"Search.run: simulations must be a whole number >= 1, got {simulations!r}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"Search.run: seconds must be > 0, got {seconds!r}")
    if not isinstance(batch, int) or batch < 1:
        raise ValueError(f"Search.run: batch must be a whole number >= 1, got {batch!r}")


class SearchLoop:
    """The one-game loop of a stepped search (this module's :class:`Search`, or the compiled one of
    :mod:`agents.search_native`): select leaves, value them in batches, back them up."""

    root: "Node"
    simulations: int
    config: SearchConfig
    rng: np.random.Generator

    def _settle_shape(self, seat: int, players: int, rng: np.random.Generator, config: SearchConfig | None) -> None:
        """The searcher, the generator and the settings, with the horizons resolved (None: one round)."""
        if not 0 <= seat < players:
            raise ValueError(f"Search: seat must be in 0..{players - 1}, got {seat!r}")
        self.seat, self.num_players, self.rng = seat, players, rng
        self.config = config or SearchConfig()
        self.horizon = self.config.horizon or players
        self.rollout_horizon = max(self.horizon, self.config.rollout_horizon or self.horizon)

    def root_noise(self, k: int) -> np.ndarray:
        """The Dirichlet noise mixed into the root's ``k`` priors (self-play exploration)."""
        return self.rng.dirichlet(np.full(k, self.config.dirichlet_alpha))

    def root_visits(self) -> tuple[np.ndarray, np.ndarray]:
        """The root's actions and their visit counts."""
        return np.array(self.root.actions, dtype=np.int64), self.root.n.copy()

    def root_values(self) -> np.ndarray:
        """The searcher's mean value of each root action (0 where unvisited)."""
        n = self.root.n
        return np.divide(self.root.w, n, out=np.zeros_like(n), where=n > 0)

    def best_action(self) -> int:
        """The most visited root action; ties go to the higher mean value, then prior, then lower number."""
        if not self.root.expanded:
            raise ValueError("Search.best_action: the root is not expanded yet (run at least one simulation)")
        q = self.root_values()
        r = self.root
        best = max(range(len(r.actions)), key=lambda i: (r.n[i], q[i], r.priors[i], -r.actions[i]))
        return r.actions[best]

    def run(self, evaluator: Evaluator, simulations: int | None = None, seconds: float | None = None,
            batch: int = 1) -> "Search":
        """Search until ``simulations`` iterations are done (exactly) or ``seconds`` have passed (at least
        one iteration), evaluating up to ``batch`` leaves per evaluator call."""
        check_budget(simulations, seconds, batch)
        deadline = None if seconds is None else time.perf_counter() + seconds
        while True:
            if deadline is not None:
                if self.simulations > 0 and time.perf_counter() >= deadline:
                    return self
                room = batch
            else:
                room = min(batch, simulations - self.simulations)
                if room <= 0:
                    return self
            leaves = []
            for _ in range(room):
                leaf = self.select()
                if leaf is not None:
                    leaves.append(leaf)
                if not self.root.expanded and leaves:
                    break  # the root's priors first: later walks need its actions
            if leaves:
                priors, values = evaluator(leaves)
                for leaf, p, v in zip(leaves, priors, values):
                    self.expand_backup(leaf, p, v)


class Search(SearchLoop):
    """One information-set search from ``seat``'s view (a :class:`PlayerView`, or any state of the suite:
    then ``state.determinize(seat, rng)`` is what the search sees)."""

    def __init__(self, root: Any, seat: int, rng: np.random.Generator, config: SearchConfig | None = None):
        if isinstance(root, PlayerView):
            if root.seat != seat:
                raise ValueError(f"Search: the view is seat {root.seat}'s, not seat {seat}'s")
            self._determinize: Callable[[np.random.Generator], Any] = root.determinize
            players = root.num_players
        else:
            if not hasattr(root, "determinize"):
                raise TypeError(f"Search: root must be a PlayerView or a game state with determinize(), "
                                f"got {type(root).__name__}")
            self._determinize = lambda g: root.determinize(seat, g)
            players = root.num_players
        self._settle_shape(seat, players, rng, config)
        self.root = Node(seat)
        self.simulations = 0
        self._evaluation = None  # the game's evaluation module, for the candidates

    # -- the stepped interface ------------------------------------------------------------------
    def select(self) -> Leaf | None:
        """Walk one determinization down the tree. Returns the leaf to evaluate, or None when the walk
        ended the game (its true returns are backed up and the iteration counted)."""
        st = self._determinize(self.rng)
        if st.current_player() != self.seat:
            raise ValueError(f"Search: it is seat {st.current_player()}'s decision, not the searcher's "
                             f"(seat {self.seat})")
        node, path, depth, changes = self.root, [], 0, 0
        while True:
            if not node.expanded:
                return self._leaf(st, node, path, depth, changes)
            i = self._choose(node, st)
            if i is None:  # none of the node's actions is legal here: add this determinization's
                return self._leaf(st, node, path, depth, changes)
            a = node.actions[i]
            node.n[i] += 1
            node.w[i] -= VIRTUAL_LOSS
            path.append((node, i))
            player = node.player
            st.apply(a)
            depth += 1
            if st.is_terminal():
                self._backup(path, np.asarray(st.returns(), dtype=float))
                return None
            q = st.current_player()
            changes += q != player
            if changes >= self.horizon or depth >= self.config.max_depth:
                return Leaf(st, q, self.seat, np.zeros(0, dtype=np.int64), False, depth,
                            self.rollout_horizon - changes, path)
            child = node.children.get((a, q))
            if child is None:
                child = node.children[(a, q)] = Node(q)
            node = child

    def expand_backup(self, leaf: Leaf, priors: np.ndarray | Sequence[float], values: np.ndarray | Sequence[float]
                      ) -> None:
        """Expand ``leaf``'s node with ``priors`` (over ``leaf.actions``; normalised here, so any
        non-negative weights do) and back ``values`` (one per seat, in [-1, 1]) up its path."""
        if leaf.backed_up:
            raise ValueError("expand_backup: this leaf was already backed up (each select() gives one leaf to "
                             "back up once)")
        values = checked_values(values, self.num_players)
        if leaf.needs_priors:
            priors = checked_priors(priors, len(leaf.actions))
            total = priors.sum()
            priors = priors / total if total > 0 else np.full(len(priors), 1.0 / max(1, len(priors)))
            if leaf.node is self.root and not self.root.expanded and self.config.dirichlet_alpha > 0:
                frac = self.config.dirichlet_frac
                priors = (1 - frac) * priors + frac * self.root_noise(len(priors))
            leaf.node.add(leaf.actions.tolist(), priors)
        leaf.backed_up = True
        self._backup(leaf.path, values)

    # -- inside ---------------------------------------------------------------------------------
    def _leaf(self, st: Any, node: Node, path: list, depth: int, changes: int) -> Leaf:
        player = st.current_player()
        if self.config.actions == "legal":
            actions = np.asarray(st.legal_actions(), dtype=np.int64)
        else:
            if self._evaluation is None:
                self._evaluation = evaluation_of(st.game)
            actions = np.asarray(self._evaluation.candidates(st, player), dtype=np.int64)
        return Leaf(st, player, self.seat, actions, True, depth, self.rollout_horizon - changes, path, node)

    def _choose(self, node: Node, st: Any) -> int | None:
        """PUCT over the widest ``width`` actions (prior order) legal in this determinization."""
        cfg = self.config
        width = max(cfg.min_width, math.ceil(cfg.widen * node.visits ** cfg.widen_power))
        node.visits += 1
        avail, n, w, priors = node.avail, node.n, node.w, node.priors
        total = n.sum()
        unvisited = float(w.sum() / total) if cfg.fpu == "parent" and total > 0 else 0.0
        best, best_score, seen = None, -math.inf, 0
        for i in node.order:
            if not st.is_legal(node.actions[i]):
                continue
            avail[i] += 1
            q = w[i] / n[i] if n[i] else unvisited
            score = q + cfg.c_puct * priors[i] * math.sqrt(avail[i]) / (1 + n[i])
            if score > best_score:
                best, best_score = i, score
            seen += 1
            if seen >= width:
                break
        if best is None:
            node.visits -= 1
        return best

    def _backup(self, path: list[tuple[Node, int]], values: np.ndarray) -> None:
        for node, i in path:
            node.w[i] += VIRTUAL_LOSS + values[node.player]
        self.simulations += 1
