"""A lean PPO learner for the factorised policy (:mod:`agents.factorised_policy`), in one process.

:class:`FastPPO` collects a rollout of ``n_steps`` decisions in each of the ``envs`` games of a
:class:`~training.fast_ppo_env.VecGames` (one batched forward of the learner per step for all games;
the opponents batched inside the games), computes advantages by GAE(lambda), and runs ``n_epochs``
of clipped PPO over minibatches of ``batch_size`` (the value loss unclipped, the entropy bonus exact
under the mask, gradients clipped to ``max_grad_norm``, Adam). The rollout keeps observations in
float16 (the observation is 0/1 in all but a few counters) and masks bit-packed, so 2,048 decisions
of the two-player game take about 60 MB.

:func:`imitate` warm-starts the policy by cloning an agent's decisions (masked cross-entropy through
the factorised head's exact log-probabilities), as ``mk-env train --imitate`` does for MaskablePPO.
The run around it (settings, snapshots, checkpoints, evaluation, resume, stopping) is
:mod:`training.fast_ppo_run`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from mk_env.games import DEFAULT_GAME

from .fast_ppo_env import VecGames

#: PPO's settings of a run and their defaults (the names of agents.policy_description.HYPERPARAMETERS)
PPO_DEFAULTS: dict[str, Any] = dict(n_steps=64, batch_size=512, n_epochs=2, learning_rate=3e-4,
                                    ent_coef=0.01, gamma=0.995, gae_lambda=0.95, clip_range=0.2,
                                    vf_coef=0.5, max_grad_norm=0.5)


class Rollout:
    """Learner decisions, each finished (its reward known: at the learner's next decision in that game,
    or at the game's end): observations (float16), bit-packed masks, the blocks legal in each, actions,
    their log-probabilities and values at collection, rewards, dones, the value of the next decision,
    and the game each came from (in the order they were made, within each game)."""

    FIELDS = ("obs", "masks", "legal", "actions", "log_probs", "values")

    def __init__(self, capacity: int, size: int, n_actions: int, n_blocks: int):
        self.obs = np.zeros((capacity, size), np.float16)
        self.masks = np.zeros((capacity, (n_actions + 7) // 8), np.uint8)
        self.legal = np.zeros((capacity, n_blocks), bool)
        self.actions = np.zeros(capacity, np.int64)
        self.log_probs, self.values = np.zeros(capacity, np.float32), np.zeros(capacity, np.float32)
        self.rewards, self.next_values = np.zeros(capacity, np.float32), np.zeros(capacity, np.float32)
        self.dones, self.games = np.zeros(capacity, bool), np.zeros(capacity, np.int64)
        self.n_actions, self.count = n_actions, 0
        self.advantages = self.returns = np.zeros(0, np.float32)

    def add(self, pending: "Rollout", games: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
            next_values: np.ndarray) -> None:
        """Finish the decisions of ``pending`` (one row per game, rows ``games``) with their rewards."""
        lo, hi = self.count, self.count + len(games)
        for name in self.FIELDS:
            getattr(self, name)[lo:hi] = getattr(pending, name)[games]
        self.rewards[lo:hi], self.dones[lo:hi], self.next_values[lo:hi] = rewards, dones, next_values
        self.games[lo:hi], self.count = games, hi

    def finish(self, gamma: float, lam: float) -> None:
        """GAE(lambda) advantages and returns, game by game; a game's last decision in the rollout
        bootstraps on the value of its next decision (known: it was made when this one finished)."""
        n = self.count
        delta = self.rewards[:n] + gamma * self.next_values[:n] * ~self.dones[:n] - self.values[:n]
        adv = np.zeros(n, np.float32)
        running: dict[int, float] = {}
        for t in range(n - 1, -1, -1):
            g = int(self.games[t])
            carry = 0.0 if self.dones[t] else running.get(g, 0.0)
            adv[t] = running[g] = delta[t] + gamma * lam * carry
        self.advantages, self.returns = adv, adv + self.values[:n]

    def batch(self, index: np.ndarray) -> dict[str, Any]:
        """Rows ``index`` as torch tensors (observations float32; masks and legal blocks numpy bool)."""
        return {"obs": torch.from_numpy(self.obs[index].astype(np.float32)),
                "mask": np.unpackbits(self.masks[index], axis=1, count=self.n_actions).astype(bool),
                "legal": self.legal[index], "actions": torch.from_numpy(self.actions[index]),
                "log_probs": torch.from_numpy(self.log_probs[index]),
                "advantages": torch.from_numpy(self.advantages[index]),
                "returns": torch.from_numpy(self.returns[index])}


class FastPPO:
    """PPO on ``policy`` (a :class:`~agents.factorised_policy.FactorisedPolicy`) with ``settings``
    (:data:`PPO_DEFAULTS`' names); ``num_timesteps`` counts learner decisions trained on."""

    def __init__(self, policy: Any, settings: dict[str, Any], seed: int = 0):
        self.policy, self.settings = policy, {**PPO_DEFAULTS, **settings}
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=self.settings["learning_rate"], eps=1e-5)
        self.generator = torch.Generator().manual_seed(seed)
        self.num_timesteps = 0
        self.n_updates = 0
        self._pending: Rollout | None = None  # each game's last learner decision, its reward not yet known
        self._has_pending = np.zeros(0, bool)

    def set_learning_rate(self, lr: float) -> None:
        self.settings["learning_rate"] = lr
        for group in self.optimizer.param_groups:
            group["lr"] = lr

    def collect(self, games: VecGames, stop: Any = None) -> Rollout | None:
        """A rollout of at least ``n_steps`` x ``games.n`` finished learner decisions (sampled), in
        ticks (:class:`VecGames`); ``None`` when ``stop`` (a :class:`~training.stopping.StopRequest`)
        was signalled during it. A decision whose reward is not known at the end waits for the next
        rollout."""
        head, target = self.policy.head, self.settings["n_steps"] * games.n
        out = Rollout(target + games.n, games.size, games.n_actions, len(head.sizes))
        if self._pending is None or len(self._has_pending) != games.n:
            self._pending = Rollout(games.n, games.size, games.n_actions, len(head.sizes))
            self._has_pending = np.zeros(games.n, bool)
        pending, has = self._pending, self._has_pending
        self.policy.eval()
        while out.count < target:
            ready, rewards, ended = games.poll()
            for i, last in ended:
                if has[i]:
                    out.add(pending, np.array([i]), np.array([last]), np.array([True]), np.zeros(1))
                    has[i] = False
            if len(ready):
                obs, mask = games.observe(ready)
                legal = head.block_legal(mask)
                with torch.inference_mode():
                    h, value = self.policy(torch.from_numpy(obs))
                    actions, log_p = head.sample(h, mask, generator=self.generator, legal=legal)
                value, actions = value.numpy(), actions.numpy()
                waiting = has[ready]
                out.add(pending, ready[waiting], rewards[waiting], np.zeros(int(waiting.sum()), bool),
                        value[waiting])
                pending.obs[ready], pending.masks[ready] = obs, np.packbits(mask, axis=1)
                pending.legal[ready], pending.actions[ready] = legal, actions
                pending.log_probs[ready], pending.values[ready] = log_p.numpy(), value
                has[ready] = True
                games.apply(ready, actions)
            games.opponents_move()
            if stop is not None and stop.signum is not None:
                return None
        out.finish(self.settings["gamma"], self.settings["gae_lambda"])
        return out

    def update(self, rollout: Rollout) -> dict[str, float]:
        """``n_epochs`` of clipped PPO over the rollout; mean losses and diagnostics."""
        s = self.settings
        self.policy.train()
        n = rollout.count
        rng = np.random.default_rng(int(torch.randint(2 ** 31, (1,), generator=self.generator)))
        stats: dict[str, list[float]] = {k: [] for k in ("policy_loss", "value_loss", "entropy",
                                                         "approx_kl", "clip_fraction")}
        for _ in range(s["n_epochs"]):
            order = rng.permutation(n)
            for lo in range(0, n, s["batch_size"]):
                b = rollout.batch(order[lo:lo + s["batch_size"]])
                h, value = self.policy(b["obs"])
                want_entropy = s["ent_coef"] > 0 or not stats["entropy"]
                log_p, entropy = self.policy.head.evaluate(h, b["mask"], b["actions"],
                                                           entropy=want_entropy, legal=b["legal"])
                adv = b["advantages"]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(adv) > 1 else adv
                ratio = (log_p - b["log_probs"]).exp()
                clipped = ratio.clamp(1 - s["clip_range"], 1 + s["clip_range"])
                policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
                value_loss = F.mse_loss(value, b["returns"])
                loss = policy_loss + s["vf_coef"] * value_loss
                if want_entropy:
                    loss = loss - s["ent_coef"] * entropy.mean()
                    stats["entropy"].append(float(entropy.mean().detach()))
                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), s["max_grad_norm"])
                self.optimizer.step()
                with torch.no_grad():
                    diff = log_p - b["log_probs"]
                    stats["approx_kl"].append(float(((diff.exp() - 1) - diff).mean()))
                    stats["clip_fraction"].append(float(((ratio - 1).abs() > s["clip_range"]).float().mean()))
                stats["policy_loss"].append(float(policy_loss.detach()))
                stats["value_loss"].append(float(value_loss.detach()))
            self.n_updates += 1
        self.num_timesteps += n
        returns, values = rollout.returns, rollout.values[:n]
        explained = 1 - np.var(returns - values) / (np.var(returns) + 1e-8)
        return {**{k: float(np.mean(v)) for k, v in stats.items() if v},
                "explained_variance": float(explained)}


