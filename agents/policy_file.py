"""The safe model file: a MaskablePPO policy that loads without running any code from the file (the file's
format, shared with the other kinds of model, is :mod:`agents.model_format`; its names are named here too).

A Stable-Baselines3 ``.zip`` unpickles part of itself on load (``MaskablePPO.load``), so a crafted zip
runs whatever code it carries; ``weights_only`` does not cover that part. This module's format holds
numbers and JSON only, and loading it rebuilds the policy from names this module knows:

* one `safetensors <https://github.com/huggingface/safetensors>`_ file (suffix ``.safetensors``):
  an 8-byte header length, a JSON header, raw tensor bytes. No pickle anywhere;
* tensors ``policy/<name>``: the policy's weights (one copy of weights shared by several modules);
  ``optimizer/<index>/<name>``: Adam's moments, in checkpoints written for ``--resume`` only;
* the header's metadata ``mk_env``: a JSON object (:data:`FORMAT`, :data:`FORMAT_VERSION`) with the
  environment (``env``: the game's ``ENV_NAME``; ``layout_fingerprint``: its env module's
  ``layout_fingerprint``, e.g. :func:`mk_env.env.version.layout_fingerprint`),
  the game it was trained for (``game``: its :mod:`mk_env.games` name, absent in files written
  before the suite's second game, which are the first game's; ``players``, ``game_options``), the policy's construction
  (``policy_kwargs``: the extractor by its ``--extractor`` name in :data:`agents.networks.EXTRACTORS`,
  its keyword numbers, ``net_arch``, the activation by name), the observation and action spaces in
  JSON, PPO's hyperparameters (constants only), ``num_timesteps``, and the optimizer's settings.
  Training adds its run settings (``training``) so ``--resume`` continues the same run.

Loading checks the format version, then that this mk_env builds the same observation and action
layout for the file's game (same env name and fingerprint), and names both when they differ.

An SB3 zip loads only with ``trust=True`` (``ppo:PATH?trust``, ``--trust``); :func:`convert_zip`
(``mk-env convert-model IN.zip OUT.safetensors --trust``) turns a trusted zip into this format once.
See docs/security.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mk_env.games import DEFAULT_GAME

from .model_format import (FORMAT, FORMAT_VERSION, METADATA_KEY, POLICY, SUFFIX, _load_optimizer,  # noqa: F401
                           _read_tensors, check_layout, is_sb3_zip, read_config, read_metadata,
                           refuse_untrusted_zip, unique_state, write_model_file)
from .policy_description import (ModelFileError, check_hyperparameters, checked_spaces, env_module, game_spaces,
                                 hyperparameters, make_suite_game, policy_kwargs_from_json,
                                 policy_kwargs_to_json, spaces_to_json)

__all__ = ["FORMAT", "FORMAT_VERSION", "METADATA_KEY", "SUFFIX", "ModelFileError", "convert_zip",
           "halve_model_file", "is_sb3_zip", "load_model", "load_policy", "read_config", "read_metadata",
           "refuse_untrusted_zip", "save_model"]


# ================================================================================================
# writing
# ================================================================================================
def save_model(model: Any, path: str | Path, players: int, game_options: dict[str, Any] | None = None,
               optimizer: bool = False, training: dict[str, Any] | None = None,
               game: str = DEFAULT_GAME) -> Path:
    """Write ``model`` (a MaskablePPO) to ``path`` in the safe format, atomically.

    ``optimizer``: also keep Adam's moments (checkpoints for ``--resume``; about three times the
    size); ``training``: run settings to keep (JSON). The model's spaces must be those of the
    single-seat view of ``players`` and ``game_options`` of suite game ``game`` in this mk_env."""
    options = dict(game_options or {})
    observation, action = spaces_to_json(model.observation_space, model.action_space)
    expected = spaces_to_json(*game_spaces(players, options, game))
    if (observation, action) != expected:
        raise ModelFileError(f"the model's spaces are not those of a {players}-player game of {game} "
                             f"with options {options} in this mk_env; give the game, players and "
                             f"options it was trained for")
    module = env_module(game)
    config = {"format": FORMAT, "format_version": FORMAT_VERSION, "env": module.ENV_NAME,
              "layout_fingerprint": module.layout_fingerprint(make_suite_game(game, players, options)),
              "game": game, "players": int(players), "game_options": options, "algorithm": "MaskablePPO",
              "policy": POLICY, "policy_kwargs": policy_kwargs_to_json(model.policy_kwargs),
              "observation_space": observation, "action_space": action,
              "hyperparameters": hyperparameters(model), "num_timesteps": int(model.num_timesteps),
              "n_updates": int(getattr(model, "_n_updates", 0)), "optimizer": None,
              "training": training}
    tensors = {f"policy/{k}": v for k, v in unique_state(model.policy).items()}
    return write_model_file(path, tensors, config, model.policy.optimizer if optimizer else None)


def adam(params: Any, lr: float = 1e-3, weight_decay: float = 0.0) -> Any:
    """Adam with torch's fused kernel where torch has it (on one CPU thread about 8 times faster than the
    default loop over the 7 million weights of a width-512 policy-value network; the same update)."""
    import torch
    try:
        return torch.optim.Adam(params, lr=lr, weight_decay=weight_decay, fused=True)
    except (RuntimeError, TypeError, ValueError):  # a torch without the fused CPU kernel
        return torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)


def convert_zip(src: str | Path, dst: str | Path, trust: bool = False, players: int | None = None,
                game_options: dict[str, Any] | None = None, optimizer: bool = False) -> Path:
    """Convert an SB3 MaskablePPO zip (loaded with ``trust``) to the safe format at ``dst``.

    ``players`` defaults to the model's ``players`` observation rows; ``game_options`` to none (the
    board side by player count)."""
    if not Path(src).is_file():
        raise ModelFileError(f"no model file at {str(src)!r}")
    if not is_sb3_zip(src):
        raise ModelFileError(f"{src} is not a Stable-Baselines3 zip (a .safetensors model file needs "
                             f"no conversion; `mk-env convert-model IN OUT --half` makes a smaller copy for playing)")
    model = load_sb3_zip(src, trust, how="pass trust=True (`--trust`)")
    if players is None:
        players = int(model.observation_space["players"].shape[0])
    return save_model(model, dst, players, game_options, optimizer=optimizer)


def halve_model_file(src: str | Path, dst: str | Path) -> Path:
    """Copy the model file ``src`` (either kind: ``ppo:`` or ``az:``) to ``dst`` for playing only: its
    float weights as float16 (half the bytes; loaded back into float32 networks), Adam's moments dropped."""
    import torch
    config = read_metadata(src)
    if not isinstance(config, dict):
        raise ModelFileError(f"{src}: metadata {METADATA_KEY!r} is not a model description")
    tensors = _read_tensors(src)
    config["optimizer"] = None
    kept = {k: v.half() if v.dtype == torch.float32 else v for k, v in tensors.items()
            if not k.startswith("optimizer/")}
    return write_model_file(dst, kept, config)


