"""Every command with ``--game cave_troll`` on a tiny budget: play, tournament (results file, charts,
ratings), soak (invariants after every decision, failure records that replay), bench; train's
rllib backend refuses the game in one line (Cave Troll training: tests/training/test_cave_troll_train.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mk_env.cave_troll.rules.invariants as ct_invariants
from mk_env.cave_troll.rules import CATEGORIES
from training.cli import main
from training.soak import soak


def _one_line_error(capsys: pytest.CaptureFixture, command: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and err.startswith(f"mk-env {command}: error: "), err
    return err


def test_play_cave_troll_prints_the_gold_by_category(capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "--game", "cave_troll", "--agents", "heuristic,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Cave Troll, seed 3" in out
    assert all(c in out for c in CATEGORIES) and "heuristic" in out


@pytest.mark.parametrize("argv, says", [
    (["--agents", "random,random,random,random,random"], "the game is for 2 to 4 players, got 5 agents"),
    (["--agents", "random,random", "--board-side", "A"], "--board-side is not an option of cave_troll"),
    (["--agents", "random,random,random,random", "--teams"], "--teams is not an option of cave_troll"),
])
def test_play_cave_troll_misuse_is_one_line(argv: list[str], says: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "--game", "cave_troll", *argv]) == 2
    assert says in _one_line_error(capsys, "play")


def test_an_unknown_game_is_one_line(capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "--game", "chess", "--agents", "random,random"]) == 2
    assert "invalid choice: 'chess'" in _one_line_error(capsys, "play")


def test_tournament_of_cave_troll_writes_results_charts_and_ratings(tmp_path: Path) -> None:
    out = tmp_path / "t"
    assert main(["tournament", "--game", "cave_troll", "--players", "4", "--agents", "random,heuristic,mcts:2",
                 "--games", "4", "--workers", "1", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["config"]["game"] == "cave_troll"
    assert len(results["games"]) == 4 and all(g["game"] == "cave_troll" for g in results["games"])
    for spec in ("random", "heuristic", "mcts:2"):
        stats = results["agents"][spec]
        assert stats["games"] > 0 and "rating_mu" in stats
        assert list(stats["honour_breakdown"]) == list(CATEGORIES)
    first = results["games"][0]
    assert sorted(first["start_points"]) == [0, 1, 2, 3]  # places in the turn order
    assert (out / "ratings.png").stat().st_size > 0 and (out / "scores.png").stat().st_size > 0


def test_a_tournament_folder_of_one_game_is_not_resumed_as_another(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "t"
    assert main(["tournament", "--game", "cave_troll", "--agents", "random,heuristic", "--games", "2",
                 "--workers", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["tournament", "--agents", "random,heuristic", "--games", "2", "--workers", "1",
                 "--out", str(out)]) == 2
    assert "holds a tournament with other settings" in _one_line_error(capsys, "tournament")


def test_soak_of_cave_troll_checks_every_decision(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["soak", "--game", "cave_troll", "--games", "6", "--workers", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "soak of cave_troll: 6 games" in out and "0 failures" in out
    assert all(f"{n:>8} {2:>8}" in out for n in (2, 3, 4))  # each player count twice
    assert "uniform" in out and "busy" in out and "move" in out


def test_soak_of_cave_troll_refuses_five_players() -> None:
    with pytest.raises(ValueError, match="one of 2, 3, 4"):
        soak(1, 5, game="cave_troll")


def test_a_cave_troll_soak_failure_has_a_record_that_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture) -> None:
    """A planted invariant that breaks on the fifth turn: the soak reports it and saves a record;
    ``soak --replay`` reproduces it, and with the real checker plays the game through clean."""
    real = ct_invariants.check

    def broken(state) -> None:
        real(state)
        if state.turn >= 4:
            raise ct_invariants.InvariantError("planted: turn 5 reached")

    monkeypatch.setattr(ct_invariants, "check", broken)
    report = soak(2, 2, seed=1, workers=1, out=tmp_path, game="cave_troll")
    assert len(report.failures) == 2
    failure = report.failures[0]
    assert "planted" in failure.error and failure.record_path
    record = json.loads(Path(failure.record_path).read_text())
    assert record["game"] == "cave_troll" and len(record["actions"]) == failure.decision
    assert main(["soak", "--replay", failure.record_path]) == 1
    assert "reproduced: InvariantError: planted" in capsys.readouterr().out
    monkeypatch.setattr(ct_invariants, "check", real)
    assert main(["soak", "--replay", failure.record_path]) == 0
    assert "no failure" in capsys.readouterr().out


def test_bench_of_cave_troll_measures_env_engine_and_copies(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    assert main(["bench", "--game", "cave_troll", "--players", "2", "--seconds", "0.05", "--json", str(path)]) == 0
    report = json.loads(path.read_text())
    fig = report["players"]["2"]
    assert report["game"] == "cave_troll"
    assert fig["env"]["steps"] > 0 and fig["engine"]["decisions_per_s"] > 0
    assert {"clone_us", "json_save_us", "json_load_us", "mask_us"} <= set(fig["ops"])


@pytest.mark.parametrize("argv", [["train", "--game", "cave_troll", "--backend", "rllib"],
                                  ["bench", "--game", "cave_troll", "--players", "5"]])
def test_commands_that_do_not_serve_cave_troll_say_so_in_one_line(argv: list[str],
                                                                  capsys: pytest.CaptureFixture) -> None:
    assert main(argv) == 2
    err = _one_line_error(capsys, argv[0])
    assert "mountain_king only" in err or "is for 2, 3, 4 players" in err
