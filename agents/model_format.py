"""The safe model file's format, shared by every kind of model the suite saves (MaskablePPO's policy,
:mod:`agents.factorised_file`'s, :mod:`agents.az_net`'s): one safetensors file whose header's ``mk_env``
metadata describes it (:data:`FORMAT`, :data:`FORMAT_VERSION`, the game, its layout, the policy); reading that
description (bounded, checked, an SB3 zip refused without trust), checking its layout against this mk_env,
writing tensors and a description atomically, and Adam's moments in and out. What a model is lives in the
modules of each kind (:mod:`agents.policy_file` for MaskablePPO)."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Any

from mk_env.games import game_names

from .policy_description import ModelFileError, config_game, env_layout, game_text

FORMAT = "mk_env.policy"
FORMAT_VERSION = 1
SUFFIX = ".safetensors"
METADATA_KEY = "mk_env"
ZIP_MAGIC = b"PK\x03\x04"
MAX_HEADER_BYTES = 16 * 2 ** 20
POLICY = "MultiInputPolicy"
#: the policies a file may hold: SB3's (MaskablePPO) and the factorised one (agents.factorised_file)
POLICIES = (POLICY, "FactorisedPolicy")
OPTIMIZER = "Adam"
_UNTRUSTED_ZIP = ("{path} is a Stable-Baselines3 zip: loading it unpickles Python objects from the "
                  "file, which can run any code. Load it only if you trust where it came from: "
                  "{how}; or convert it once with `mk-env convert-model {path} OUT.safetensors "
                  "--trust` and load the .safetensors file (docs/security.md)")


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
    config = read_metadata(path)
    _check_config(config, path)
    return config


def read_metadata(path: str | Path) -> Any:
    """The ``mk_env`` JSON in the header of the .safetensors file ``path``, unchecked (either kind of model
    file); the header is bounded by :data:`MAX_HEADER_BYTES` and no tensor is read."""
    try:
        with open(path, "rb") as f:
            (size,) = struct.unpack("<Q", f.read(8))
            if not 2 <= size <= MAX_HEADER_BYTES:
                raise ValueError(f"header size {size}")
            header = json.loads(f.read(size))
        return json.loads(header["__metadata__"][METADATA_KEY])
    except (struct.error, ValueError, KeyError, TypeError, RecursionError) as e:
        raise ModelFileError(f"{path} is not an mk_env model file (a .safetensors file with "
                             f"{METADATA_KEY!r} metadata): {type(e).__name__}: {e}") from None


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
    if config["policy"] not in POLICIES:
        raise ModelFileError(f"{path}: policy {config['policy']!r}; allowed: {', '.join(POLICIES)}")
    if config_game(config) not in game_names():
        raise ModelFileError(f"{path}: game {config_game(config)!r}; this mk_env has the games "
                             f"{', '.join(game_names())}")


def check_layout(config: dict[str, Any], path: str | Path) -> None:
    """Refuse a file trained on another environment version or observation/action layout."""
    mine_name, mine = env_layout(config["players"], json.dumps(config["game_options"], sort_keys=True),
                                 path, config_game(config))
    if (config["env"], config["layout_fingerprint"]) != (mine_name, mine):
        raise ModelFileError(
            f"{path} was trained on {config['env']} with layout {config['layout_fingerprint']} "
            f"({game_text(config)}); this mk_env has {mine_name} with layout {mine} for that game: "
            f"the observations or actions differ, so retrain the model (or use the mk_env version "
            f"it was trained with)")


def write_model_file(path: str | Path, tensors: dict[str, Any], config: dict[str, Any],
                     optimizer: Any = None) -> Path:
    """Write ``tensors`` and the description ``config`` (JSON) to ``path`` atomically; with
    ``optimizer`` (an Adam), also its moments (``optimizer/``) and settings (``config["optimizer"]``)."""
    from safetensors.torch import save
    tensors = dict(tensors)
    if optimizer is not None:
        config["optimizer"], moments = _optimizer_to_tensors(optimizer)
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


def _read_tensors(path: str | Path) -> dict[str, Any]:
    from safetensors import SafetensorError
    from safetensors.torch import load_file
    try:
        return load_file(str(path), device="cpu")
    except (SafetensorError, OSError, ValueError, RuntimeError) as e:
        raise ModelFileError(f"{path}: unreadable tensors: {type(e).__name__}: {e}") from None


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
