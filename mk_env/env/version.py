"""The environment's version and a fingerprint of what a trained policy depends on.

The version rule (as PettingZoo and pgx state it): any change to the observations, the actions, the
rules or the rewards bumps ``ENV_VERSION`` (and so ``ENV_NAME``: ``mountain_king_v0`` ->
``mountain_king_v1`` ...) and adds a line to the Version History in ``docs/environment.md``; a
refactor or a speed-up does not. :func:`layout_fingerprint` hashes the observation layout (every
array's key, shape and entry names) and the action layout (every block's name and size) of one
game configuration, so a checkpoint can record what it was trained on and refuse another layout
with a clear error; a test pins the fingerprints of the default configurations to the version.
"""

from __future__ import annotations

import json
from typing import Any

ENV_VERSION = 0
ENV_NAME = f"mountain_king_v{ENV_VERSION}"


def layout_description(game: Any) -> dict[str, Any]:
    """What the fingerprint hashes: the environment name, the observation arrays (key, shape, entry
    names) and the action blocks (name, size) of ``game`` (a :class:`mk_env.rules.Game`)."""
    from .observation import Observer

    observer = Observer(game)
    layout = game.layout
    return {
        "env": ENV_NAME,
        "observation": [[f.key, list(f.shape), list(f.entries)] for f in observer.fields],
        "actions": [[block, int(layout.sizes[block])] for block in layout.BLOCKS],
    }


def layout_fingerprint(game: Any) -> str:
    """A short hex digest of :func:`layout_description` (16 hex digits of its SHA-256)."""
    import hashlib  # here, not at the top: importing this module stays light (mk_env.registration)

    text = json.dumps(layout_description(game), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
