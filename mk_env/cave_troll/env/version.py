"""The Cave Troll environment's version and its registration with PettingZoo.

The version rule is the first game's (:mod:`mk_env.env.version`): any change to the observations, the
actions, the rules or the rewards bumps ``ENV_VERSION`` (``cave_troll_v0`` -> ``cave_troll_v1`` ...) and adds
its line to :data:`VERSION_HISTORY`; a refactor or a speed-up does not. This module imports neither
PettingZoo nor Gymnasium (``import mk_env`` registers the environment through it).
"""

from __future__ import annotations

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


def register_pettingzoo() -> None:
    """Register ``cave_troll_v<N>`` (AEC) where the installed PettingZoo has a registry (idempotent)."""
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        return
    registry = getattr(pettingzoo, "aec_registry", {})
    if any(getattr(spec, "entry_point", None) == ENTRY_POINT for spec in registry.values()):
        return  # the registry keeps its own spelling of the name ("cave_troll-v0")
    pettingzoo.register("aec", ENV_NAME, entry_point=ENTRY_POINT)
