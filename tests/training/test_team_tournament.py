"""Team play in `mk-env play --teams` and `mk-env tournament --teams` (ratings per team pairing)."""

from __future__ import annotations

import pytest

from training.cli import main
from training.tournament import parse_team, run_tournament, team_schedule


def test_team_schedule_seats_each_pairing_as_both_teams():
    jobs = team_schedule(["heuristic+random", "random"], games=4, seed=1)
    assert jobs[0]["agents"] == ["heuristic", "random", "random", "random"]
    assert jobs[0]["teams"] == ["heuristic+random", "random", "random", "heuristic+random"]
    assert jobs[1]["teams"][0] == "random" and jobs[1]["seed"] == jobs[0]["seed"]
    with pytest.raises(ValueError, match="AGENT\\+AGENT"):
        parse_team("a+b+c")


def test_team_tournament_rates_pairings(tmp_path):
    results = run_tournament(["heuristic+heuristic", "random+random"], 4, games=4, seed=0, workers=1,
                             out=tmp_path, progress=False, charts=False, teams=True)
    assert set(results["agents"]) == {"heuristic+heuristic", "random+random"}
    for g in results["games"]:
        assert g["options"]["team_mode"] is True
        assert g["ranks"][0] == g["ranks"][3] and g["ranks"][1] == g["ranks"][2]
        assert len(g["seat_agents"]) == 4
    assert results["agents"]["heuristic+heuristic"]["win_rate"] >= 0.75
    with pytest.raises(ValueError, match="exactly 4 players"):
        run_tournament(["random"], 2, games=2, out=tmp_path / "x", teams=True)


def test_play_teams_command(capsys):
    assert main(["play", "--teams", "--agents", "random,random,random,random", "--seed", "1"]) == 0
    assert main(["play", "--teams", "--agents", "random,random"]) == 2
    assert "team play is for 4 agents" in capsys.readouterr().err


def test_team_tournament_command(tmp_path, capsys):
    out = tmp_path / "teams"
    assert main(["tournament", "--teams", "--agents", "heuristic+random,random", "--games", "2",
                 "--workers", "1", "--out", str(out)]) == 0
    assert "heuristic+random" in capsys.readouterr().out
    assert main(["tournament", "--teams", "--agents", "heuristic+bogus,random", "--games", "2",
                 "--out", str(tmp_path / "bad")]) == 2
    assert "bogus" in capsys.readouterr().err
