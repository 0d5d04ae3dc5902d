"""Imitation warm start of a new training run (``mk-env train --imitate AGENT:DECISIONS``): the
decisions of an agent playing every seat, cloned into the policy by masked cross-entropy."""

from __future__ import annotations

from typing import Any

import numpy as np

from mk_env.games import DEFAULT_GAME, game_entry, load


def collect_decisions(spec: str, decisions: int, players: int = 2, seed: int = 0,
                      game_options: dict[str, Any] | None = None,
                      game: str = DEFAULT_GAME) -> tuple[dict, np.ndarray, np.ndarray]:
    """``decisions`` (observation, mask, action) triples of agent ``spec`` playing every seat of ``game``."""
    from agents import make_agent
    from mk_env.core.view import PlayerView
    raw_env = load(game_entry(game).env).raw_env
    env, agent, rng = raw_env(players, **(game_options or {})), make_agent(spec), np.random.default_rng(seed)
    obs_rows: list[dict] = []
    masks, actions, game = [], [], 0
    while len(actions) < decisions:
        env.reset(seed=seed + game)
        game += 1
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = PlayerView(env.game_state, env.possible_agents.index(name))
            action = int(agent.act(view, rng))
            obs_rows.append({k: v.astype(np.float16) for k, v in obs["observation"].items()})
            masks.append(np.packbits(obs["action_mask"].astype(bool)))
            actions.append(action)
            env.step(action)
    observations = {k: np.stack([o[k] for o in obs_rows]) for k in obs_rows[0]}
    return observations, np.stack(masks), np.array(actions)


def imitate(model: Any, spec: str, decisions: int, epochs: int = 4, batch_size: int = 128,
            seed: int = 0, game_options: dict[str, Any] | None = None, lr: float = 1e-3,
            game: str = DEFAULT_GAME) -> float:
    """Warm-start the policy by behaviour cloning of agent ``spec`` (masked cross-entropy, Adam at
    ``lr``, a fresh optimizer state for PPO after); the last epoch's mean loss. The value head is
    left to PPO."""
    import torch
    obs, masks, actions = collect_decisions(spec, decisions, _players(model), seed, game_options, game)
    n_actions = model.action_space.n
    policy, rng = model.policy, np.random.default_rng(seed)
    ppo_optimizer = policy.optimizer
    policy.optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    loss_mean = float("nan")
    for _ in range(epochs):
        losses = []
        for idx in np.array_split(rng.permutation(len(actions)), max(1, len(actions) // batch_size)):
            batch = {k: torch.as_tensor(v[idx], dtype=torch.float32) for k, v in obs.items()}
            mask = np.unpackbits(masks[idx], axis=1, count=n_actions).astype(bool)
            dist = policy.get_distribution(batch, action_masks=mask)
            loss = -dist.log_prob(torch.as_tensor(actions[idx])).mean()
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            policy.optimizer.step()
            losses.append(float(loss.detach()))
        loss_mean = float(np.mean(losses))
    policy.optimizer = ppo_optimizer
    return loss_mean


def _players(model: Any) -> int:
    return int(model.observation_space["players"].shape[0])
