"""``mk-env tournament``: schedule, resuming, determinism across workers, results and charts."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import training.tournament as tour
from training.cli import main
from training.ratings import wilson_interval
from training.tournament_schedule import matches, schedule
from tournament_checks import strip

AGENTS = ["random", "heuristic"]


def test_seats_rotate_with_duplicate_seeds():
    jobs = schedule(AGENTS, players=4, games=8, seed=1)
    seats = Counter((spec, p) for j in jobs for p, spec in enumerate(j["agents"]))
    assert len(set(seats.values())) == 1 and len(seats) == 8  # each agent each seat equally
    assert jobs[0]["seed"] == jobs[1]["seed"] != jobs[4]["seed"]
    assert jobs[2]["seed"] != jobs[0]["seed"]  # R H R H rotated twice is the same seating
    two = schedule(AGENTS, players=2, games=4, seed=1)
    assert two[0]["seed"] == two[1]["seed"] != two[2]["seed"]
    assert [j["agents"] for j in jobs[:2]] == [AGENTS * 2, AGENTS[::-1] * 2]


def test_more_agents_than_seats_play_a_round_robin():
    lineups = matches(["a", "b", "c"], 2)
    assert lineups == [("a", "b"), ("a", "c"), ("b", "c")]
    jobs = schedule(["a", "b", "c"], players=2, games=6, seed=0)
    assert Counter(tuple(sorted(j["agents"])) for j in jobs) == Counter(
        {("a", "b"): 2, ("a", "c"): 2, ("b", "c"): 2})


def test_results_have_ratings_win_rates_breakdowns_and_charts(tmp_path):
    res = tour.run_tournament(AGENTS, 2, 4, seed=0, workers=1, out=tmp_path, progress=False)
    on_disk = json.loads((tmp_path / "results.json").read_text())
    assert on_disk["agents"].keys() == set(AGENTS)
    h = on_disk["agents"]["heuristic"]
    for key in ("rating_mu", "rating_sigma", "win_rate", "win_rate_ci95", "mean_rank", "mean_honour",
                "honour_breakdown", "per_seat", "per_start_point", "head_to_head"):
        assert key in h
    assert h["rating_mu"] > on_disk["agents"]["random"]["rating_mu"]
    assert h["head_to_head"]["random"]["pairs"] == 4 and h["head_to_head"]["random"]["beats_rate"] >= 0.75
    assert len(on_disk["games"]) == 4 and [g["index"] for g in res["games"]] == [0, 1, 2, 3]
    assert set(on_disk["balance"]) == {"per_seat", "per_start_point"}
    assert (tmp_path / "ratings.png").stat().st_size > 1000
    assert (tmp_path / "scores.png").stat().st_size > 1000


def test_a_shared_first_place_splits_the_win_so_win_rates_add_up():
    """Two seats tied first each count half a win (as the balance report and the docs count them); in a
    team game the winning team's two seats share one rank and each counts a whole win for the pairing."""
    from training.ratings import summarize, win_shares

    bd = {"total": 100}
    tied = {"index": 0, "agents": ["a", "b"], "ranks": [0, 0], "scores": [bd, bd], "start_points": [0, 1]}
    won = {"index": 1, "agents": ["b", "a"], "ranks": [1, 0], "scores": [bd, bd], "start_points": [0, 1]}
    out = summarize([tied, won], ["a", "b"])
    assert out["a"]["wins"] == 1.5 and out["b"]["wins"] == 0.5
    assert out["a"]["win_rate"] + out["b"]["win_rate"] == pytest.approx(1.0)
    assert out["a"]["per_seat"]["0"]["wins"] == 0.5 and out["a"]["per_seat"]["1"]["wins"] == 1.0
    team = {"ranks": [0, 1, 1, 0], "seat_agents": ["x"] * 4}
    assert win_shares(team) == [1.0, 0.0, 0.0, 1.0]
    assert win_shares({**team, "ranks": [0, 0, 0, 0]}) == [0.5] * 4


