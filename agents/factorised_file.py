"""Model files of the factorised policy (:class:`agents.factorised_policy.FactorisedPolicy`).

The same safe format as every model file (:mod:`agents.policy_file`: one ``.safetensors`` file, the
weights as raw tensors under ``policy/``, Adam's moments under ``optimizer/`` in checkpoints, and the
``mk_env`` JSON description), with ``"policy": "FactorisedPolicy"`` and ``"algorithm": "ppo"``. The
description names the network by its sizes only (``policy_kwargs``: the keyword numbers of
:class:`~agents.factorised_policy.ObservationFeatures`); the observation's slices and the action
blocks are rebuilt from the file's game, whose layout fingerprint must match this mk_env's. Loading
runs no code from the file: :func:`agents.policy_file.load_policy` (so ``ppo:PATH``, the gauntlet and
the opponent pool) hands such a file to :func:`load_factorised`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mk_env.games import DEFAULT_GAME

from .policy_description import (HYPERPARAMETERS, ModelFileError, _is_size, check_hyperparameters,
                                 config_game, env_module, game_spaces, make_suite_game, spaces_to_json)

FACTORISED = "FactorisedPolicy"
ALGORITHM = "ppo"
#: the keyword numbers of ObservationFeatures a file may set
FEATURE_KWARGS = ("board_channels", "board_dim", "rest_dim", "features_dim")


def build_policy(game: str, players: int, game_options: dict[str, Any] | None = None,
                 **features_kwargs: int) -> Any:
    """A fresh :class:`FactorisedPolicy` for the single-seat view of a game configuration."""
    from .factorised_policy import FactorisedPolicy, block_sizes
    built = make_suite_game(game, players, game_options)
    observer = env_module(game).raw_env.observer_class(built)
    return FactorisedPolicy(observer.slices, block_sizes(built.layout), **features_kwargs)


def save_factorised(policy: Any, path: str | Path, players: int, game_options: dict[str, Any] | None,
                    game: str = DEFAULT_GAME, num_timesteps: int = 0, n_updates: int = 0,
                    hyperparameters: dict[str, Any] | None = None, optimizer: Any = None,
                    training: dict[str, Any] | None = None) -> Path:
    """Write ``policy`` to ``path`` atomically (``optimizer``: also its Adam moments, for
    ``--resume``; ``training``: the run's settings, JSON)."""
    from .model_format import FORMAT, FORMAT_VERSION, unique_state, write_model_file
    options = dict(game_options or {})
    observation, action = spaces_to_json(*game_spaces(players, options, game))
    if action["n"] != policy.head.n_actions or observation_size(observation) != policy.features.size:
        raise ModelFileError(f"the policy's sizes ({policy.features.size} observation numbers, "
                             f"{policy.head.n_actions} actions) are not those of a {players}-player "
                             f"game of {game} with options {options}")
    module = env_module(game)
    hyper = {k: v for k, v in (hyperparameters or {}).items() if k in HYPERPARAMETERS}
    config = {"format": FORMAT, "format_version": FORMAT_VERSION, "env": module.ENV_NAME,
              "layout_fingerprint": module.layout_fingerprint(make_suite_game(game, players, options)),
              "game": game, "players": int(players), "game_options": options, "algorithm": ALGORITHM,
              "policy": FACTORISED, "policy_kwargs": dict(policy.features_kwargs),
              "observation_space": observation, "action_space": action, "hyperparameters": hyper,
              "num_timesteps": int(num_timesteps), "n_updates": int(n_updates), "optimizer": None,
              "training": training}
    tensors = {f"policy/{k}": v for k, v in unique_state(policy).items()}
    return write_model_file(path, tensors, config, optimizer)


def observation_size(described: dict[str, Any]) -> int:
    """The number of floats of an observation space described as JSON."""
    total = 0
    for box in described.values():
        size = 1
        for d in box["shape"]:
            size *= int(d)
        total += size
    return total


def features_kwargs(config: dict[str, Any], path: str | Path) -> dict[str, int]:
    """The file's network sizes, checked: known names, whole numbers from 1 to the loader's bound."""
    described = config["policy_kwargs"]
    for key, value in described.items():
        if key not in FEATURE_KWARGS or not _is_size(value):
            raise ModelFileError(f"{path}: policy_kwargs {key!r}={value!r} is not allowed; allowed: "
                                 f"{', '.join(FEATURE_KWARGS)}, each a whole number from 1 to 1024")
    return dict(described)


def load_factorised(path: str | Path, config: dict[str, Any] | None = None) -> Any:
    """The policy of a factorised model file, in evaluation mode. ``config``: its description when
    already read and its layout checked (:func:`agents.policy_file.load_policy` does both)."""
    from .model_format import _read_tensors, check_layout, read_config
    if config is None:
        config = read_config(path)
        check_layout(config, path)
    if config["policy"] != FACTORISED:
        raise ModelFileError(f"{path} holds a {config['policy']} policy, not a {FACTORISED} "
                             f"(mk-env train --algo {ALGORITHM} writes those)")
    check_hyperparameters(dict(config["hyperparameters"]), path)
    try:
        policy = build_policy(config_game(config), config["players"], config["game_options"],
                              **features_kwargs(config, path))
    except (TypeError, ValueError, RuntimeError) as e:
        raise ModelFileError(f"{path}: the policy described cannot be built: {type(e).__name__}: {e}") from None
    _load_weights(policy, _read_tensors(path), path)
    policy.set_training_mode(False)
    return policy


def load_optimizer_state(path: str | Path, optimizer: Any) -> bool:
    """Load the Adam moments of checkpoint ``path`` into ``optimizer`` (an Adam over the policy's
    parameters, in order); whether the file had any."""
    from .model_format import _load_optimizer, _read_tensors, read_config
    described = read_config(path).get("optimizer")
    if not described:
        return False
    _load_optimizer(optimizer, described, _read_tensors(path), path)
    return True


def _load_weights(policy: Any, tensors: dict[str, Any], path: str | Path) -> None:
    """Every weight of the policy from ``policy/`` tensors of the same shapes, nothing else."""
    weights = {k.split("/", 1)[1]: v for k, v in tensors.items() if k.startswith("policy/")}
    expected = policy.state_dict()
    if set(weights) != set(expected):
        raise ModelFileError(f"{path}: the weights do not fit the policy described (missing "
                             f"{sorted(set(expected) - set(weights))[:3]}, unexpected "
                             f"{sorted(set(weights) - set(expected))[:3]})")
    wrong = [k for k, v in weights.items() if tuple(v.shape) != tuple(expected[k].shape)]
    if wrong:
        raise ModelFileError(f"{path}: weights {wrong[:3]} have shapes other than the policy's")
    policy.load_state_dict(weights)
