"""Self-play PPO on Ray RLlib: the same game, scaled out over a Ray cluster (``pip install 'mk-env[rllib]'``).

The PettingZoo AEC env in its ``"rllib"`` observation style (``mk_env.raw_env(observation="rllib")``:
the observation arrays in one float32 vector beside a float32 action mask, the keys RLlib's
action-masking module expects: ``{"observations", "action_mask"}``) goes through RLlib's
``PettingZooEnv``. Two modules,
both RLlib's ``ActionMaskingTorchRLModule`` (the masked logits never pick an illegal action):

* ``main``, the learner, plays one seat per episode (drawn from the episode id);
* ``frozen`` plays every other seat: a copy of ``main`` refreshed every ``sync_every`` iterations
  (until the first refresh it is the untrained initial network).

Runs on local Ray by default; ``address="auto"`` or ``"ray://host:10001"`` joins a cluster, and
``num_env_runners`` spreads the games over its workers. Command line: ``mk-env train --backend rllib
[--iterations I] [--envs RUNNERS] [--address ADDR] [--out DIR]`` or
``python -m training.rllib_train --iterations 2``.

Ray pins its own gymnasium; mk_env keeps a wide gymnasium range, so install the ``[rllib]`` extra in
its own virtual environment when the main one must keep a newer gymnasium.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ENV_NAME = "mountain_king_rllib"
MAIN, FROZEN = "main", "frozen"


def make_rllib_env(config: dict[str, Any] | None = None):
    """RLlib's ``PettingZooEnv`` around the AEC env in its ``"rllib"`` observation style
    (``config``: raw_env kwargs)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from mk_env.mountain_king.env import raw_env
    config = dict(config or {})
    players = int(config.pop("num_players", 2))
    config.setdefault("strict", False)  # RLlib's env check steps unmasked random actions
    config.setdefault("observation", "rllib")
    return PettingZooEnv(raw_env(players, **config))


def learner_seat(episode_id: Any, players: int) -> int:
    """The seat ``main`` plays in an episode (stable within the episode)."""
    return hash(str(episode_id)) % players


def _callbacks(sync_every: int):
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class FrozenSync(RLlibCallback):
        """Copies ``main`` into ``frozen`` every ``sync_every`` iterations."""

        def on_train_result(self, *, algorithm, result, **kwargs) -> None:
            if algorithm.iteration % sync_every:
                return
            state = algorithm.get_module(MAIN).get_state()
            algorithm.set_state({"learner_group": {"learner": {"rl_module": {FROZEN: state}}}})
            algorithm.env_runner_group.sync_weights(
                from_worker_or_learner_group=algorithm.learner_group, policies=[FROZEN],
                inference_only=True)
            result["frozen_synced_at"] = algorithm.iteration

    return FrozenSync


def build_config(players: int = 2, reward: str = "dense", num_env_runners: int = 0,
                 train_batch: int = 2000, minibatch: int = 256, epochs: int = 4,
                 hidden: tuple[int, ...] = (128,), lr: float = 3e-4, sync_every: int = 5,
                 seed: int = 0, game_options: dict[str, Any] | None = None):
    """The RLlib ``PPOConfig`` of the self-play run."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_rllib_env)

    def mapping(agent_id, episode, **kwargs):
        seat = int(str(agent_id).rsplit("_", 1)[1])
        return MAIN if seat == learner_seat(episode.id_, players) else FROZEN

    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": []})
    env_config = {"num_players": players, "reward": reward, **(game_options or {})}
    return (PPOConfig()
            .environment(ENV_NAME, env_config=env_config)
            .framework("torch")
            .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=1)
            .multi_agent(policies={MAIN, FROZEN}, policy_mapping_fn=mapping,
                         policies_to_train=[MAIN])
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MAIN: module,
                                                                         FROZEN: module}))
            .training(train_batch_size_per_learner=train_batch, minibatch_size=minibatch,
                      num_epochs=epochs, lr=lr)
            .callbacks(_callbacks(sync_every))
            .debugging(seed=seed))


def train_rllib(players: int = 2, iterations: int = 10, out: str | Path | None = "runs/rllib",
                address: str | None = None, seed: int = 0, reward: str = "dense",
                num_env_runners: int = 0, train_batch: int = 2000, minibatch: int = 256,
                epochs: int = 4, sync_every: int = 5, hidden: tuple[int, ...] = (128,),
                game_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run ``iterations`` RLlib PPO iterations; a summary (steps sampled, returns, checkpoint path)."""
    try:
        import ray
    except ImportError:
        raise ImportError("the rllib backend needs Ray RLlib: pip install 'mk-env[rllib]' (in its own "
                          "virtual environment: ray pins its own gymnasium)") from None
    if not 2 <= players <= 5:
        raise ValueError(f"--players {players}: the game is for 2 to 5 players")
    if iterations < 1:
        raise ValueError(f"--iterations {iterations}: need at least 1")
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 **({} if address else {"num_cpus": max(1, num_env_runners + 1)}))
    try:
        config = build_config(players, reward, num_env_runners, train_batch, minibatch, epochs,
                              hidden, sync_every=sync_every, seed=seed, game_options=game_options)
        algo = config.build_algo()
        history = []
        for _ in range(iterations):
            result = algo.train()
            history.append(_summary(result))
            print(json.dumps(history[-1]), flush=True)
        checkpoint = None
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            checkpoint = str(Path(out).resolve() / "checkpoint")
            algo.save_to_path(checkpoint)
        algo.stop()
    finally:
        if started:
            ray.shutdown()
    return {"iterations": iterations, "history": history, "checkpoint": checkpoint}


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    runners = result.get("env_runners", {})
    returns = runners.get("module_episode_returns_mean", {})
    return {"iteration": result.get("training_iteration"),
            "env_steps": runners.get("num_env_steps_sampled_lifetime"),
            "episodes": runners.get("num_episodes_lifetime"),
            "return_main": returns.get(MAIN), "return_frozen": returns.get(FROZEN)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.rllib_train",
                                description="Self-play PPO on Ray RLlib (local Ray or --address).")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--env-runners", type=int, default=0, help="remote env runners (0: in the driver)")
    p.add_argument("--train-batch", type=int, default=2000)
    p.add_argument("--address", default=None, help="Ray cluster address (default: local Ray)")
    p.add_argument("--out", default="runs/rllib")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    try:
        result = train_rllib(args.players, args.iterations, args.out, args.address, args.seed,
                             num_env_runners=args.env_runners, train_batch=args.train_batch)
    except (ValueError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps({k: v for k, v in result.items() if k != "history"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
