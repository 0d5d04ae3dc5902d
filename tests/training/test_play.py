"""``mk-env play``: one game, reproducible, with a replayable record."""

from __future__ import annotations

from mk_env.records import final_state, load_record
from training.cli import main
from training.play import run_game


def test_same_seed_same_game():
    a = run_game(["heuristic", "random", "heuristic"], seed=7)
    b = run_game(["heuristic", "random", "heuristic"], seed=7)
    assert a.history == b.history
    assert a.ranks() == b.ranks()


def test_play_cli_prints_scores_and_saves_a_replayable_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert main(["play", "--agents", "heuristic,random", "--seed", "2", "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "total" in out
    record = load_record(path)
    assert record.agents == ["heuristic", "random"] and record.seed == 2
    end = final_state(record)
    again = run_game(["heuristic", "random"], seed=2)
    assert end.history == again.history
    assert [end.score_breakdown(p) for p in range(2)] == [again.score_breakdown(p) for p in range(2)]


def test_play_cli_refuses_unknown_agents(capsys):
    assert main(["play", "--agents", "heuristic,grandmaster"]) == 2
    assert "mk-env play: error: unknown agent spec 'grandmaster'" in capsys.readouterr().err


def test_play_cli_refuses_bad_player_counts(capsys):
    assert main(["play", "--agents", "random"]) == 2
    assert "2 to 5 players" in capsys.readouterr().err