def test_interrupted_tournament_resumes_without_replaying(tmp_path, monkeypatch):
    """A torn last line (a write cut short) is dropped with a warning and its game played again; the
    game played after it lands on a line of its own, so a second resume finds every game."""
    full = tour.run_tournament(AGENTS, 2, 6, seed=3, workers=1, out=tmp_path / "a", progress=False,
                               charts=False)
    out = tmp_path / "b"
    tour.run_tournament(AGENTS, 2, 6, seed=3, workers=1, out=out, progress=False, charts=False)
    lines = (out / "games.jsonl").read_text().splitlines()
    (out / "games.jsonl").write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])  # torn write
    calls = []
    real = tour.play_game
    monkeypatch.setattr(tour, "play_game", lambda *a: calls.append(a) or real(*a))
    with pytest.warns(RuntimeWarning, match="line 4: dropped a torn last line"):
        resumed = tour.run_tournament(AGENTS, 2, 6, seed=3, workers=1, out=out, progress=False,
                                      charts=False)
    assert len(calls) == 3
    assert strip(resumed)["games"] == strip(full)["games"]
    assert strip(resumed)["agents"] == strip(full)["agents"]
    indices = [json.loads(line)["index"] for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(indices) == list(range(6))  # nothing swallowed, nothing doubled
    again = tour.run_tournament(AGENTS, 2, 6, seed=3, workers=1, out=out, progress=False, charts=False)
    assert len(calls) == 3 and strip(again)["games"] == strip(full)["games"]


def test_lines_that_are_not_games_of_this_schedule_are_dropped_and_replayed(tmp_path):
    full = tour.run_tournament(AGENTS, 2, 4, seed=5, workers=1, out=tmp_path / "a", progress=False,
                               charts=False)
    out = tmp_path / "b"
    tour.run_tournament(AGENTS, 2, 4, seed=5, workers=1, out=out, progress=False, charts=False)
    lines = (out / "games.jsonl").read_text().splitlines()
    other_seed = json.dumps({**json.loads(lines[1]), "seed": 1})
    (out / "games.jsonl").write_text("\n".join([lines[0], lines[0], "{not json", other_seed, '{"index": 2}',
                                                lines[3]]) + "\n")
    with pytest.warns(RuntimeWarning) as caught:
        resumed = tour.run_tournament(AGENTS, 2, 4, seed=5, workers=1, out=out, progress=False,
                                      charts=False)
    messages = " | ".join(str(w.message) for w in caught)
    for problem in ("a second record of game 0", "not JSON", "game 1 with other seats or seed",
                    "not a game record"):
        assert problem in messages
    assert strip(resumed)["games"] == strip(full)["games"]
    assert sorted(json.loads(x)["index"] for x in (out / "games.jsonl").read_text().splitlines()) == [0, 1, 2, 3]


def test_same_seed_same_results_whatever_the_workers(tmp_path):
    one = tour.run_tournament(["random", "heuristic"], 2, 6, seed=9, workers=1, out=tmp_path / "1",
                              progress=False, charts=False)
    two = tour.run_tournament(["random", "heuristic"], 2, 6, seed=9, workers=2, out=tmp_path / "2",
                              progress=False, charts=False)
    assert strip(one)["agents"] == strip(two)["agents"]
    assert strip(one)["games"] == strip(two)["games"]


def test_other_settings_in_the_same_folder_are_refused(tmp_path):
    tour.run_tournament(AGENTS, 2, 2, seed=0, workers=1, out=tmp_path, progress=False, charts=False)
    with pytest.raises(ValueError, match="other settings"):
        tour.run_tournament(AGENTS, 2, 2, seed=1, workers=1, out=tmp_path, progress=False)


def test_wilson_interval():
    lo, hi = wilson_interval(9, 10)
    assert lo == pytest.approx(0.596, abs=1e-3) and hi == pytest.approx(0.982, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(180, 200)  # brackets the rate, narrower with more games
    assert lo < 0.9 < hi and 0.85 < lo


def test_tournament_cli_prints_a_leaderboard(tmp_path, capsys):
    rc = main(["tournament", "--agents", "random,heuristic", "--games", "2", "--workers", "1",
               "--out", str(tmp_path)])
    assert rc == 0
    out = capsys.readouterr().out
    assert "Leaderboard" in out and "heuristic" in out
    assert main(["tournament", "--agents", "random,random", "--out", str(tmp_path / "x")]) == 2
    assert "each agent may be listed once" in capsys.readouterr().err


def test_unknown_backend_is_refused(tmp_path):
    from training.tournament import run_tournament
    with pytest.raises(ValueError, match="allowed: local, ray"):
        run_tournament(["random"], 2, 2, out=tmp_path, backend="spark", progress=False)
