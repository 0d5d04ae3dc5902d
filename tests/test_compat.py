"""The first game's old import paths (``mk_env.rules``, ``mk_env.env``) name the very modules of its new
home (``mk_env.mountain_king``), so users' code, ``isinstance`` checks and old pickles keep working."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import mk_env
import mk_env.mountain_king.rules.state as new_state
from mk_env.mountain_king.env.version import ENV_NAME
from mk_env.mountain_king.rules import Game

versioned = importlib.import_module(f"mk_env.{ENV_NAME}")  # mk_env.mountain_king_v<N>


def test_an_old_path_is_the_same_module_object_as_the_new_one():
    for old, new in [("mk_env.rules", "mk_env.mountain_king.rules"), ("mk_env.env", "mk_env.mountain_king.env"),
                     ("mk_env.rules.state", "mk_env.mountain_king.rules.state"),
                     ("mk_env.rules.pack.fields", "mk_env.mountain_king.rules.pack.fields"),
                     ("mk_env.env.aec", "mk_env.mountain_king.env.aec")]:
        assert importlib.import_module(old) is importlib.import_module(new), old
    from mk_env.rules.state import GameState

    assert GameState is new_state.GameState
    assert isinstance(Game(num_players=2).new_initial_state(seed=1), GameState)


def test_an_aliased_module_keeps_its_own_name_and_spec():
    module = importlib.import_module("mk_env.rules.scoring")
    assert module.__name__ == module.__spec__.name == "mk_env.mountain_king.rules.scoring"


def test_old_paths_work_in_a_fresh_process_imported_before_the_new_ones():
    code = ("from mk_env.env.aec import raw_env; from mk_env.rules import GameState; import mk_env.mountain_king.env.aec"
            " as a, mk_env.mountain_king.rules as r; assert raw_env is a.raw_env and GameState is r.GameState")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_pickle_naming_the_old_module_path_loads_the_same_class():
    state = Game(num_players=2, backend="python").new_initial_state(seed=3)  # old pickles are of the Python state
    data = pickle.dumps(state, protocol=2).replace(b"mk_env.mountain_king.rules.", b"mk_env.rules.")
    assert b"mk_env.rules.state" in data
    loaded = pickle.loads(data)
    assert type(loaded) is new_state.GameState and loaded.to_json() == state.to_json()


def test_mk_env_env_is_still_the_first_games_factory_and_pickles_by_name():
    assert mk_env.env is importlib.import_module("mk_env.mountain_king.env")
    assert pickle.loads(pickle.dumps(mk_env.env)) is mk_env.env
    assert mk_env.raw_env is versioned.raw_env and mk_env.single_seat_env is versioned.single_seat_env
    env = mk_env.env(num_players=2)
    env.reset(seed=0)
    assert env.unwrapped.__class__ is versioned.raw_env


def test_the_shared_pieces_keep_their_old_names_as_the_same_objects():
    from mk_env.core import errors, pack_json
    from mk_env.core.env import safety, wrappers
    from mk_env.env import aec
    from mk_env.env import wrappers as old_wrappers
    from mk_env.rules import ConfigError, IllegalActionError, PackError, StateError
    from mk_env.rules.pack import fields

    assert (IllegalActionError, ConfigError, StateError, PackError) == (
        errors.IllegalActionError, errors.ConfigError, errors.StateError, errors.PackError)
    assert fields.read_object is pack_json.read_object and fields.PackError is PackError
    assert aec._OrderWrapper is safety._OrderWrapper and aec.warn_illegal_action is safety.warn_illegal_action
    assert old_wrappers.FlattenObservation is wrappers.FlattenObservation
    from mk_env.cave_troll import env as cave_troll_env

    assert type(cave_troll_env.env(num_players=2)) is type(mk_env.env(num_players=2)) is safety._OrderWrapper
