"""Every game of the card is registered and versioned the same way: its PettingZoo id and Gymnasium id on a
plain ``import mk_env``, its versioned module ``mk_env.<game>_v<N>`` naming its factories, the older
versions retired with a one-line refusal naming the current one. The ids are read from each game's
``ENV_VERSION``, so a version bump is that one line (:mod:`mk_env.versioned`)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import gymnasium
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env

import mk_env
from mk_env.core.env.lazy import VERSIONED_EXPORTS
from mk_env.core.errors import RetiredVersionError
from mk_env.games import GAMES, game_name, load

ENTRIES = list(GAMES.values())
IDS = [e.name for e in ENTRIES]


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_the_versioned_module_names_the_env_packages_factories(entry):
    module = importlib.import_module(f"mk_env.{entry.env_name()}")
    package = importlib.import_module(entry.env)
    for name in VERSIONED_EXPORTS:
        assert getattr(module, name) is getattr(package, name), name
    assert module.ENV_NAME == entry.env_name() == load(f"{entry.version_module}:ENV_NAME")
    assert getattr(mk_env, entry.env_name()) is module  # ``mk_env.<game>_v<N>`` without importing it first


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_pettingzoo_makes_every_game_by_its_current_id(entry):
    players = entry.player_counts[0]
    env = pettingzoo.make("aec", entry.env_name(), num_players=players)
    env.reset(seed=1)
    assert str(env) == entry.env_name()
    assert env.unwrapped.game.num_players == players and game_name(env.unwrapped.game) == entry.name


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_gymnasium_makes_every_game_by_its_current_id_and_the_checker_passes(entry):
    env = gymnasium.make(entry.gymnasium_id(), num_players=entry.player_counts[0])
    assert type(env.unwrapped) is load(entry.single_seat)
    check_env(env.unwrapped, skip_render_check=True)
    vector = gymnasium.make_vec(entry.gymnasium_id(), num_envs=2, num_players=entry.player_counts[0])
    observations, _ = vector.reset(seed=3)
    assert len(vector.call("action_masks")) == 2
    vector.close()


def test_a_plain_import_registers_every_game_without_importing_any_environment():
    code = ("import sys, gymnasium, pettingzoo, mk_env; from mk_env.games import GAMES\n"
            "loaded = [m for m in sys.modules if m.endswith(('.aec', '.single_seat', '.observation'))]\n"
            "assert not loaded, loaded\n"
            "ids = {s.entry_point for s in pettingzoo.aec_registry.values()}\n"
            "assert all(e.env + '.aec:env' in ids and e.gymnasium_id() in gymnasium.registry\n"
            "           for e in GAMES.values())\n")
    subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code], check=True, timeout=300)


def test_a_plain_import_registers_every_games_ids_in_a_fresh_process():
    code = ("import gymnasium, pettingzoo, mk_env; from mk_env.games import GAMES\n"
            "for e in GAMES.values():\n"
            "    gymnasium.make(e.gymnasium_id(), num_players=e.player_counts[0]).reset(seed=0)\n"
            "    pettingzoo.make('aec', e.env_name(), num_players=e.player_counts[0]).reset(seed=0)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_every_older_version_is_retired_and_refuses_naming_the_current_one(entry):
    current = entry.env_version()
    for old in range(current):
        module = importlib.import_module(f"mk_env.{entry.env_name(old)}")
        for name in VERSIONED_EXPORTS:
            with pytest.raises(RetiredVersionError, match=rf"{entry.env_name(old)} is retired: .* use "
                                                          rf"mk_env\.{entry.env_name()}\.{name}\b"):
                getattr(module, name)
        assert isinstance(RetiredVersionError(""), ImportError)
        with pytest.raises(gymnasium.error.DeprecatedEnv, match=entry.gymnasium_id()):
            gymnasium.make(entry.gymnasium_id(old), num_players=entry.player_counts[0])
        with pytest.raises(Exception, match=f"v{old} .*Available version: v{current}"):
            pettingzoo.make("aec", entry.env_name(old), num_players=entry.player_counts[0])
        with pytest.raises(ImportError, match=entry.env_name()):
            exec(f"from mk_env.{entry.env_name(old)} import env")  # noqa: S102
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"mk_env.{entry.env_name(current + 1)}")


def test_names_that_are_not_a_games_version_are_not_modules():
    for name in ("mk_env.chess_v0", "mk_env.cave_troll_v", "mk_env.cave_troll_v01", "mk_env.cave_troll_vx"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(name)
    with pytest.raises(AttributeError):
        mk_env.chess_v0  # noqa: B018


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_the_current_version_has_its_history_line_and_pinned_layouts(entry):
    """The version rule for every game: the current version has a Version history line and the layouts of its
    default configurations pinned, and each player count's layout is its pin (a layout change without a bump,
    or a bump without pins, fails here)."""
    version = load(entry.version_module)
    assert max(version.VERSION_HISTORY) == version.ENV_VERSION == entry.env_version()
    assert version.ENV_VERSION in version.PINNED_LAYOUTS, f"pin v{version.ENV_VERSION}'s layouts"
    pins = version.PINNED_LAYOUTS[version.ENV_VERSION]
    for key, pinned in pins.items():
        players, options = (key, {}) if isinstance(key, int) else (key[0], {"board_side": key[1]})
        assert version.layout_fingerprint(entry.make(players, **options)) == pinned, (entry.name, key)
    assert {k if isinstance(k, int) else k[0] for k in pins} == set(entry.player_counts)