def imitate(policy: Any, spec: str, decisions: int, epochs: int = 4, batch_size: int = 128,
            seed: int = 0, game_options: dict[str, Any] | None = None, players: int = 2,
            lr: float = 1e-3, game: str = DEFAULT_GAME) -> float:
    """Clone ``decisions`` decisions of agent ``spec`` (playing every seat of ``game``) into
    ``policy`` by masked cross-entropy (Adam at ``lr``, its own optimizer); the last epoch's mean
    loss. The value head is left to PPO."""
    from .imitation import collect_decisions
    obs, masks, actions = collect_decisions(spec, decisions, players, seed, game_options, game)
    flat = np.concatenate([obs[k].reshape(len(actions), -1) for k in policy.features.keys], axis=1)
    n_actions, rng = policy.head.n_actions, np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    policy.train()
    loss_mean = float("nan")
    for _ in range(epochs):
        losses = []
        for idx in np.array_split(rng.permutation(len(actions)), max(1, len(actions) // batch_size)):
            h, _ = policy(torch.from_numpy(flat[idx].astype(np.float32)))
            mask = np.unpackbits(masks[idx], axis=1, count=n_actions).astype(bool)
            loss = -policy.head.log_prob(h, mask, torch.from_numpy(actions[idx])).mean()
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            losses.append(float(loss.detach()))
        loss_mean = float(np.mean(losses))
    return loss_mean
