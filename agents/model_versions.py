"""A model file carried over a version bump that kept its game's layouts.

A model file records the environment it was trained on (``env``, ``layout_fingerprint``), and loading refuses
any other. When a new environment version changes rules but no observation or action layout (the fingerprint
changes with the name only), the weights still read the new observations exactly as they read the old ones;
:func:`describe_for_current` rewrites such a file's description for the current version, its tensors byte for
byte, and appends the version it was described for before to ``earlier_versions`` with a note saying what
changed, so the file keeps the record that it never played the new rules in training. A file whose layout
changed is refused: it must be retrained.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mk_env.core.env.version import fingerprint

from mk_env.games import game_entry, load

from .policy_description import config_game, make_suite_game
from .policy_file import METADATA_KEY, ModelFileError, read_metadata


def current_description(config: dict[str, Any]) -> tuple[str, str, str]:
    """(current env name, current fingerprint, the fingerprint the current layout has under ``config``'s
    env name) of the game configuration ``config`` describes."""
    module = load(game_entry(config_game(config)).version_module)
    game = make_suite_game(config_game(config), config["players"], config["game_options"])
    description = module.layout_description(game)
    return module.ENV_NAME, fingerprint(description), fingerprint({**description, "env": config["env"]})


def describe_for_current(src: str | Path, dst: str | Path, note: str) -> Path:
    """Write ``src`` to ``dst`` described for the current environment version (see the module docstring);
    ``note`` says what the versions between changed."""
    from safetensors.numpy import load_file, save

    config = read_metadata(src)
    if not isinstance(config, dict) or not {"env", "layout_fingerprint", "players", "game_options"} <= set(config):
        raise ModelFileError(f"{src}: metadata {METADATA_KEY!r} is not a model description")
    name, mine, same_layout = current_description(config)
    if config["env"] == name:
        raise ModelFileError(f"{src} is already described for {name}")
    if same_layout != config["layout_fingerprint"]:
        raise ModelFileError(f"{src} was trained on {config['env']} with layout {config['layout_fingerprint']}; "
                             f"{name}'s layout differs (not only its name): retrain the model")
    if not isinstance(note, str) or not note.strip():
        raise ModelFileError("say in a note what changed between the versions")
    earlier = list(config.get("earlier_versions", []))
    earlier.append({"env": config["env"], "layout_fingerprint": config["layout_fingerprint"], "note": note})
    config.update(env=name, layout_fingerprint=mine, earlier_versions=earlier)
    data = save(load_file(str(src)), metadata={METADATA_KEY: json.dumps(config)})
    dst = Path(dst)
    tmp = dst.with_name(f".{dst.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, dst)
    return dst
