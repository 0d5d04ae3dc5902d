"""The safe model file: a MaskablePPO policy that loads without running any code from the file.

A Stable-Baselines3 ``.zip`` unpickles part of itself on load (``MaskablePPO.load``), so a crafted zip
runs whatever code it carries; ``weights_only`` does not cover that part. This module's format holds
numbers and JSON only, and loading it rebuilds the policy from names this module knows:

* one `safetensors <https://github.com/huggingface/safetensors>`_ file (suffix ``.safetensors``):
  an 8-byte header length, a JSON header, raw tensor bytes. No pickle anywhere;
* tensors ``policy/<name>``: the policy's weights (one copy of weights shared by several modules);
  ``optimizer/<index>/<name>``: Adam's moments, in checkpoints written for ``--resume`` only;
* the header's metadata ``mk_env``: a JSON object (:data:`FORMAT`, :data:`FORMAT_VERSION`) with the
  environment (``env``: ``ENV_NAME``; ``layout_fingerprint``:
  :func:`mk_env.env.version.layout_fingerprint`),
  the game it was trained for (``players``, ``game_options``), the policy's construction
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

import json
import math
import os
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = "mk_env.policy"
FORMAT_VERSION = 1
SUFFIX = ".safetensors"
METADATA_KEY = "mk_env"
ZIP_MAGIC = b"PK\x03\x04"
MAX_HEADER_BYTES = 16 * 2 ** 20
POLICY = "MultiInputPolicy"
OPTIMIZER = "Adam"
#: activation functions a file may name (``torch.nn`` classes)
ACTIVATIONS = ("Tanh", "ReLU")
#: PPO's hyperparameters kept in the file (numbers, booleans or None)
HYPERPARAMETERS = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda",
                   "clip_range", "clip_range_vf", "normalize_advantage", "ent_coef", "vf_coef",
                   "max_grad_norm", "target_kl")
_BOOL_KWARGS = ("share_features_extractor", "normalize_images", "ortho_init")
#: bounds on the sizes a file may ask for (so a description cannot make the loader allocate gigabytes
#: before its weights are checked); the shipped networks use 32 to 256
MAX_WIDTH = 1024
MAX_LAYERS = 8
_UNTRUSTED_ZIP = ("{path} is a Stable-Baselines3 zip: loading it unpickles Python objects from the "
                  "file, which can run any code. Load it only if you trust where it came from: "
                  "{how}; or convert it once with `mk-env convert-model {path} OUT.safetensors "
                  "--trust` and load the .safetensors file (docs/security.md)")


class ModelFileError(ValueError):
    """A model file that cannot be loaded (or saved) safely; the message says what and why."""


# ================================================================================================
# reading
# ================================================================================================
def is_sb3_zip(path: str | Path) -> bool:
    """Whether ``path`` is a zip archive (an SB3 model), judged by its first bytes, not its name."""
    with open(path, "rb") as f:
        return f.read(4) == ZIP_MAGIC


def refuse_untrusted_zip(path: str | Path, how: str = "pass trust=True") -> None:
    """Raise the error that explains why an SB3 zip needs trust (``how``: the caller's spelling)."""
    raise ModelFileError(_UNTRUSTED_ZIP.format(path=path, how=how))


def read_config(path: str | Path) -> dict[str, Any]:
    """The ``mk_env`` JSON of a safe model file, checked for format and version (no tensor is read)."""
    path = Path(path)
    if not path.is_file():
        raise ModelFileError(f"no model file at {str(path)!r}")
    if is_sb3_zip(path):
        refuse_untrusted_zip(path)
    try:
        with open(path, "rb") as f:
            (size,) = struct.unpack("<Q", f.read(8))
            if not 2 <= size <= MAX_HEADER_BYTES:
                raise ValueError(f"header size {size}")
            header = json.loads(f.read(size))
        text = header["__metadata__"][METADATA_KEY]
        config = json.loads(text)
    except (struct.error, ValueError, KeyError, TypeError, RecursionError) as e:
        raise ModelFileError(f"{path} is not an mk_env model file (a .safetensors file with "
                             f"{METADATA_KEY!r} metadata): {type(e).__name__}: {e}") from None
    _check_config(config, path)
    return config


def _check_config(config: Any, path: Path) -> None:
    """Format and version first, then the types of every field the loader uses."""
    if not isinstance(config, dict) or config.get("format") != FORMAT:
        raise ModelFileError(f"{path}: metadata {METADATA_KEY!r} is not an {FORMAT} description")
    version = config.get("format_version")
    if version != FORMAT_VERSION:
        raise ModelFileError(f"{path}: format version {version!r}; this mk_env reads version "
                             f"{FORMAT_VERSION} (convert or retrain the model with this version)")
    expected = {"env": str, "layout_fingerprint": str, "players": int, "game_options": dict,
                "policy": str, "policy_kwargs": dict, "observation_space": dict,
                "action_space": dict, "hyperparameters": dict, "num_timesteps": int}
    for key, kind in expected.items():
        if not isinstance(config.get(key), kind) or isinstance(config.get(key), bool):
            raise ModelFileError(f"{path}: field {key!r} must be of type {kind.__name__}, "
                                 f"got {config.get(key)!r}")
    if config["policy"] != POLICY:
        raise ModelFileError(f"{path}: policy {config['policy']!r}; allowed: {POLICY}")


def check_layout(config: dict[str, Any], path: str | Path) -> None:
    """Refuse a file trained on another environment version or observation/action layout."""
    mine_name, mine = _layout(config["players"], json.dumps(config["game_options"], sort_keys=True),
                              path)
    if (config["env"], config["layout_fingerprint"]) != (mine_name, mine):
        raise ModelFileError(
            f"{path} was trained on {config['env']} with layout {config['layout_fingerprint']} "
            f"({_game_text(config)}); this mk_env has {mine_name} with layout {mine} for that game: "
            f"the observations or actions differ, so retrain the model (or use the mk_env version "
            f"it was trained with)")


def _game_text(config: dict[str, Any]) -> str:
    options = config["game_options"]
    return f"{config['players']} players" + (f", options {options}" if options else "")


@lru_cache(maxsize=16)
def _layout(players: int, options_json: str, path: str | Path = "") -> tuple[str, str]:
    """(ENV_NAME, fingerprint) of this mk_env for a game configuration."""
    from mk_env.env.version import ENV_NAME, layout_fingerprint
    from mk_env.rules import Game
    try:
        game = Game(players, **json.loads(options_json))
    except (ValueError, TypeError) as e:
        raise ModelFileError(f"{path}: its game ({players} players, options {options_json}) cannot "
                             f"be built here: {e}") from None
    return ENV_NAME, layout_fingerprint(game)


def game_spaces(players: int, game_options: dict[str, Any] | None = None):
    """(observation space, action space) of the single-seat view of a game configuration."""
    from gymnasium import spaces

    from mk_env.env.observation import Observer
    from mk_env.rules import Game
    game = Game(players, **(game_options or {}))
    return Observer(game).space, spaces.Discrete(int(game.layout.size))


# ================================================================================================
# spaces and policy construction as JSON
# ================================================================================================
def spaces_to_json(observation_space: Any, action_space: Any) -> tuple[dict, dict]:
    """A ``Dict`` of ``Box``es and a ``Discrete`` as JSON (bounds as one number when uniform)."""
    import numpy as np
    from gymnasium import spaces
    if not isinstance(observation_space, spaces.Dict) or not isinstance(action_space, spaces.Discrete):
        raise ModelFileError(f"only a Dict observation space and a Discrete action space can be "
                             f"saved, got {observation_space} and {action_space}")
    described = {}
    for key, box in observation_space.spaces.items():
        if not isinstance(box, spaces.Box):
            raise ModelFileError(f"observation {key!r} is a {type(box).__name__}; only Box is allowed")
        bounds = {}
        for name in ("low", "high"):
            values = getattr(box, name)
            uniform = np.all(values == values.flat[0])
            bounds[name] = float(values.flat[0]) if uniform else values.tolist()
        described[key] = {"shape": list(box.shape), "dtype": str(box.dtype), **bounds}
    return described, {"n": int(action_space.n), "start": int(action_space.start)}


def checked_spaces(config: dict[str, Any], path: str | Path) -> tuple[Any, Any]:
    """This mk_env's spaces for the file's game, once the file is seen to describe the same ones.

    The file's description is compared as JSON and never built, so no size in it is allocated."""
    options = json.dumps(config["game_options"], sort_keys=True)
    observation, action = _game_spaces(config["players"], options)
    if spaces_to_json(observation, action) != (config["observation_space"], config["action_space"]):
        raise ModelFileError(f"{path}: its observation/action spaces are not those of this mk_env "
                             f"for its game ({_game_text(config)})")
    return observation, action


@lru_cache(maxsize=16)
def _game_spaces(players: int, options_json: str) -> tuple[Any, Any]:
    return game_spaces(players, json.loads(options_json))


def policy_kwargs_to_json(policy_kwargs: dict[str, Any]) -> dict[str, Any]:
    """The policy's keyword arguments with classes replaced by their names (known names only)."""
    from agents.networks import EXTRACTORS
    out: dict[str, Any] = {}
    for key, value in (policy_kwargs or {}).items():
        if key == "features_extractor_class":
            names = [n for n, cls in EXTRACTORS.items() if cls is value]
            if not names:
                raise ModelFileError(f"feature extractor {value!r} has no --extractor name; "
                                     f"allowed: {', '.join(EXTRACTORS)}")
            out["extractor"] = names[0]
        elif key == "features_extractor_kwargs":
            out["extractor_kwargs"] = dict(value)
        elif key == "activation_fn":
            if value.__name__ not in ACTIVATIONS:
                raise ModelFileError(f"activation {value.__name__}; allowed: {', '.join(ACTIVATIONS)}")
            out["activation"] = value.__name__
        elif key == "net_arch" or key in _BOOL_KWARGS:
            out[key] = value
        else:
            raise ModelFileError(f"policy_kwargs {key!r} cannot be stored safely; allowed: "
                                 f"features_extractor_class, features_extractor_kwargs, activation_fn, "
                                 f"net_arch, {', '.join(_BOOL_KWARGS)}")
    return json.loads(json.dumps(out))  # tuples -> lists, and proof that it is JSON


def policy_kwargs_from_json(described: dict[str, Any], path: str | Path) -> dict[str, Any]:
    """Inverse of :func:`policy_kwargs_to_json`: only known names become classes."""
    from torch import nn

    from agents.networks import EXTRACTORS
    out: dict[str, Any] = {}
    for key, value in described.items():
        if key == "extractor":
            if value not in EXTRACTORS:
                raise ModelFileError(f"{path}: extractor {value!r}; allowed: {', '.join(EXTRACTORS)}")
            out["features_extractor_class"] = EXTRACTORS[value]
        elif key == "extractor_kwargs":
            if not isinstance(value, dict) or not all(_is_size(v) for v in value.values()):
                raise ModelFileError(f"{path}: extractor_kwargs must map names to whole numbers "
                                     f"from 1 to {MAX_WIDTH}, got {value!r}")
            out["features_extractor_kwargs"] = value
        elif key == "activation":
            if value not in ACTIVATIONS:
                raise ModelFileError(f"{path}: activation {value!r}; allowed: {', '.join(ACTIVATIONS)}")
            out["activation_fn"] = getattr(nn, value)
        elif key == "net_arch":
            out["net_arch"] = _check_net_arch(value, path)
        elif key in _BOOL_KWARGS and isinstance(value, bool):
            out[key] = value
        else:
            raise ModelFileError(f"{path}: policy_kwargs {key!r}={value!r} is not allowed")
    return out


def _check_net_arch(value: Any, path: str | Path) -> Any:
    layers = value.values() if isinstance(value, dict) else [value]
    if isinstance(value, dict) and set(value) - {"pi", "vf"}:
        raise ModelFileError(f"{path}: net_arch keys {sorted(value)}; allowed: pi, vf")
    if not all(isinstance(sizes, list) and len(sizes) <= MAX_LAYERS and all(map(_is_size, sizes))
               for sizes in layers):
        raise ModelFileError(f"{path}: net_arch {value!r} must be lists of at most {MAX_LAYERS} whole "
                             f"numbers from 1 to {MAX_WIDTH}")
    return value


def _is_size(value: Any) -> bool:
    """A layer width a file may ask for: a whole number from 1 to :data:`MAX_WIDTH`."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_WIDTH


def hyperparameters(model: Any) -> dict[str, Any]:
    """PPO's hyperparameters of ``model``; a schedule must be constant (its value is kept)."""
    out = {}
    for name in HYPERPARAMETERS:
        value = getattr(model, name)
        if callable(value):
            start, end = float(value(1.0)), float(value(0.0))
            if start != end:
                raise ModelFileError(f"{name} is a schedule ({start} -> {end}); only constants can "
                                     f"be saved in the safe format")
            value = start
        out[name] = value
    return out


def _check_hyperparameters(values: dict[str, Any], path: str | Path) -> dict[str, Any]:
    unknown = set(values) - set(HYPERPARAMETERS)
    if unknown:
        raise ModelFileError(f"{path}: unknown hyperparameters {sorted(unknown)}; allowed: "
                             f"{', '.join(HYPERPARAMETERS)}")
    for name, value in values.items():
        if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value)):
            raise ModelFileError(f"{path}: hyperparameter {name}={value!r} must be a finite number")
    return values


