"""``benchmarks/mechanic_use.py``: the usage tables count what the games did, and a run resumes."""

from __future__ import annotations

import json

import pytest

from script_loader import load_script

mechanic_use = load_script("benchmarks/mechanic_use.py")


def test_counts_match_the_game_played(tmp_path):
    """Every decision is counted in one block, and the points of each category add up to the seats' totals."""
    out = tmp_path / "run.json"
    assert mechanic_use.main(["--game", "cave_troll", "--players", "2", "--agents", "random", "--games", "2",
                              "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    for g in data["games"]:
        assert sum(g["blocks"].values()) == g["decisions"]
        for seat in g["scores"]:
            assert sum(v for k, v in seat.items() if k != "total") == seat["total"]
    assert data["summary"]["games"] == 2


def test_scoring_events_count_the_decisions_that_scored():
    """Fall of the Mountain King: a battle won scores honor at once, so ``battle`` events are battles won."""
    from mk_env.games import make_game
    from training.play import run_game

    game = make_game("fall_of_the_mountain_king", 3)
    actions: list[int] = []
    state = run_game(["heuristic"] * 3, 0, game=game, actions=actions)
    events, _ = mechanic_use.replay_counts(game, 0, actions)
    battle = sum(state.score_breakdown(p)["battle"] for p in range(3))
    assert (events.get("battle", 0) > 0) == (battle > 0)
    assert events.get("battle", 0) <= battle  # each battle won scores at least 1


def test_a_run_resumes_and_refuses_another_run(tmp_path, capsys):
    out = tmp_path / "run.json"
    args = ["--game", "cave_troll", "--players", "2", "--agents", "random", "--json", str(out)]
    mechanic_use.main([*args, "--games", "1"])
    first = json.loads(out.read_text())["games"]
    mechanic_use.main([*args, "--games", "3"])
    assert "2 games to play (1 already in" in capsys.readouterr().err
    games = json.loads(out.read_text())["games"]
    assert [g["seed"] for g in games] == [0, 1, 2] and games[0] == first[0]
    with pytest.raises(SystemExit):
        mechanic_use.main(["--game", "cave_troll", "--players", "3", "--agents", "random", "--json", str(out)])
    assert "holds a run of" in capsys.readouterr().err