def load_sb3_zip(path: str | Path, trust: bool, env: Any = None, how: str = "pass trust=True",
                 **kwargs: Any) -> Any:
    """``MaskablePPO.load`` of a zip the caller trusts; refused (with the reason) without ``trust``."""
    if not trust:
        refuse_untrusted_zip(path, how)
    from sb3_contrib import MaskablePPO
    return MaskablePPO.load(str(path), env=env, device="cpu", **kwargs)


# ================================================================================================
# loading
# ================================================================================================
def load_policy(path: str | Path, trust: bool = False) -> Any:
    """The policy in ``path`` (its ``.predict(obs, action_masks=...)`` acts), in evaluation mode.

    A safe file is checked against this mk_env's layout; an SB3 zip needs ``trust``."""
    if Path(path).is_file() and is_sb3_zip(path):
        return load_sb3_zip(path, trust).policy
    config = read_config(path)
    check_layout(config, path)
    if config["policy"] != POLICY:  # a factorised policy (mk-env train --algo ppo)
        from .factorised_file import load_factorised
        return load_factorised(path, config)
    policy = _build_policy(config, path)
    tensors = _read_tensors(path)
    _load_weights(policy, tensors, path)
    policy.set_training_mode(False)
    return policy


def load_model(path: str | Path, env: Any, trust: bool = False, tensorboard_log: str | None = None,
               verbose: int = 0, seed: int | None = None, **changes: Any) -> Any:
    """A MaskablePPO on ``env`` continuing the model in ``path``: weights, Adam's moments (when the
    file has them), step and update counts; ``changes`` override stored hyperparameters."""
    if is_sb3_zip(path):
        return load_sb3_zip(path, trust, env, how="pass --trust", tensorboard_log=tensorboard_log,
                            custom_objects=changes)
    from sb3_contrib import MaskablePPO
    config = read_config(path)
    check_layout(config, path)
    if config["policy"] != POLICY:
        raise ModelFileError(f"{path} holds a {config['policy']} policy (mk-env train --algo ppo); "
                             f"MaskablePPO cannot continue it: resume it with --algo ppo")
    if (env.observation_space, env.action_space) != checked_spaces(config, path):
        raise ModelFileError(f"{path}: the env's spaces differ from the model's")
    settings = {**check_hyperparameters(dict(config["hyperparameters"]), path), **changes}
    model = MaskablePPO(POLICY, env, **settings, device="cpu", tensorboard_log=tensorboard_log,
                        verbose=verbose, seed=seed,
                        policy_kwargs=policy_kwargs_from_json(config["policy_kwargs"], path))
    tensors = _read_tensors(path)
    _load_weights(model.policy, tensors, path)
    if config.get("optimizer"):
        _load_optimizer(model.policy.optimizer, config["optimizer"], tensors, path)
    model.num_timesteps = config["num_timesteps"]
    model._n_updates = int(config.get("n_updates") or 0)
    return model


def _build_policy(config: dict[str, Any], path: str | Path) -> Any:
    from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
    from stable_baselines3.common.utils import ConstantSchedule
    observation, action = checked_spaces(config, path)
    lr = check_hyperparameters(dict(config["hyperparameters"]), path).get("learning_rate") or 3e-4
    try:
        return MaskableMultiInputActorCriticPolicy(
            observation, action, ConstantSchedule(lr),
            **policy_kwargs_from_json(config["policy_kwargs"], path))
    except (TypeError, ValueError, RuntimeError, KeyError) as e:
        raise ModelFileError(f"{path}: the policy described cannot be built: "
                             f"{type(e).__name__}: {e}") from None


def _load_weights(policy: Any, tensors: dict[str, Any], path: str | Path) -> None:
    """Load ``policy/`` tensors; a missing name is fine only where it shares a loaded tensor."""
    weights = {k.split("/", 1)[1]: v for k, v in tensors.items() if k.startswith("policy/")}
    expected = unique_state(policy)
    missing = sorted(set(expected) - set(weights))
    unexpected = sorted(set(weights) - set(policy.state_dict()))
    if missing or unexpected:
        raise ModelFileError(f"{path}: the weights do not fit the policy described (missing "
                             f"{missing[:3]}, unexpected {unexpected[:3]})")
    try:
        policy.load_state_dict(weights, strict=False)
    except RuntimeError as e:
        raise ModelFileError(f"{path}: the weights do not fit the policy described: {e}") from None
