"""The version rule: the observation and action layouts of the default configurations are pinned to
the environment's version, so a change to them cannot slip through without a version bump, and the shipped
policies are described only for versions that kept their layout (the retired versions' refusals, for every
game: tests/test_registration.py)."""

from __future__ import annotations

import pytest

from mk_env.mountain_king.env import aec
from mk_env.mountain_king.env.version import ENV_NAME, ENV_VERSION, PINNED_LAYOUTS, VERSION_HISTORY, layout_fingerprint
from mk_env.mountain_king.rules import ConfigError, Game

PINNED = PINNED_LAYOUTS

BUMP = ("the observation or action layout of {config} changed (fingerprint {got}, pinned {want} for "
        "v{version}). Any change to observations, actions, rules or rewards is a new environment "
        "version: in mk_env/mountain_king/env/version.py bump ENV_VERSION, add its line to VERSION_HISTORY and pin "
        "the new fingerprints in PINNED_LAYOUTS (then python -m mk_env.mountain_king.env.docs > docs/environment.md). "
        "A refactor or a speed-up must leave them unchanged.")


def test_the_current_version_has_pinned_layouts():
    assert ENV_VERSION in PINNED, f"pin the layouts of v{ENV_VERSION} in PINNED_LAYOUTS (mk_env/mountain_king/env/version.py)"
    assert max(VERSION_HISTORY) == ENV_VERSION, "add the current version's line to VERSION_HISTORY"
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


def test_the_shipped_policies_read_the_layout_of_every_version_they_were_described_for():
    """The shipped files (agents/checkpoints: ppo:default trained under v0, aznet:default under v1, both 2
    players on winter) are described for the current version because every version since kept the 2-player
    winter layout: under each earlier name the file records, today's layout hashes to that version's pin. A
    bump that changes that layout fails here: retrain the files or stop describing them for it."""
    from agents.policy_file import read_metadata
    from agents.ppo import DEFAULT_CHECKPOINT
    from mk_env.core.env.version import fingerprint
    from mk_env.mountain_king.env.version import layout_description

    description = layout_description(Game(2, board_side="winter"))
    for path in (DEFAULT_CHECKPOINT, DEFAULT_CHECKPOINT.with_name("aznet_default.safetensors")):
        config = read_metadata(path)
        assert (config["env"], config["layout_fingerprint"]) == (ENV_NAME, PINNED[ENV_VERSION][(2, "winter")])
        earlier = config.get("earlier_versions", []) + ([config["trained_under"]] if "trained_under" in config else [])
        assert earlier, path
        for record in earlier:
            version = int(record["env"].rpartition("_v")[2])
            assert record["layout_fingerprint"] == PINNED[version][(2, "winter")], (path, record["env"])
            assert fingerprint({**description, "env": record["env"]}) == record["layout_fingerprint"], path
