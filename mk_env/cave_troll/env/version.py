"""The Cave Troll environment's version and its registration with PettingZoo.

The version rule is the first game's (:mod:`mk_env.env.version`): any change to the observations, the
actions, the rules or the rewards bumps ``ENV_VERSION`` (``cave_troll_v0`` -> ``cave_troll_v1`` ...) and adds
its line to :data:`VERSION_HISTORY`; a refactor or a speed-up does not. This module imports neither
PettingZoo nor Gymnasium (``import mk_env`` registers the environment through it).
"""

from __future__ import annotations

from typing import Any

ENV_VERSION = 0
ENV_NAME = f"cave_troll_v{ENV_VERSION}"
#: the factory PettingZoo's registry names
ENTRY_POINT = "mk_env.cave_troll_v0:env"

#: each version: (the release it came with, what changed), the Version history of the docs
VERSION_HISTORY: dict[int, tuple[str, str]] = {
    0: ("mk_env 0.1.0", "first release of Cave Troll in the suite."),
}


def version_lines() -> str:
    """The Version history's list (markdown), newest last."""
    return "\n".join(f"* v{v} ({release}): {text}" for v, (release, text) in sorted(VERSION_HISTORY.items()))


def layout_fingerprint(game: Any) -> str:
    """A short hex digest (16 hex digits of SHA-256) of what a trained policy depends on: the environment
    name, the observation arrays (key, shape, entry names) and the action blocks (name, size) of ``game``
    (a :class:`mk_env.cave_troll.rules.Game`), as the first game's :func:`mk_env.env.version.layout_fingerprint`.
    A model file records it; ``ppo:PATH`` refuses a game whose fingerprint differs."""
    import hashlib
    import json

    from .observation import CaveTrollObserver

    fields = CaveTrollObserver(game).fields
    layout = game.layout
    description = {"env": ENV_NAME, "observation": [[f.key, list(f.shape), list(f.entries)] for f in fields],
                   "actions": [[str(block), int(size)] for block, size in layout.sizes.items()]}
    text = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def register_pettingzoo() -> None:
    """Register ``cave_troll_v<N>`` (AEC) where the installed PettingZoo has a registry (idempotent)."""
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        return
    registry = getattr(pettingzoo, "aec_registry", {})
    if any(getattr(spec, "entry_point", None) == ENTRY_POINT for spec in registry.values()):
        return  # the registry keeps its own spelling of the name ("cave_troll-v0")
    pettingzoo.register("aec", ENV_NAME, entry_point=ENTRY_POINT)