# ================================================================================================
# writing
# ================================================================================================
def save_model(model: Any, path: str | Path, players: int, game_options: dict[str, Any] | None = None,
               optimizer: bool = False, training: dict[str, Any] | None = None) -> Path:
    """Write ``model`` (a MaskablePPO) to ``path`` in the safe format, atomically.

    ``optimizer``: also keep Adam's moments (checkpoints for ``--resume``; about three times the
    size); ``training``: run settings to keep (JSON). The model's spaces must be those of the
    single-seat view of ``players`` and ``game_options`` in this mk_env."""
    from safetensors.torch import save

    from mk_env.env.version import ENV_NAME, layout_fingerprint
    from mk_env.rules import Game
    options = dict(game_options or {})
    observation, action = spaces_to_json(model.observation_space, model.action_space)
    expected = spaces_to_json(*game_spaces(players, options))
    if (observation, action) != expected:
        raise ModelFileError(f"the model's spaces are not those of a {players}-player game with "
                             f"options {options} in this mk_env; give the players and options it "
                             f"was trained for")
    config = {"format": FORMAT, "format_version": FORMAT_VERSION, "env": ENV_NAME,
              "layout_fingerprint": layout_fingerprint(Game(players, **options)),
              "players": int(players), "game_options": options, "algorithm": "MaskablePPO",
              "policy": POLICY, "policy_kwargs": policy_kwargs_to_json(model.policy_kwargs),
              "observation_space": observation, "action_space": action,
              "hyperparameters": hyperparameters(model), "num_timesteps": int(model.num_timesteps),
              "n_updates": int(getattr(model, "_n_updates", 0)), "optimizer": None,
              "training": training}
    tensors = {f"policy/{k}": v for k, v in unique_state(model.policy).items()}
    if optimizer:
        config["optimizer"], moments = _optimizer_to_tensors(model.policy.optimizer)
        tensors.update(moments)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    data = save({k: v.detach().cpu().contiguous() for k, v in tensors.items()},
                metadata={METADATA_KEY: json.dumps(config)})
    tmp.write_bytes(data)  # an ordinary file (the process's umask), whole or not at all at ``path``
    os.replace(tmp, path)
    return path


