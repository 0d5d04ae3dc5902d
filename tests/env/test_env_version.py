"""The version rule: the observation and action layouts of the default configurations are pinned to
the environment's version, so a change to them cannot slip through without a version bump; v1 kept v0's
layouts, and the retired v0 names refuse clearly."""

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


def test_v1_changed_the_rules_and_kept_v0s_layouts():
    """v1 (issue 16) changed rules, and the autumn side's map (its workshop sites, so the autumn layouts'
    dig and hall blocks): with v0's name, every winter layout hashes to v0's pin. The shipped policy
    (agents/checkpoints/default.safetensors, 2 players on winter, trained under v0) is described for v1
    on that ground; a v1 change to a winter layout must re-pin v1 and retrain or drop that claim."""
    from mk_env.core.env.version import fingerprint
    from mk_env.mountain_king.env.version import layout_description

    for (players, side), pinned in PINNED[0].items():
        description = layout_description(Game(players, board_side=side))
        if side == "autumn":  # redrawn in v1 (a fair 3-player table): its dig and hall blocks differ
            assert fingerprint({**description, "env": "mountain_king_v0"}) != pinned, (players, side)
            continue
        assert description["env"] == "mountain_king_v1"
        assert fingerprint({**description, "env": "mountain_king_v0"}) == pinned, (players, side)


def test_the_retired_v0_module_refuses_in_one_line_naming_v1():
    import mk_env.mountain_king_v0 as v0
    import mk_env.mountain_king_v1 as v1

    assert v1.ENV_NAME == ENV_NAME and v1.raw_env is aec.raw_env
    for name in ("env", "raw_env", "single_seat_env", "ENV_NAME", "layout_fingerprint"):
        with pytest.raises(v0.RetiredVersionError,
                           match=r"mountain_king_v0 is retired: .* use mk_env\.mountain_king_v1\."):
            getattr(v0, name)
    with pytest.raises(ImportError, match="mountain_king_v1"):
        from mk_env.mountain_king_v0 import env  # noqa: F401
    assert not hasattr(v0, "__wrapped__")  # other names are plain AttributeErrors (inspection tools probe them)


def test_gymnasium_refuses_the_v0_id_naming_v1():
    gymnasium = pytest.importorskip("gymnasium")
    import mk_env  # noqa: F401 - registers mk_env/MountainKing-v1

    with pytest.raises(gymnasium.error.DeprecatedEnv, match="MountainKing-v1"):
        gymnasium.make("mk_env/MountainKing-v0", num_players=2)


def test_pettingzoos_registry_refuses_v0_naming_v1():
    pettingzoo = pytest.importorskip("pettingzoo")
    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    import mk_env  # noqa: F401 - registers mountain_king_v1

    with pytest.raises(Exception, match="v0 .*Available version: v1"):
        pettingzoo.make("aec", "mountain_king_v0", num_players=2)
