"""Bad game options get a clear error that names what is wrong and what is allowed (mk_env.rules.Game)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from mk_env.mountain_king.rules import ConfigError, Game, PackError
from mk_env.mountain_king.rules.pack import DEFAULT_PACK_DIR


@pytest.mark.parametrize("n", [6, 1, 0, -4, 7])
def test_player_count_outside_2_to_5_names_the_allowed_counts(n: int) -> None:
    with pytest.raises(ConfigError, match=rf"num_players={n} is not allowed.*2, 3, 4, 5 players"):
        Game(num_players=n)


@pytest.mark.parametrize("n", ["4", 4.0, True, None, [4]])
def test_player_count_must_be_an_int(n: object) -> None:
    with pytest.raises(ConfigError, match=r"num_players=.* is not allowed.*2, 3, 4, 5 players"):
        Game(num_players=n)  # type: ignore[arg-type]


def test_numpy_int_player_count_is_accepted() -> None:
    assert Game(num_players=np.int64(3)).num_players == 3


def test_team_mode_needs_four_players() -> None:
    for n in (2, 3, 5):
        with pytest.raises(ConfigError, match=rf"team_mode=True needs exactly 4 players, got num_players={n}"):
            Game(num_players=n, team_mode=True)
    assert Game(num_players=4, team_mode=True).team_mode


@pytest.mark.parametrize("n, side, allowed", [(4, "autumn", "winter"), (3, "winter", "autumn"),
                                              (2, "summer", "winter, autumn"), (5, 3, "winter")])
def test_bad_board_side_names_the_allowed_sides(n: int, side: object, allowed: str) -> None:
    with pytest.raises(ConfigError, match=rf"board_side={side!r} is not allowed for {n} players; allowed: {allowed}"):
        Game(num_players=n, board_side=side)  # type: ignore[arg-type]


def test_bad_workshop_selection_names_the_choices() -> None:
    with pytest.raises(ConfigError, match="workshops='all' is not allowed; use one of random, no_duplicates"):
        Game(num_players=2, workshops="all")


def test_workshop_list_of_wrong_length_says_how_many() -> None:
    with pytest.raises(ConfigError, match=r"needs 5 workshops for 2 players \(2 per player \+ 1\), got 3"):
        Game(num_players=2, workshops=["Toolforge", "Stonemill", "Coinpress"])


def test_unknown_workshop_name_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown workshop 'Bakery'; known: .*Cartwright.*Wheeljack"):
        Game(num_players=2, workshops=["Bakery", "Toolforge", "Stonemill", "Coinpress", "Cartwright"])


def test_workshop_chosen_more_often_than_the_game_has() -> None:
    with pytest.raises(ConfigError, match=r"'Toolforge' chosen 3 times; the game has 2"):
        Game(num_players=2, workshops=["Toolforge"] * 3 + ["Stonemill", "Coinpress"])


def test_a_valid_workshop_list_is_kept_in_the_options() -> None:
    chosen = ["Toolforge", "Toolforge", "Stonemill", "Coinpress", "Cartwright"]
    game = Game(num_players=2, workshops=chosen)
    assert game.options_dict()["workshops"] == chosen
    state = game.new_initial_state(3)
    names = [w.name for w in game.pack.workshops]
    assert sorted(n for w, n in zip(state.workshop_supply, names) for _ in range(int(w))) == sorted(chosen)


@pytest.mark.parametrize("value", [5, None, {"Toolforge": 1}])
def test_workshops_of_wrong_type_names_what_is_allowed(value: object) -> None:
    with pytest.raises(ConfigError, match=r"workshops.*random, no_duplicates|workshops.*list"):
        Game(num_players=2, workshops=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["foo", "teams", "players"])
def test_unknown_option_names_the_allowed_options(name: str) -> None:
    with pytest.raises(ConfigError, match=rf"unknown option.*'{name}'.*allowed: num_players, board_side, "
                                          rf"workshops, team_mode, pack"):
        Game(num_players=4, **{name: 1})


@pytest.mark.parametrize("value", ["false", "no", "True", 1, 2, None])
def test_team_mode_must_be_a_bool(value: object) -> None:
    """team_mode="false" must not turn team play on (bool("false") is True)."""
    with pytest.raises(ConfigError, match=rf"team_mode={value!r} is not allowed; use True or False"):
        Game(num_players=4, team_mode=value)  # type: ignore[arg-type]


def test_team_mode_accepts_numpy_bools() -> None:
    assert Game(num_players=4, team_mode=np.bool_(True)).team_mode
    assert not Game(num_players=4, team_mode=np.bool_(False)).team_mode


def test_missing_pack_folder_is_named() -> None:
    with pytest.raises(PackError, match=r"pack folder not found \(/no/such/pack\)"):
        Game(num_players=2, pack="/no/such/pack")


def _pack_copy(tmp_path: Path) -> Path:
    root = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, root)
    return root


def test_broken_pack_json_names_the_file(tmp_path: Path) -> None:
    root = _pack_copy(tmp_path)
    (root / "spells.json").write_text("{broken")
    with pytest.raises(PackError, match=r"spells\.json: line 1 .*bad JSON"):
        Game(num_players=2, pack=str(root))


def test_pack_with_a_missing_file_names_it(tmp_path: Path) -> None:
    root = _pack_copy(tmp_path)
    (root / "tunnels.json").unlink()
    with pytest.raises(PackError, match=r"tunnels\.json"):
        Game(num_players=2, pack=str(root))


def test_pack_with_a_bad_field_names_file_and_field(tmp_path: Path) -> None:
    root = _pack_copy(tmp_path)
    meta = json.loads((root / "pack.json").read_text())
    meta["supply"]["stone"] = -3
    (root / "pack.json").write_text(json.dumps(meta))
    with pytest.raises(PackError, match=r"pack\.json.*supply"):
        Game(num_players=2, pack=str(root))


def test_config_errors_are_value_errors() -> None:
    """Callers that catch ValueError (CLIs, env constructors) see every bad option."""
    assert issubclass(ConfigError, ValueError)
    for bad in ({"num_players": 6}, {"num_players": 4, "foo": 1}, {"num_players": 2, "board_side": "x"}):
        with pytest.raises(ValueError):
            Game(**bad)
