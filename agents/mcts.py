"""``mcts``: information-set Monte-Carlo tree search over every player's decisions.

Each simulation draws a fresh determinization of the seat's view (never the true hidden state) and walks
one tree of all players' decisions, past its own turn to a horizon (one round by default: as many changes
of the player to move as there are players); leaves are valued by the game's evaluation (priors from its
lookahead, a quick-policy rollout past the horizon: two rounds from the root in the first game, squashed
margins per seat) or by any evaluator of the
stepped interface (a value network). The search itself is :mod:`agents.search_tree`, its evaluators
:mod:`agents.search_eval`, root parallelism :mod:`agents.search_parallel`; it uses only the engine
protocol and the game's evaluation module (:mod:`agents.evaluation`), so it serves every game of the suite.

Spec strings: ``mcts`` (the default budget), ``mcts:400`` (simulations per decision), ``mcts:2s`` (seconds
per decision), with options after a ``?``, joined by ``&``::

    mcts:1s?workers=2            two searches in parallel processes, root visits summed
    mcts:400?horizon=4&c=2.0     a tree of four turns, exploration constant 2
    mcts:200?depth=30&lookahead=2

``workers`` (root parallelism, default 1), ``horizon`` (changes of the player to move the tree spans,
default one round), ``rollout`` (changes of the player to move after which leaves are valued, at least the
horizon; default: the game's ``SEARCH_ROLLOUT_ROUNDS``, two rounds in the first game, the horizon in the others;
``rollout=2`` at 2 players is the one-round rollout of before), ``depth`` (decisions the tree spans at
most, default 60), ``c`` (the PUCT exploration constant, default 0.5), ``lookahead`` (the tree depths
that get the heuristic's lookahead priors; default: every depth in the first game, the root only in Cave
Troll; ``lookahead=1``: the root only, deeper nodes the quick policy's choice first), ``scale`` (the
margin scale of the leaf values ``tanh(margin / scale)``; default: the game's, 10 in the first game, 20 in
Cave Troll).
A comma may not appear: it separates the specs of a list.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from mk_env.core.view import PlayerView

from .base import BaseAgent, search_budget
from .evaluation import search_constant
from .search_eval import HeuristicEvaluator
from .search_parallel import RootPool
from .search_native import new_search
from .search_tree import Evaluator, SearchConfig

DEFAULT_SIMULATIONS = 48
#: the agent's PUCT constant (SearchConfig's own default, 1.5, serves a network's search). The heuristic's
#: values are squashed margins (tanh(margin / 10)), and sibling actions differ by a few honour points, a
#: tenth or two of value, so a smaller constant lets them outweigh the priors sooner: on the same 5 deals
#: from both seats (10 games, heavy contention),
#: mcts:16 won 7 of 10 against the first game's heuristic with 0.5 and 4 of 10 with 1.5; 9 of 10 with both
#: in Cave Troll. Small samples: docs/tournament.md, Scaling.
DEFAULT_C_PUCT = 0.5
#: the spec's options: name -> (type, lowest value allowed, what it means)
OPTIONS = {
    "workers": (int, 1, "root-parallel searches"),
    "horizon": (int, 1, "changes of the player to move the tree spans"),
    "rollout": (int, 1, "changes of the player to move after which leaves are valued (>= horizon)"),
    "depth": (int, 1, "decisions the tree spans at most"),
    "c": (float, 0.0, "PUCT exploration constant (> 0)"),
    "lookahead": (int, 0, "tree depths given the heuristic's lookahead priors"),
    "scale": (float, 0.0, "the margin scale of the leaf values, in points (> 0)"),
}


class MCTSAgent(BaseAgent):
    """Information-set MCTS with a budget of ``simulations`` or ``seconds`` per decision."""

    name = "mcts"

    def __init__(self, simulations: int | None = DEFAULT_SIMULATIONS, seconds: float | None = None,
                 workers: int = 1, config: SearchConfig | None = None, evaluator: Evaluator | None = None):
        if (simulations is None) == (seconds is None):
            raise ValueError("MCTSAgent: give exactly one budget, simulations=N or seconds=X")
        if simulations is not None and (not isinstance(simulations, int) or simulations < 1):
            raise ValueError(f"MCTSAgent: simulations must be a whole number >= 1, got {simulations!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"MCTSAgent: seconds must be > 0, got {seconds!r}")
        self.simulations, self.seconds = simulations, seconds
        self.config = config or SearchConfig(c_puct=DEFAULT_C_PUCT)
        self.evaluator = evaluator or HeuristicEvaluator()
        self.workers = workers
        self._pool = RootPool(workers)

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        config = self.config_for(view)
        if self.workers > 1:
            return self._pool.search(view, rng, config, self.evaluator, self.simulations, self.seconds)
        start = time.perf_counter()
        tree = new_search(view, view.seat, rng, config)
        tree.run(self.evaluator, simulations=1)  # the root's expansion: one candidate needs no search
        if len(tree.root.actions) > 1:
            if self.seconds is None:
                tree.run(self.evaluator, simulations=self.simulations)
            elif time.perf_counter() - start < self.seconds:
                tree.run(self.evaluator, seconds=self.seconds - (time.perf_counter() - start))
        return int(tree.best_action())

    def config_for(self, view: PlayerView) -> SearchConfig:
        """The search's shape for ``view``'s game: the agent's config, with the game's default rollout
        (its evaluation module's ``SEARCH_ROLLOUT_ROUNDS``: rounds of play before a leaf is valued, the rollout
        running to ``rounds x players`` changes of the player to move, at least the tree's horizon) where the
        config sets none."""
        if self.config.rollout_horizon is not None:
            return self.config
        rounds = search_constant(view.game, "SEARCH_ROLLOUT_ROUNDS")
        horizon = self.config.horizon or view.num_players
        if rounds * view.num_players <= horizon:
            return self.config
        return replace(self.config, rollout_horizon=rounds * view.num_players)

    def close(self) -> None:
        """Stop the root-parallel worker processes (if any were started)."""
        self._pool.close()


def from_spec(arg: str) -> MCTSAgent:
    """``mcts``, ``mcts:N`` simulations or ``mcts:Xs`` seconds per decision, options after ``?``."""
    budget, _, options = arg.partition("?")
    simulations, seconds = _budget(arg, budget)
    values = _options(arg, options)
    config = SearchConfig(c_puct=DEFAULT_C_PUCT)
    if "horizon" in values:
        config = replace(config, horizon=values["horizon"])
    if "rollout" in values:
        try:
            config = replace(config, rollout_horizon=values["rollout"])
        except ValueError as e:
            raise ValueError(f"agent spec 'mcts:{arg}': option rollout: {e}") from None
    if "depth" in values:
        config = replace(config, max_depth=values["depth"])
    if "c" in values:
        config = replace(config, c_puct=values["c"])
    evaluator = HeuristicEvaluator(lookahead_depth=values.get("lookahead", "game"), scale=values.get("scale"))
    return MCTSAgent(simulations, seconds, workers=values.get("workers", 1), config=config, evaluator=evaluator)


def _budget(arg: str, budget: str) -> tuple[int | None, float | None]:
    if not budget:
        return DEFAULT_SIMULATIONS, None
    try:
        return search_budget(budget)
    except ValueError:
        raise ValueError(f"agent spec 'mcts:{arg}': the budget must be a positive number of simulations "
                         f"(mcts:400) or seconds (mcts:2s)") from None


def _options(arg: str, text: str) -> dict[str, int | float]:
    allowed = "; ".join(f"{k} ({v[2]})" for k, v in OPTIONS.items())
    out: dict[str, int | float] = {}
    for item in filter(None, text.split("&")):
        name, eq, raw = item.partition("=")
        if name not in OPTIONS or not eq:
            raise ValueError(f"agent spec 'mcts:{arg}': unknown option {item!r}; options are NAME=VALUE after "
                             f"'?', joined by '&' (mcts:1s?workers=2&horizon=4): {allowed}")
        kind, low, meaning = OPTIONS[name]
        try:
            value = kind(raw)
            if value < low or (kind is float and not (value > low and value < float("inf"))):
                raise ValueError
        except ValueError:
            limit = f"> {low}" if kind is float else f">= {low}"
            raise ValueError(f"agent spec 'mcts:{arg}': option {name} ({meaning}) must be a "
                             f"{'number' if kind is float else 'whole number'} {limit}, got {raw!r}") from None
        if name in out:
            raise ValueError(f"agent spec 'mcts:{arg}': option {name} given twice")
        out[name] = value
    return out
