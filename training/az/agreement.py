"""How often a policy-value network's greedy choice is the teacher agent's, by kind of decision.

A diagnostic for the warm start of ``mk-env train --algo az`` (which clones a teacher's choices): it
plays fresh games of the teacher in every seat (seeds ``--seed`` on; by default 900000 on, apart from
the warm start's, which are the run's seed + 1,000,000 on) and, at
every decision with more than one legal action, asks the network for its greedy choice. The kind of a
decision is the first word of the teacher's action as ``describe_action`` names it (``recruit``,
``dig``, ``cast``, ``pass``...); any game of the suite the network was trained on::

    python -m training.az.agreement runs/az/best.safetensors --games 8
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import torch

from agents.az import AZNetAgent
from agents.policy_description import ModelFileError
from agents.registry import make_agent
from mk_env.core.view import PlayerView
from training.play import make_game

from .learner import seated_agents


@dataclass
class Agreement:
    """Decisions seen and decisions where the network chose as the teacher did, by kind."""

    seen: Counter = field(default_factory=Counter)
    agreed: Counter = field(default_factory=Counter)

    def add(self, kind: str, same: bool) -> None:
        self.seen[kind] += 1
        self.agreed[kind] += int(same)

    @property
    def rate(self) -> float:
        """The share of all decisions where the two agreed (0.0 before any)."""
        total = sum(self.seen.values())
        return sum(self.agreed.values()) / total if total else 0.0

    def table(self) -> str:
        """One line overall, then one per kind, most frequent first."""
        lines = [f"agreement {self.rate:.3f} over {sum(self.seen.values())} decisions"]
        lines += [f"  {kind:14s} {self.agreed[kind] / n:.3f} of {n}" for kind, n in self.seen.most_common()]
        return "\n".join(lines)


def measure(network: AZNetAgent, game: Any, teacher: str = "heuristic", games: int = 8, seed: int = 900_000
            ) -> Agreement:
    """Play ``games`` games of ``teacher`` in every seat; compare the choice of ``network`` (the
    ``aznet:PATH`` agent) with the teacher's at each decision with more than one legal action."""
    n, out = game.num_players, Agreement()
    for g in range(games):
        agents, rngs = seated_agents(teacher, n, seed + g)
        state = game.new_initial_state(seed + g)
        while not state.is_terminal():
            p, view = state.current_player(), PlayerView(state, state.current_player())
            action = int(agents[p].act(view, rngs[p]))
            if len(state.legal_actions()) > 1:
                out.add(state.describe_action(action).split()[0], network.act(view, rngs[p]) == action)
            state.apply(action)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m training.az.agreement", description=__doc__.split("\n\n")[0])
    ap.add_argument("net", help="a policy-value model file (best.safetensors of an az run)")
    ap.add_argument("--teacher", default="heuristic", help="the agent spec compared with (default heuristic)")
    ap.add_argument("--games", type=int, default=8, help="games of the teacher (default 8)")
    ap.add_argument("--seed", type=int, default=900_000, help="first game's seed (default 900000)")
    args = ap.parse_args(argv)
    if args.games < 1:
        raise SystemExit("agreement: --games must be >= 1")
    torch.set_num_threads(1)
    try:
        make_agent(args.teacher)
        network = AZNetAgent(args.net)
    except (ModelFileError, ValueError) as e:
        raise SystemExit(f"agreement: {e}") from None
    config = network.config
    game = make_game(int(config["players"]), config.get("game_options") or {}, config["game"])
    print(measure(network, game, args.teacher, args.games, args.seed).table())


if __name__ == "__main__":
    main()
