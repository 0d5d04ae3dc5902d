"""What a model file says about its policy, as JSON, and the checks applied when it is read back:
the observation and action spaces (compared, never built), the policy's construction (known names
only, bounded sizes) and PPO's hyperparameters (constant numbers). Used by :mod:`agents.policy_file`."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from mk_env.games import DEFAULT_GAME

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


class ModelFileError(ValueError):
    """A model file that cannot be loaded (or saved) safely; the message says what and why."""


def config_game(config: dict[str, Any]) -> str:
    """The suite game a model file was trained for (files written before the suite's second game name
    none: they are the first game's)."""
    return config.get("game", DEFAULT_GAME)


def game_text(config: dict[str, Any]) -> str:
    """The file's game in words: "mountain_king, 2 players" (with its options, if any)."""
    options = config["game_options"]
    return (f"{config_game(config)}, {config['players']} players"
            + (f", options {options}" if options else ""))


def env_module(game: str) -> Any:
    """The environment module of suite game ``game`` (``ENV_NAME``, ``layout_fingerprint``, ``raw_env``
    with its ``observer_class``, ``single_seat_env``), from :data:`mk_env.games.GAMES`."""
    from mk_env.games import game_entry, load
    return load(game_entry(game).env)


def make_suite_game(game: str, players: int, options: dict[str, Any] | None = None) -> Any:
    """``Game(players, **options)`` of suite game ``game``."""
    from mk_env.games import make_game
    return make_game(game, players, **(options or {}))


@lru_cache(maxsize=16)
def env_layout(players: int, options_json: str, path: str | Path = "", game: str = DEFAULT_GAME
               ) -> tuple[str, str]:
    """(ENV_NAME, fingerprint) of this mk_env for a game configuration."""
    try:
        module = env_module(game)
        built = make_suite_game(game, players, json.loads(options_json))
    except (ValueError, TypeError) as e:
        raise ModelFileError(f"{path}: its game ({game}, {players} players, options {options_json}) "
                             f"cannot be built here: {e}") from None
    return module.ENV_NAME, module.layout_fingerprint(built)


def game_spaces(players: int, game_options: dict[str, Any] | None = None, game: str = DEFAULT_GAME):
    """(observation space, action space) of the single-seat view of a game configuration."""
    from gymnasium import spaces
    built = make_suite_game(game, players, game_options)
    return env_module(game).raw_env.observer_class(built).space, spaces.Discrete(int(built.layout.size))


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
    observation, action = _game_spaces(config["players"], options, config_game(config))
    if spaces_to_json(observation, action) != (config["observation_space"], config["action_space"]):
        raise ModelFileError(f"{path}: its observation/action spaces are not those of this mk_env "
                             f"for its game ({game_text(config)})")
    return observation, action


@lru_cache(maxsize=16)
def _game_spaces(players: int, options_json: str, game: str) -> tuple[Any, Any]:
    return game_spaces(players, json.loads(options_json), game)


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


def check_hyperparameters(values: dict[str, Any], path: str | Path) -> dict[str, Any]:
    """``values`` once every name is known and every value a finite number (or None)."""
    unknown = set(values) - set(HYPERPARAMETERS)
    if unknown:
        raise ModelFileError(f"{path}: unknown hyperparameters {sorted(unknown)}; allowed: "
                             f"{', '.join(HYPERPARAMETERS)}")
    for name, value in values.items():
        if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value)):
            raise ModelFileError(f"{path}: hyperparameter {name}={value!r} must be a finite number")
    return values
