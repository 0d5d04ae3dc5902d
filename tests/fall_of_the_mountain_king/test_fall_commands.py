"""Every command with ``--game fall_of_the_mountain_king`` on a tiny budget: play (and its record), replay of the
record (text, and its --html page), tournament (results with Fall's categories and start places), soak
(invariants after every decision), bench (engine protocol costs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mk_env.fall_of_the_mountain_king.rules import CATEGORIES
from training.cli import main

GAME = "fall_of_the_mountain_king"


def test_play_prints_the_honor_by_category_and_the_record_replays(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture) -> None:
    record = tmp_path / "game.json"
    assert main(["play", "--game", GAME, "--agents", "heuristic,random,random", "--seed", "3",
                 "--replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert all(c in out for c in CATEGORIES) and "heuristic" in out and record.exists()
    assert main(["replay", "--game", GAME, str(record)]) == 0
    out = capsys.readouterr().out
    assert "Clan board" in out and "game over" in out and "final scores match the record" in out
    assert main(["replay", "--game", GAME, str(record), "--html", str(tmp_path / "g.html")]) == 0
    assert (tmp_path / "g.html").read_text(encoding="utf-8").startswith("<!doctype html>")


def test_play_with_six_agents_is_one_line(capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "--game", GAME, "--agents", ",".join(["random"] * 6)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "2 to 5 players" in err, err


def test_tournament_writes_results_with_the_games_categories(tmp_path: Path) -> None:
    out = tmp_path / "t"
    assert main(["tournament", "--game", GAME, "--players", "3", "--agents", "random,heuristic",
                 "--games", "3", "--workers", "1", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["config"]["game"] == GAME and len(results["games"]) == 3
    assert all(g["game"] == GAME and sorted(g["start_points"]) == [0, 1, 2] for g in results["games"])
    assert list(results["agents"]["heuristic"]["honour_breakdown"]) == list(CATEGORIES)


def test_soak_checks_every_decision_for_each_player_count(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["soak", "--game", GAME, "--games", "8", "--workers", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"soak of {GAME}: 8 games" in out and "0 failures" in out
    assert all(f"{n:>8} {2:>8}" in out for n in (2, 3, 4, 5))


def test_bench_reports_the_engine_and_the_env(capsys: pytest.CaptureFixture) -> None:
    assert main(["bench", "--game", GAME, "--players", "2", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    assert GAME in out
