"""``mk-env tournament`` without ``--agents``: the game's quick table (random, heuristic and, at 2 players, the
first game's shipped network), ending with the command of the game's whole ladder (issue 53, item 3)."""

from __future__ import annotations

import json

import pytest

from mk_env.games import GAMES, game_names
from training.cli import main
from training.tournament import ladder_command, parse_agents


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("players", [2, 3])
def test_every_game_has_a_quick_table_and_a_ladder_of_valid_specs(game: str, players: int) -> None:
    entry = GAMES[game]
    quick, ladder = entry.quick_table(players), entry.ladder_table(players)
    assert quick[:2] == ("random", "heuristic") and set(quick) <= set(entry.ladder)
    assert parse_agents(",".join(ladder)) == list(ladder)  # every rung is an agent spec the CLI takes
    assert players == 2 or not set(ladder) & set(entry.networks)  # the 2-player networks sit out other tables


def test_no_agents_plays_the_quick_table_and_prints_the_ladder(tmp_path, capsys) -> None:
    out = tmp_path / "t"
    assert main(["tournament", "--games", "6", "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    results = json.loads((out / "results.json").read_text())
    assert results["config"]["agents"] == ["random", "heuristic", "aznet:default"]
    assert "that was the quick table" in printed
    assert ("mk-env tournament --game mountain_king --players 2 --agents "
            "random,heuristic,aznet:default,mcts:16,az:default --games 96 --out runs/ladder") in printed


def test_the_quick_table_of_4_players_leaves_the_2_player_network_out(tmp_path) -> None:
    out = tmp_path / "t4"
    assert main(["tournament", "--players", "4", "--games", "2", "--workers", "1", "--out", str(out)]) == 0
    assert json.loads((out / "results.json").read_text())["config"]["agents"] == ["random", "heuristic"]
    assert "aznet" not in ladder_command("mountain_king", 4) and "az:" not in ladder_command("mountain_king", 4)


def test_cave_troll_quick_table_and_ladder() -> None:
    assert GAMES["cave_troll"].quick_table(2) == ("random", "heuristic")
    assert ladder_command("cave_troll", 3).endswith("--agents random,heuristic,mcts:16 --games 96 --out runs/ladder")
