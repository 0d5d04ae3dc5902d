"""Tried for issue 15's network-with-search target: the shipped network's priors with ``mcts``'s leaf value.

``python benchmarks/az_rollout_leaf.py [--net default] [--budget 0.1s] [--weight 1.0] [--games 50]
[--seed 8000] [--opponent mcts:0.1s] [--rollout 4] [--c 1.5]``

The searcher is the suite's information-set MCTS in ``mcts``'s shape (the heuristic's candidate actions,
a horizon of one round), its priors from the policy-value network and its leaf values from the heuristic's
rollout (the quick policy plays on to ``--rollout`` changes of the player to move from the root, by
default the horizon; ``--rollout 4`` at 2 players is ``mcts``'s two rounds; then each seat's evaluation
margin, squashed: what ``mcts`` scores leaves with); ``--c`` is the PUCT constant (``mcts``'s is 0.5);
``--weight`` below 1 mixes in the network's value (``weight * rollout +
(1 - weight) * network``). ``--budget``: ``0.1s`` seconds or ``32`` simulations per decision. It plays
``--games`` 2-player games against ``--opponent`` in one process, on seeds ``--seed``, ``--seed + 1``, ...
with the seats swapped every game, and prints the searcher's share of wins (ties half) with a 95% Wilson
interval and its simulations per decision. ``--weight 0`` skips the rollout (the network's value alone).
Not an agent spec: with the network shipped before the current one, 52.5% of 200 games against the
one-round ``mcts:0.1s``; with the shipped network and two-round leaves, 47-50% of 50 against the two-round
one (docs/training.md, "Tried: the network's priors with mcts's leaf value").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents import make_agent  # noqa: E402
from agents.az import DEFAULT_NET, LEAF_BATCH, NetEvaluator  # noqa: E402
from agents.az_net import load_net  # noqa: E402
from agents.base import BaseAgent, search_budget  # noqa: E402
from agents.evaluation import evaluation_of  # noqa: E402
from agents.search_eval import HeuristicEvaluator  # noqa: E402
from agents.search_tree import Leaf, Search, SearchConfig  # noqa: E402
from training.play import run_game  # noqa: E402
from training.ratings import wilson_interval  # noqa: E402


class NetRolloutEvaluator(NetEvaluator):
    """The network's priors; values ``weight`` of the heuristic's rollout, the rest the network's."""

    def __init__(self, net: Any, game: Any, weight: float):
        super().__init__(net, game)
        self.weight = weight
        self.heuristic = HeuristicEvaluator()
        self.evaluation = evaluation_of(game)

    def __call__(self, leaves: list[Leaf]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        priors, net_values = super().__call__(leaves)  # encodes each leaf before the rollout plays it on
        if self.weight == 0:  # the network's value alone: no rollout to pay for
            return priors, net_values
        rollout = [np.asarray(self.heuristic.values(self.evaluation, leaf)) for leaf in leaves]
        return priors, [self.weight * r + (1 - self.weight) * v for r, v in zip(rollout, net_values)]


class RolloutLeafSearch(BaseAgent):
    """Network priors, rollout leaves, ``mcts``'s search shape; a budget of seconds or simulations."""

    name = "az-rollout-leaf"

    def __init__(self, net: Any, weight: float, seconds: float | None, simulations: int | None,
                 config: SearchConfig | None = None):
        self.net, self.weight, self.seconds, self.simulations = net, weight, seconds, simulations
        self.config = config or SearchConfig()
        self.evaluator: NetRolloutEvaluator | None = None
        self.simulation_counts: list[int] = []

    def act(self, view: Any, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if self.evaluator is None or self.evaluator.game is not view.game:
            self.evaluator = NetRolloutEvaluator(self.net, view.game, self.weight)
        tree = Search(view, view.seat, rng, self.config)
        tree.run(self.evaluator, seconds=self.seconds, simulations=self.simulations, batch=LEAF_BATCH)
        self.simulation_counts.append(tree.simulations)
        return int(tree.best_action())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--net", default="default", help="a policy-value file, or 'default' (the shipped one)")
    p.add_argument("--budget", default="0.1s", help="seconds ('0.1s') or simulations ('32') per decision")
    p.add_argument("--weight", type=float, default=1.0, help="the rollout's share of the leaf value, 0-1")
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seed", type=int, default=8000)
    p.add_argument("--opponent", default="mcts:0.1s")
    p.add_argument("--rollout", type=int, default=None,
                   help="changes of the player to move after which leaves are valued (default: the horizon, one round)")
    p.add_argument("--c", type=float, default=1.5, help="the PUCT exploration constant")
    args = p.parse_args(argv)
    if not 0 <= args.weight <= 1 or args.games < 1:
        p.error("--weight must be in [0, 1] and --games at least 1")
    torch.set_num_threads(1)
    net, _, _ = load_net(DEFAULT_NET if args.net == "default" else args.net)
    try:
        simulations, seconds = search_budget(args.budget)
    except ValueError:
        p.error(f"--budget must be seconds ('0.1s') or simulations ('32') per decision, above 0; "
                f"got {args.budget!r}")
    config = SearchConfig(c_puct=args.c, rollout_horizon=args.rollout)
    searcher = RolloutLeafSearch(net, args.weight, seconds, simulations, config)
    score, start = 0.0, time.time()
    for i in range(args.games):
        me = i % 2
        seats = [searcher, make_agent(args.opponent)]
        state = run_game(seats if me == 0 else seats[::-1], seed=args.seed + i)
        r = state.returns()
        score += 1.0 if r[me] > r[1 - me] else 0.5 if r[me] == r[1 - me] else 0.0
    lo, hi = wilson_interval(score, args.games)
    counts = searcher.simulation_counts
    print(f"net priors + rollout leaves (weight {args.weight}, rollout {args.rollout}, c {args.c}), "
          f"{args.budget} per decision, against "
          f"{args.opponent}: {score:g} of {args.games} = {score / args.games:.1%} (95% CI {lo:.1%}-{hi:.1%}); "
          f"seeds {args.seed}-{args.seed + args.games - 1}; simulations per decision median "
          f"{np.median(counts):.0f}, mean {np.mean(counts):.0f}; {time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
