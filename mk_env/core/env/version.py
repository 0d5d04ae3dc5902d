"""The version rule every environment of the suite follows (pgx's ``core.py``): a change to the observations,
the actions, the rules or the rewards bumps a game's ``ENV_VERSION`` and adds its line to its
``VERSION_HISTORY``; a refactor or a speed-up does not. The layout fingerprint, which a model file records
and ``ppo:PATH`` checks, is computed here the same way for every game. Imports neither PettingZoo nor
Gymnasium (``import mk_env`` registers the environments through the games' version modules)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any


def version_lines(history: dict[int, tuple[str, str]]) -> str:
    """A Version history's list (markdown), newest last: ``history`` maps version -> (release, change)."""
    return "\n".join(f"* v{v} ({release}): {text}" for v, (release, text) in sorted(history.items()))


def layout_description(env_name: str, fields: Iterable[Any], actions: Iterable[tuple[Any, int]]) -> dict[str, Any]:
    """What a fingerprint hashes: the environment name, the observation arrays (each field's ``key``,
    ``shape`` and ``entries``) and the action blocks as (name, size) pairs."""
    return {"env": env_name, "observation": [[f.key, list(f.shape), list(f.entries)] for f in fields],
            "actions": [[block, int(size)] for block, size in actions]}


def fingerprint(description: dict[str, Any]) -> str:
    """16 hex digits of the SHA-256 of ``description`` as canonical JSON."""
    text = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
