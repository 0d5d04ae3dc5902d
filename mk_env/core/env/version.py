"""The version rule every environment of the suite follows (pgx's ``core.py``): a change to the observations,
the actions, the rules or the rewards bumps a game's ``ENV_VERSION`` and adds its line to its
``VERSION_HISTORY``; a refactor or a speed-up does not. The layout fingerprint, which a model file records
and ``ppo:PATH`` checks, is computed here the same way for every game. Imports neither PettingZoo nor
Gymnasium (``import mk_env`` registers the environments through the games' version modules)."""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Iterable
from typing import Any


def version_lines(history: dict[int, tuple[str, str]]) -> str:
    """A Version history's list (markdown), newest last: ``history`` maps version -> (release, change)."""
    return "\n".join(f"* v{v} ({release}): {text}" for v, (release, text) in sorted(history.items()))


def layout_description(env_name: str, fields: Iterable[Any], actions: Iterable[tuple[Any, int]]) -> dict[str, Any]:
    """What a fingerprint hashes: the environment name, the observation arrays (each field's ``key``,
    ``shape`` and ``entries``) and the action blocks as (name, size) pairs."""
    return {"env": env_name, "observation": [[f.key, list(f.shape), list(f.entries)] for f in fields],
            "actions": [[block, int(size)] for block, size in actions]}


describe = layout_description  # (the name layout_functions' inner function shadows)


def fingerprint(description: dict[str, Any]) -> str:
    """16 hex digits of the SHA-256 of ``description`` as canonical JSON."""
    text = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def block_sizes(layout: Any) -> list[tuple[str, int]]:
    """(name, size) of each action block of ``layout``, in its order (the first game's ``BLOCKS``, or the
    block enum of a :class:`~mk_env.core.flat_engine.BlockLayout`)."""
    if hasattr(layout, "BLOCKS"):
        return [(b, layout.sizes[b]) for b in layout.BLOCKS]
    return [(str(block), size) for block, size in layout.sizes.items()]


def layout_functions(env_name: str, observer: str) -> tuple[Callable[[Any], dict[str, Any]], Callable[[Any], str]]:
    """A game's ``layout_description(game)`` and ``layout_fingerprint(game)``: what the fingerprint hashes (the
    environment name, the observation arrays of ``observer``, a ``"module:Class"`` imported on first use so the
    version module imports no RL library, and the action blocks) and its 16 hex digits."""

    def layout_description(game: Any) -> dict[str, Any]:
        module, _, name = observer.partition(":")
        observer_class = getattr(importlib.import_module(module), name)
        return describe(env_name, observer_class(game).fields, block_sizes(game.layout))

    def layout_fingerprint(game: Any) -> str:
        return fingerprint(layout_description(game))

    layout_description.__doc__ = (f"What {env_name}'s layout fingerprint hashes: the environment name, the "
                                  "observation arrays (key, shape, entry names) and the action blocks (name, size).")
    layout_fingerprint.__doc__ = (f"16 hex digits of the SHA-256 of {env_name}'s layout description: a model file "
                                  "records it, and a loader refuses a game whose fingerprint differs.")
    return layout_description, layout_fingerprint
