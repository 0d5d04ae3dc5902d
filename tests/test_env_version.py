"""The version rule: the observation and action layouts of the default configurations are pinned to
the environment's version, so a change to them cannot slip through without a version bump."""

from __future__ import annotations

import pytest

from mk_env.env import aec
from mk_env.env.version import ENV_NAME, ENV_VERSION, layout_fingerprint
from mk_env.rules import ConfigError, Game

#: ENV_VERSION -> {(players, board side): layout fingerprint}; add a row when the version is bumped
PINNED = {
    0: {(2, "winter"): "b2f49509c7c29c00", (2, "autumn"): "33b3b1b18be41259",
        (3, "autumn"): "25ccd7548c176a8a", (4, "winter"): "c13808e8840263a6",
        (5, "winter"): "c9bd0e05c537da35"},
}

BUMP = ("the observation or action layout of {config} changed (fingerprint {got}, pinned {want} for "
        "v{version}). Any change to observations, actions, rules or rewards is a new environment "
        "version: bump ENV_VERSION in mk_env/env/version.py, add a line to the Version history of the "
        "mk_env/env/env_doc.py (then python -m mk_env.env.docs > docs/environment.md), and pin "
        "the new fingerprints in PINNED here under the new version. A refactor or a speed-up must "
        "leave them unchanged.")


def test_the_current_version_has_pinned_layouts():
    assert ENV_VERSION in PINNED, f"pin the layouts of v{ENV_VERSION} in PINNED (tests/test_env_version.py)"
    assert ENV_NAME == f"mountain_king_v{ENV_VERSION}"


@pytest.mark.parametrize("config", sorted(PINNED[ENV_VERSION]), ids=lambda c: f"{c[0]}p-{c[1]}")
def test_layout_fingerprint_is_pinned_to_the_version(config):
    players, side = config
    got = layout_fingerprint(Game(players, board_side=side))
    want = PINNED[ENV_VERSION][config]
    assert got == want, BUMP.format(config=f"{players} players, {side} side", got=got, want=want,
                                    version=ENV_VERSION)


def test_every_default_configuration_is_pinned():
    """Each player count with each board side it may use (a new side or count needs a pin too)."""
    allowed = set()
    for players in (2, 3, 4, 5):
        for side in ("winter", "autumn"):
            try:
                Game(players, board_side=side)
            except ConfigError:
                continue
            allowed.add((players, side))
    assert allowed == set(PINNED[ENV_VERSION]), "pin the layouts of every (players, board side)"


def test_the_new_options_leave_the_default_layout_alone():
    """Observation styles and team play change no layout: the team game shares the 4-player one."""
    assert layout_fingerprint(Game(4, team_mode=True)) == PINNED[ENV_VERSION][(4, "winter")]


def test_version_history_states_the_rule_and_the_current_version():
    doc = aec.__doc__
    history = doc[doc.index("## Version history"):]
    assert f"* v{ENV_VERSION} " in history, "add the current version's line to the Version history"
    assert "bumps the version" in history and "refactor" in history