def unique_state(module: Any) -> dict[str, Any]:
    """``module.state_dict()`` with each shared tensor once (under its first name)."""
    seen: set[tuple[int, tuple[int, ...]]] = set()
    out = {}
    for name, tensor in module.state_dict().items():
        key = (tensor.data_ptr(), tuple(tensor.shape))
        if key not in seen:
            seen.add(key)
            out[name] = tensor
    return out


def _optimizer_to_tensors(optimizer: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    if type(optimizer).__name__ != OPTIMIZER:
        raise ModelFileError(f"optimizer {type(optimizer).__name__}; only {OPTIMIZER} can be saved")
    state = optimizer.state_dict()
    tensors = {f"optimizer/{index}/{name}": value
               for index, slots in state["state"].items() for name, value in slots.items()}
    groups = [{k: v for k, v in group.items()} for group in state["param_groups"]]
    return {"class": OPTIMIZER, "param_groups": json.loads(json.dumps(groups))}, tensors


def convert_zip(src: str | Path, dst: str | Path, trust: bool = False, players: int | None = None,
                game_options: dict[str, Any] | None = None, optimizer: bool = False) -> Path:
    """Convert an SB3 MaskablePPO zip (loaded with ``trust``) to the safe format at ``dst``.

    ``players`` defaults to the model's ``players`` observation rows; ``game_options`` to none (the
    board side by player count)."""
    if not Path(src).is_file():
        raise ModelFileError(f"no model file at {str(src)!r}")
    if not is_sb3_zip(src):
        raise ModelFileError(f"{src} is not a Stable-Baselines3 zip (a .safetensors model file needs "
                             f"no conversion)")
    model = load_sb3_zip(src, trust, how="pass trust=True (`--trust`)")
    if players is None:
        players = int(model.observation_space["players"].shape[0])
    return save_model(model, dst, players, game_options, optimizer=optimizer)


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
    if (env.observation_space, env.action_space) != checked_spaces(config, path):
        raise ModelFileError(f"{path}: the env's spaces differ from the model's")
    settings = {**_check_hyperparameters(dict(config["hyperparameters"]), path), **changes}
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
    lr = _check_hyperparameters(dict(config["hyperparameters"]), path).get("learning_rate") or 3e-4
    try:
        return MaskableMultiInputActorCriticPolicy(
            observation, action, ConstantSchedule(lr),
            **policy_kwargs_from_json(config["policy_kwargs"], path))
    except (TypeError, ValueError, RuntimeError, KeyError) as e:
        raise ModelFileError(f"{path}: the policy described cannot be built: "
                             f"{type(e).__name__}: {e}") from None


def _read_tensors(path: str | Path) -> dict[str, Any]:
    from safetensors import SafetensorError
    from safetensors.torch import load_file
    try:
        return load_file(str(path), device="cpu")
    except (SafetensorError, OSError, ValueError, RuntimeError) as e:
        raise ModelFileError(f"{path}: unreadable tensors: {type(e).__name__}: {e}") from None


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


def _load_optimizer(optimizer: Any, described: dict[str, Any], tensors: dict[str, Any],
                    path: str | Path) -> None:
    if not isinstance(described, dict) or described.get("class") != OPTIMIZER \
            or not isinstance(described.get("param_groups"), list):
        raise ModelFileError(f"{path}: optimizer {described!r}; allowed: {OPTIMIZER} with param_groups")
    state: dict[int, dict[str, Any]] = {}
    for key, value in tensors.items():
        if key.startswith("optimizer/"):
            _, index, name = key.split("/", 2)
            state.setdefault(int(index), {})[name] = value
    groups = [{k: tuple(v) if isinstance(v, list) and k != "params" else v for k, v in group.items()}
              for group in described["param_groups"]]
    try:
        optimizer.load_state_dict({"state": state, "param_groups": groups})
    except (ValueError, KeyError, TypeError, RuntimeError) as e:
        raise ModelFileError(f"{path}: the optimizer state does not fit the policy: {e}") from None
