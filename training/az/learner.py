"""Training the policy-value network on replayed positions, and the warm start from an agent's play.

Loss per position: cross-entropy between the search's visit distribution and the network's priors over
the same legal actions, plus the squared error between the network's values and the game's returns (every
seat, egocentric). Adam with L2 weight decay; gradients clipped to norm 1.

Warm start (:func:`warm_positions`): before any search, games of a fixed agent (``heuristic`` by
default, any spec) give positions whose policy target is the agent's choice (one-hot) and whose value
target is the outcome, so the first self-play searches are guided by a network that already plays like
the agent (distillation) rather than by uniform priors. An ``mcts:N`` agent (a simulation budget) is
distilled from its search itself: the target is its root's visit distribution over the legal actions
(zero for actions its candidates left out), and it plays its own choice.
"""

from __future__ import annotations

import functools
import multiprocessing
from typing import Any, Callable

import numpy as np
import torch

from agents.az_net import PolicyValueNet, SparseBatch, adam, egocentric, observer_of, pad_legal
from agents.registry import make_agent
from mk_env.core.view import PlayerView
from training.play import agent_rng

from .buffer import Position, ReplayBuffer

GRAD_CLIP = 1.0
WEIGHT_DECAY = 1e-4


def make_optimizer(net: PolicyValueNet, lr: float) -> torch.optim.Adam:
    return adam(net.parameters(), lr=lr, weight_decay=WEIGHT_DECAY)


def set_lr(optimizer: torch.optim.Optimizer, lr: float) -> None:
    for group in optimizer.param_groups:
        group["lr"] = lr


def train_steps(net: PolicyValueNet, optimizer: torch.optim.Optimizer, buffer: ReplayBuffer, steps: int,
                batch: int, rng: np.random.Generator) -> dict[str, float]:
    """``steps`` gradient steps on batches of ``batch`` positions; the mean losses."""
    net.train()
    totals = {"policy_loss": 0.0, "value_loss": 0.0}
    for _ in range(steps):
        obs, legal, policy, outcome = buffer.sample(batch, rng)
        legal_t, valid = pad_legal(legal)
        target = torch.zeros(valid.shape)
        for row, pi in enumerate(policy):
            target[row, :len(pi)] = torch.from_numpy(pi)
        logits, values = net(SparseBatch.from_rows(obs), legal_t, valid)
        logp = torch.log_softmax(logits, dim=1).masked_fill(~valid, 0.0)
        policy_loss = -(target * logp).sum(1).mean()
        value_loss = ((values - torch.from_numpy(outcome)) ** 2).mean()
        optimizer.zero_grad()
        (policy_loss + value_loss).backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), GRAD_CLIP)
        optimizer.step()
        totals["policy_loss"] += policy_loss.item()
        totals["value_loss"] += value_loss.item()
    net.eval()
    return {k: v / max(1, steps) for k, v in totals.items()}


def seated_agents(spec: str, n: int, seed: int) -> tuple[list[Any], list[np.random.Generator]]:
    """``n`` fresh agents of ``spec``, reset for their seats, and each seat's generator for game ``seed``."""
    agents = [make_agent(spec) for _ in range(n)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, n)
    return agents, [agent_rng(seed, seat) for seat in range(n)]


def over_processes(play: Callable[..., list[Any]], games: int, workers: int = 1) -> list[Any]:
    """``play(games=range(a, b))`` over consecutive shares of ``range(games)``, one share per process
    (``workers`` spawned processes; 1: in this one), joined in order: the same list for any ``workers``
    when game ``g`` depends only on ``g``. ``play`` must pickle (a module-level function or its partial)."""
    bounds = np.linspace(0, games, max(1, workers) + 1).astype(int)
    shares = [range(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    if workers <= 1 or len(shares) < 2:
        return [item for share in shares for item in play(games=share)]
    with multiprocessing.get_context("spawn").Pool(len(shares)) as pool:
        parts = pool.map(_call_with_games, [(play, share) for share in shares])
    return [item for part in parts for item in part]


def _call_with_games(job: tuple[Callable[..., list[Any]], range]) -> list[Any]:
    play, share = job
    torch.set_num_threads(1)
    return play(games=share)


def warm_positions(game: Any, spec: str, games: int, seed: int, workers: int = 1) -> list[Position]:
    """Positions of ``games`` games of agent ``spec`` in every seat: its choice as a one-hot target (game
    ``g`` dealt with ``seed + g``; ``workers`` processes play shares of the games, the same positions)."""
    return over_processes(functools.partial(_warm_games, game, spec, seed=seed), games, workers)


def _warm_games(game: Any, spec: str, games: range, seed: int) -> list[Position]:
    """:func:`warm_positions` of the games ``games``."""
    observer = observer_of(game)
    out: list[Position] = []
    n = game.num_players
    for g in games:
        agents, rngs = seated_agents(spec, n, seed + g)
        state = game.new_initial_state(seed + g)
        history = []
        while not state.is_terminal():
            p = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1 and _searches(agents[p]):
                action, target = _search_target(agents[p], PlayerView(state, p), rngs[p], legal)
            else:
                action = int(agents[p].act(PlayerView(state, p), rngs[p]))
                target = (legal == action).astype(float)
            if len(legal) > 1:
                history.append((p, observer.encode_flat(state, p).copy(), legal, target))
            state.apply(action)
        outcome = np.asarray(state.returns(), np.float32)
        out += [Position.make(obs, legal, pi, egocentric(outcome, p)) for p, obs, legal, pi in history]
    return out


def _searches(agent: Any) -> bool:
    """Whether ``agent`` is the ``mcts`` agent with a simulation budget (its visits can be read)."""
    from agents.mcts import MCTSAgent
    return isinstance(agent, MCTSAgent) and agent.simulations is not None and agent.workers == 1


def _search_target(agent: Any, view: PlayerView, rng: np.random.Generator, legal: np.ndarray
                   ) -> tuple[int, np.ndarray]:
    """The ``mcts`` agent's search at ``view``: (its choice, its root visits spread over ``legal``)."""
    from agents.search_native import new_search
    tree = new_search(view, view.seat, rng, agent.config)
    tree.run(agent.evaluator, simulations=agent.simulations)
    actions, visits = tree.root_visits()
    target = np.zeros(len(legal))
    where = {int(a): i for i, a in enumerate(legal)}
    for a, n in zip(actions, visits):
        target[where[int(a)]] += n
    if target.sum() <= 0:  # a single candidate: its one action
        target[where[int(actions[0])]] = 1.0
    return int(tree.best_action()), target / target.sum()
