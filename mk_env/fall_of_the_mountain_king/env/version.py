"""The Fall of the Mountain King environment's version; its ids and versioned module follow from it
(:mod:`mk_env.registration`, :mod:`mk_env.versioned`).

The version rule is the suite's (:mod:`mk_env.core.env.version`): any change to the observations, the
actions, the rules or the rewards bumps ``ENV_VERSION`` (``fall_of_the_mountain_king_v0`` -> ``..._v1``) and
adds its line to :data:`VERSION_HISTORY`; a refactor or a speed-up does not. This module imports neither
PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from mk_env.core.env.version import layout_functions
from mk_env.core.env.version import version_lines as shared_version_lines

ENV_VERSION = 1
ENV_NAME = f"fall_of_the_mountain_king_v{ENV_VERSION}"

#: each version: (the release it came with, what changed), the Version history of the docs
VERSION_HISTORY: dict[int, tuple[str, str]] = {
    0: ("mk_env 0.1.0", "first release of Fall of the Mountain King in the suite (designed stand-in components)."),
    1: ("issue 52", "the simultaneous decisions (the champion kept, each pick's draft placement, the wild pairs) "
        "are hidden until every seat has chosen: seats are still asked one at a time, clockwise, but a "
        "choice is committed (state field `committed`) and carried out for all seats together after the "
        "last one, so a later seat's observation, mask and determinizations do not depend on an earlier "
        "seat's choice of the same pick; a seat sees its own chosen wilds on its grid. Saves are format 2 "
        "(format 1 saves are refused). Same observation and action layouts as v0 (every golden game plays the "
        "same actions, its digest changes only with the save's new field and format; the fingerprints change "
        "with the name only). `mk_env.fall_of_the_mountain_king_v0` is "
        "retired."),
}

#: each version: {players: layout fingerprint} of the default configurations it was released with (the suite's
#: version tests check the current version's)
PINNED_LAYOUTS: dict[int, dict[int, str]] = {
    0: {2: "633b1d2bde0668df", 3: "246ad2bda16220a8", 4: "0a6a61b63448c480", 5: "ad9fefcb41431ec1"},
    1: {2: "4735f7f7c97a54cc", 3: "332830a31cd61e8d", 4: "aabd1f5fd82b5b26", 5: "737a4978b71dc29d"},
}


def version_lines() -> str:
    """The Version history's list (markdown), newest last."""
    return shared_version_lines(VERSION_HISTORY)


#: what the fingerprint hashes, and its 16 hex digits (a model file records it; ``ppo:PATH`` refuses a game whose
#: fingerprint differs), computed as for every game (:mod:`mk_env.core.env.version`)
layout_description, layout_fingerprint = layout_functions(
    ENV_NAME, "mk_env.fall_of_the_mountain_king.env.observation:FallObserver")
