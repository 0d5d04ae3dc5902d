"""benchmarks/search_scaling.py: budgets and their doubles, seat-rotated pairings on shared seeds, a shared
first place counted half, a results file that resumes, bad arguments refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script_loader import load_script


@pytest.fixture(scope="module")
def scaling():
    return load_script("benchmarks/search_scaling.py")


def test_a_budget_and_its_double(scaling) -> None:
    assert scaling.parse_budget("16") == ("16", "32")
    assert scaling.parse_budget("0.5s") == ("0.5s", "1s")
    for bad in ("0", "-1s", "fast"):
        with pytest.raises(SystemExit, match="positive number"):
            scaling.parse_budget(bad)


def test_pairings_against_the_heuristic_and_against_itself(scaling) -> None:
    assert scaling.pairings(["8", "1s"], "workers=2", "both") == [
        ("mcts:8?workers=2", "heuristic"), ("mcts:16?workers=2", "mcts:8?workers=2"),
        ("mcts:1s?workers=2", "heuristic"), ("mcts:2s?workers=2", "mcts:1s?workers=2")]
    assert scaling.pairings(["8"], "", "self") == [("mcts:16", "mcts:8")]


@pytest.mark.parametrize("ranks, seat, score", [([0, 1], 0, 1.0), ([0, 1], 1, 0.0), ([1, 0], 1, 1.0),
                                                ([0, 0], 1, 0.5)])
def test_the_first_side_scores_a_win_a_loss_or_half_a_shared_first_place(scaling, ranks, seat, score) -> None:
    assert scaling.first_side_score({"ranks": ranks, "first_seat": seat}) == score


def test_a_run_plays_seat_rotated_games_and_resumes(scaling, tmp_path: Path, capsys) -> None:
    results = tmp_path / "scaling.jsonl"
    argv = ["--budgets", "1", "--games", "2", "--game", "cave_troll", "--against", "heuristic", "--seed", "3",
            "--results", str(results)]
    assert scaling.main(argv) == 0
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["game"], r["seed"], r["first_seat"]) for r in records] == [(0, 3, 0), (1, 3, 1)]
    assert [r["agents"] for r in records] == [["mcts:1", "heuristic"], ["heuristic", "mcts:1"]]
    out = capsys.readouterr().out
    assert "mcts:1 vs heuristic" in out and "%" in out
    assert scaling.main(argv + ["--games", "2"]) == 0  # nothing left to play: the file is unchanged
    assert len(results.read_text().splitlines()) == 2
    assert "2 games already" in capsys.readouterr().err


def test_bad_arguments_are_refused_in_one_line(scaling, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown option"):
        scaling.main(["--budgets", "4", "--options", "threads=2", "--results", str(tmp_path / "r.jsonl")])
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"pairing": "x"\n')
    with pytest.raises(SystemExit, match="line 1 is not JSON"):
        scaling.read_results(broken)
