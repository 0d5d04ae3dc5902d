"""The Cave Troll environment's version; its ids and versioned module follow from it
(:mod:`mk_env.registration`, :mod:`mk_env.versioned`).

The version rule is the suite's (:mod:`mk_env.core.env.version`): any change to the observations, the
actions, the rules or the rewards bumps ``ENV_VERSION`` (``cave_troll_v0`` -> ``cave_troll_v1`` ...) and adds
its line to :data:`VERSION_HISTORY`; a refactor or a speed-up does not. This module imports neither
PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from mk_env.core.env.version import layout_functions
from mk_env.core.env.version import version_lines as shared_version_lines

ENV_VERSION = 1
ENV_NAME = f"cave_troll_v{ENV_VERSION}"

#: each version: (the release it came with, what changed), the Version history of the docs
VERSION_HISTORY: dict[int, tuple[str, str]] = {
    0: ("mk_env 0.1.0", "first release of Cave Troll in the suite."),
    1: ("issue 52", "the Chalice of Teleportation refuses an entrance holding an opponent's Knight, as it does a "
        "room (\"any other room or entrance not occupied by a Cave Troll or an opponent's Knight\"); a drawn "
        "Treasure may be declined (`decline` in the place phase: out of the game, the draw spent the action; "
        "declining the last counter of the pile ends the game as playing it does). Same observation and "
        "action layouts as v0 (the fingerprints change with the name only). The golden games of 2, 3 and 4 "
        "players change (each drawn Treasure now offers `decline`, so their random choices differ from there; "
        "the 3-player one also had a Chalice destination v1 refuses). `mk_env.cave_troll_v0` is retired."),
}

#: each version: {players: layout fingerprint} of the default configurations it was released with (the suite's
#: version tests check the current version's)
PINNED_LAYOUTS: dict[int, dict[int, str]] = {
    0: {2: "123c6e8be0ea55b2", 3: "460af957cf63e5bb", 4: "17cb0fd24e0d11b8"},
    1: {2: "9a1762ba369691a0", 3: "e9134554e3758b44", 4: "f38dfd7eb5bf91ad"},
}


def version_lines() -> str:
    """The Version history's list (markdown), newest last."""
    return shared_version_lines(VERSION_HISTORY)


#: what the fingerprint hashes, and its 16 hex digits (a model file records it; ``ppo:PATH`` refuses a game whose
#: fingerprint differs), computed as for every game (:mod:`mk_env.core.env.version`)
layout_description, layout_fingerprint = layout_functions(
    ENV_NAME, "mk_env.cave_troll.env.observation:CaveTrollObserver")
