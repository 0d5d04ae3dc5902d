"""The environment's version and a fingerprint of what a trained policy depends on.

The version rule (as PettingZoo and pgx state it): any change to the observations, the actions, the
rules or the rewards bumps ``ENV_VERSION`` (and so ``ENV_NAME``: ``mountain_king_v0`` ->
``mountain_king_v1`` ...), adds its line to :data:`VERSION_HISTORY` (the Version history of
``docs/environment.md``) and pins its layouts in :data:`PINNED_LAYOUTS`, all in this file; a
refactor or a speed-up does not. :func:`layout_fingerprint` hashes the observation layout (every
array's key, shape and entry names) and the action layout (every block's name and size) of one
game configuration, so a checkpoint can record what it was trained on and refuse another layout
with a clear error; a test pins the fingerprints of the default configurations to the version.
"""

from __future__ import annotations

from mk_env.core.env.version import layout_functions
from mk_env.core.env.version import version_lines as shared_version_lines

ENV_VERSION = 2
ENV_NAME = f"mountain_king_v{ENV_VERSION}"

#: each version: (the release it came with, what changed), the Version history of the docs
VERSION_HISTORY: dict[int, tuple[str, str]] = {
    0: ("mk_env 0.1.0", "first release. Later additions that change no layout: the `\"flat\"` and `\"rllib\"` "
        "observation styles, `state()`, the illegal-move warning and counts, the team in the final infos."),
    1: ("issue 16", "rules closer to the book, same observation and action layouts as v0 on the winter side "
        "(the fingerprints change with the name only). The default pack's autumn side is redrawn "
        "mirror-symmetric for a fair 3-player table (its start point 1 won 68% of 3-player games); its "
        "workshop sites moved, so the autumn layouts' dig and hall blocks change size. Ceremony of "
        "Ascension picks the Level-3 troll by its printed level, in any horde row (v0 offered the top "
        "row's slots, whatever their level); the Level-3 recruit's "
        "pedestal may be declined (`pass` in `recruit_pedestal`, asked even when one clan is left); "
        "Tremor's free statue moves last the turn (made at the cast, or kept: `select_statue` is legal in "
        "steps 2 and 3 while free moves are left and step 4 spends them before carts; `statue_move_free` "
        "marks them) and Tremor may be cast before a statue can move. New game option `payment`: "
        "`\"auto\"` (default, the engine's fixed order as in v0) or `\"choose\"` (the payer picks the tokens "
        "when more than one set can pay: phase `pay`, block `pay_token`; its layouts add that block, "
        "`phase_pay` and the `pay_*` entries of `pending`, the default layouts are unchanged). "
        "`mk_env.mountain_king_v0` is retired: it refuses in one line, naming `mountain_king_v1`."),
    2: ("issue 52", "the recruit's pedestal follows the card's printed level, not its horde row (as the Ceremony "
        "of Ascension since v1): a Level-3 troll in any row chooses from the bag (or passes), the pedestal "
        "the refill dealt its Level-2-row slot going back to the bag first; a Level-2 troll in the top row "
        "gets no choice. Rows and levels differ only once a deck has run out; costs still follow the row. "
        "Same observation and action layouts as v1 (the fingerprints change with the name only); the golden "
        "games are unchanged (none recruits a troll outside its level's row with a pedestal at stake). "
        "`mk_env.mountain_king_v1` is retired."),
}

#: each version: {(players, board side): :func:`layout_fingerprint`} of the default configurations it was
#: released with (``tests/test_env_version.py`` checks the current version's)
PINNED_LAYOUTS: dict[int, dict[tuple[int, str], str]] = {
    0: {(2, "winter"): "b2f49509c7c29c00", (2, "autumn"): "33b3b1b18be41259",
        (3, "autumn"): "25ccd7548c176a8a", (4, "winter"): "c13808e8840263a6",
        (5, "winter"): "c9bd0e05c537da35"},
    1: {(2, "winter"): "1850f8b3b670d22f", (2, "autumn"): "3ba139a649b8d867",
        (3, "autumn"): "a084d7036f344afb", (4, "winter"): "426efd5af4e34532",
        (5, "winter"): "c0eff8745e6d04d5"},
    2: {(2, "winter"): "501a923768226502", (2, "autumn"): "caf32b8df1aa5235",
        (3, "autumn"): "d882314a4eb425d7", (4, "winter"): "7132c0d2bda20b49",
        (5, "winter"): "8218fa0a9ea03b75"},
}


def version_lines() -> str:
    """The Version history's list (markdown), newest last."""
    return shared_version_lines(VERSION_HISTORY)


#: what the fingerprint hashes, and its 16 hex digits (a model file records it; ``ppo:PATH`` refuses a game whose
#: fingerprint differs), computed as for every game (:mod:`mk_env.core.env.version`)
layout_description, layout_fingerprint = layout_functions(
    ENV_NAME, "mk_env.mountain_king.env.observation:Observer")
