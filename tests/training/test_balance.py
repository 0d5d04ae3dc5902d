"""``mk-env balance``: ties split, flags and verdict, the book's facts, resuming, refusals."""

from __future__ import annotations

import json

import pytest

from mk_env.mountain_king.rules import Game
from training import balance as bal
from training.balance_report import furthest_seat
from training.cli import main
from training.play import run_game
from training.ratings import wilson_interval, win_shares


def record(ranks: list[int], starts: list[int], totals: list[int] | None = None, capped: int | None = None,
           held: list[int] | None = None, leftovers: list[int] | None = None, ended: int | None = None) -> dict:
    """A synthetic games.jsonl record of a balance run."""
    n = len(ranks)
    totals = totals or [100] * n
    leftovers = leftovers or [0] * n
    return {"index": 0, "agents": ["heuristic"] * n, "seed": 0, "ranks": ranks, "start_points": starts,
            "scores": [{"leftover_sets": leftovers[p], "total": totals[p]} for p in range(n)],
            "first_capped": capped, "triggered_end": ended, "resources_end": held or [0] * n}


def test_a_tied_win_is_shared_between_the_winners():
    assert win_shares({"ranks": [0, 0, 2, 3]}) == [0.5, 0.5, 0.0, 0.0]
    assert win_shares({"ranks": [1, 0]}) == [0.0, 1.0]
    out = bal.report([record([0, 0, 2, 3], [0, 1, 2, 3])], 4)
    assert [out["per_seat"][str(p)]["wins"] for p in range(4)] == [0.5, 0.5, 0.0, 0.0]


def test_seats_and_start_points_within_the_threshold_are_fair():
    # 2 players over 40 games: each seat wins 20, start points 0 and 1 win 19 and 21 of 40 (47.5%, 52.5%)
    games = [record([0, 1] if i % 2 else [1, 0], [0, 1] if i < 21 else [1, 0]) for i in range(40)]
    out = bal.report(games, 2)
    assert out["per_seat"]["0"]["win_rate"] == 0.5 and out["per_seat"]["0"]["games"] == 40
    assert out["per_start_point"]["0"]["win_rate"] == pytest.approx(0.475)
    assert not any(r["flagged"] for kind in ("per_seat", "per_start_point") for r in out[kind].values())
    assert out["fair"] and out["verdict"].startswith("FAIR: every seat and start point within 5 points of 50.0%")
    lo, hi = out["per_seat"]["0"]["win_rate_ci95"]
    assert lo < 0.5 < hi


def test_a_seat_beyond_the_threshold_is_flagged_with_its_interval():
    # seat 0 wins 14 of 20 games (70%): 20 points over the fair 50%
    games = [record([0, 1] if i < 14 else [1, 0], [0, 1], totals=[110, 90]) for i in range(20)]
    out = bal.report(games, 2)
    seat0 = out["per_seat"]["0"]
    assert seat0["flagged"] and seat0["off_fair"] == pytest.approx(0.2) and seat0["mean_honour"] == 110
    assert not out["fair"]
    assert out["verdict"].startswith("UNFAIR: seat 0 70.0% (CI ") and "start point 0 70.0%" in out["verdict"]
    wide = bal.report(games, 2, threshold=0.25)
    assert wide["fair"] and wide["threshold"] == 0.25


def test_each_seats_honour_margin_over_the_others_has_an_interval():
    # 3 players: seat 2 ends 6 and 3 honour under the others' mean; seat 0 sits on start point 1 in both games
    games = [record([0, 1, 2], [1, 0, 2], totals=[110, 100, 99]),
             record([1, 0, 2], [1, 2, 0], totals=[100, 102, 98])]
    out = bal.report(games, 3)
    seat2 = out["per_seat"]["2"]
    margins = [99 - (110 + 100) / 2, 98 - (100 + 102) / 2]
    assert seat2["honour_margin"] == pytest.approx(sum(margins) / 2)
    lo, hi = seat2["honour_margin_ci95"]
    half = 1.96 * ((margins[0] + 4.5) ** 2 + (margins[1] + 4.5) ** 2) ** 0.5 / 2 ** 0.5  # sd (ddof 1) / sqrt(n)
    assert (lo, hi) == (pytest.approx(-4.5 - half), pytest.approx(-4.5 + half))
    assert out["per_start_point"]["1"]["honour_margin"] == pytest.approx(((110 - 99.5) + (100 - 100)) / 2)
    assert sum(out["per_seat"][str(p)]["honour_margin"] for p in range(3)) == pytest.approx(0.0)
    one = bal.report(games[:1], 3)["per_seat"]["2"]
    assert one["honour_margin_ci95"] == [one["honour_margin"]] * 2  # one game: no spread to measure


def test_two_player_pairs_of_start_points_show_who_won_against_whom():
    # points 0 and 2 meet 10 times (0 wins 3, one win shared), points 1 and 2 meet 4 times (2 wins all)
    games = ([record([0, 1], [0, 2])] * 2 + [record([1, 0], [2, 0])] + [record([0, 0], [0, 2])]
             + [record([1, 0], [0, 2])] * 6 + [record([0, 1], [2, 1])] * 4)
    pairs = bal.report(games, 2)["per_start_pair"]
    assert set(pairs) == {"0-2", "1-2"}
    assert pairs["0-2"]["games"] == 10 and pairs["0-2"]["wins"] == 3.5  # a shared win counts a half
    assert pairs["1-2"]["win_rate"] == 0.0 and pairs["1-2"]["flagged"]  # point 1 never won against point 2
    assert "per_start_pair" not in bal.report([record([0, 1, 2], [0, 1, 2])], 3)
    assert bal.report(games, 2)["verdict"].startswith("UNFAIR")  # from the start points, not the pairs


def test_the_book_facts_first_capper_and_leftovers():
    games = [record([0, 1, 2], [0, 1, 2], capped=0, held=[20, 10, 0], leftovers=[6, 3, 0]),
             record([1, 0, 2], [0, 1, 2], capped=0, held=[5, 5, 5], leftovers=[1, 1, 1]),
             record([1, 2, 0], [0, 1, 2], capped=None)]
    book = bal.report(games, 3)["book"]
    assert book["first_capped"]["games"] == 2 and book["first_capped"]["win_rate"] == 0.5
    assert book["first_capped"]["games_without"] == 1
    assert book["mean_resources_end"] == pytest.approx(45 / 9)
    assert book["mean_leftover_sets"] == pytest.approx(12 / 9)


def test_each_seat_on_each_start_point_and_where_its_honour_comes_from():
    # seat 0 wins both games on point 0 and loses its one game on point 1; seat 1 the other way round
    games = [record([0, 1], [0, 1], totals=[120, 100], capped=0)] * 2 + [record([1, 0], [1, 0], capped=1)]
    out = bal.report(games, 2)
    cells = out["per_seat_and_start_point"]
    assert set(cells) == {"0-0", "0-1", "1-0", "1-1"}
    assert (cells["0-0"]["games"], cells["0-0"]["win_rate"]) == (2, 1.0)
    assert (cells["0-1"]["games"], cells["0-1"]["win_rate"]) == (1, 0.0)
    assert cells["1-0"]["win_rate"] == 1.0 and cells["1-1"]["win_rate"] == 0.0
    honour = out["seat_honour"]
    assert honour["0"]["total"] == pytest.approx(340 / 3) and honour["1"]["total"] == 100
    assert honour["0"]["first_to_fill"] == pytest.approx(2 / 3) and honour["1"]["first_to_fill"] == pytest.approx(1 / 3)
    assert out["fair"] is False  # the verdict still reads seats and start points only
    lines = bal.seat_lines(out)
    assert lines[0].startswith("seat 0: on start point 0: 100.0% of 2 (+20.0 honour), 1: 0.0% of 1 (+0.0 honour); "
                               "honour 113.3 (leftover sets 0.0)")
    assert lines[0].endswith("filled its trollsmoot first in 66.7% of games")


def test_each_seats_margin_on_each_start_point_by_category():
    # 3 players, two games: seat 2 sits on point 0 in both and trails in tunnels and statues
    def scored(tunnels: list[int], statues: list[int], starts: list[int]) -> dict:
        g = record([0, 1, 2], starts)
        g["scores"] = [{"tunnels": t, "statues": s, "leftover_sets": 0, "total": t + s}
                       for t, s in zip(tunnels, statues)]
        return g
    games = [scored([50, 48, 44], [30, 34, 28], [1, 2, 0]), scored([46, 50, 42], [36, 30, 31], [2, 1, 0])]
    margins = bal.report(games, 3)["seat_point_margins"]
    assert set(margins) == {"0-1", "0-2", "1-2", "1-1", "2-0"}
    third = margins["2-0"]  # tunnels: 44 - 49 and 42 - 48; statues: 28 - 32 and 31 - 33
    assert third["tunnels"] == pytest.approx(-5.5) and third["statues"] == pytest.approx(-3.0)
    assert third["total"] == pytest.approx(-8.5)
    assert margins["0-1"] == {"tunnels": 4.0, "statues": -1.0, "leftover_sets": 0.0, "total": 3.0}  # 50-46, 30-31
    lines = bal.seat_lines(bal.report(games, 3))
    assert lines[2].startswith("seat 2: on start point 0: 0.0% of 2 (-8.5 honour: tunnels -5.5, statues -3.0); ")
    # the two largest categories of a whole honour or more, largest first; leftover sets (0.0) left out
    assert "on start point 1: 100.0% of 1 (+3.0 honour: tunnels +4.0, statues -1.0), 2:" in lines[0]


def test_a_seat_even_with_each_other_seat_can_still_win_less():
    # seats 0 and 1 race: each wins one game far ahead and ends last in the other; seat 2 is second in both
    # and a third game has seats 1 and 2 tied for first
    games = [record([0, 2, 1], [0, 1, 2], totals=[130, 70, 100]), record([2, 0, 1], [0, 1, 2], totals=[70, 130, 100]),
             record([2, 0, 0], [0, 1, 2], totals=[90, 105, 105])]
    out = bal.report(games, 3)
    pairs = out["per_seat_pair"]
    assert set(pairs) == {"0-1", "0-2", "1-2"}
    assert pairs["0-2"]["win_rate"] == pytest.approx(1 / 3) and pairs["0-2"]["games"] == 3
    assert pairs["1-2"]["win_rate"] == pytest.approx(1.5 / 3)  # the tie counts a half
    assert pairs["0-1"]["win_rate"] == pytest.approx(1 / 3) and pairs["0-1"]["flagged"]  # 17 points off 50%
    assert out["per_seat"]["2"]["win_rate"] == pytest.approx(0.5 / 3)  # even with seat 1, yet rarely first
    spreads = [out["per_seat"][str(p)]["honour_margin_sd"] for p in range(3)]
    margins2 = [100 - 100, 100 - 100, 105 - 97.5]
    mean2 = sum(margins2) / 3
    assert spreads[2] == pytest.approx((sum((m - mean2) ** 2 for m in margins2) / 2) ** 0.5)
    assert spreads[2] < spreads[0] and spreads[2] < spreads[1]
    lines = bal.pair_lines(out)
    assert lines[2].startswith("seat 2 finished ahead of seat 0 in 66.7% (CI ")  # 1 - the 0-2 pair's rate
    assert "seat 1 in 50.0% (CI " in lines[2] and lines[2].endswith(
        f"its honour margin spreads {spreads[2]:.1f} (sd; the others' {spreads[0]:.1f}, {spreads[1]:.1f})")
    assert "per_seat_pair" not in bal.report([record([0, 1], [0, 1])], 2)  # 2 players: the seat rows say it
    assert bal.pair_lines(bal.report([record([0, 1], [0, 1])], 2)) == []
    assert "0-1" not in out["verdict"] and "(uneven)" in lines[0]  # an uneven pair is named, not a verdict


def test_the_first_capper_is_the_seat_that_took_the_first_coronation_token():
    game = Game(2)
    actions: list[int] = []
    state = run_game(["heuristic", "heuristic"], 5, game=game, actions=actions)
    takers = bal.coronation_order(game, 5, actions)
    assert takers, "heuristic self-play fills a trollsmoot"
    first = takers[0]
    token = game.pack.coronation_tokens[2][0]
    assert state.score_breakdown(first)["coronation"] == token
    assert bal.coronation_order(game, 5, actions[:10]) == []  # nobody caps during setup


def test_the_trigger_is_the_seat_that_took_the_last_coronation_token():
    game = Game(3)
    actions: list[int] = []
    state = run_game(["heuristic"] * 3, 2, game=game, actions=actions)
    takers = bal.coronation_order(game, 2, actions)
    assert len(takers) == 2 and len(set(takers)) == 2, "both tokens taken, by two seats"
    assert [state.score_breakdown(p)["coronation"] for p in takers] == list(game.pack.coronation_tokens[3])
    assert bal.ender(game, takers) == takers[-1] and bal.ender(game, takers[:1]) is None


def test_seats_are_shown_by_which_seat_triggered_the_end():
    # seat 2 triggers twice (wins one, shares one with seat 0), seat 0 once (seat 1 wins); one older record
    games = [record([1, 1, 0], [0, 1, 2], ended=2), record([0, 1, 0], [0, 1, 2], ended=2),
             record([1, 0, 2], [0, 1, 2], ended=0), record([0, 1, 2], [0, 1, 2])]
    out = bal.report(games, 3)
    cells = out["per_trigger_and_seat"]
    assert set(cells) == {"0-0", "0-1", "0-2", "2-0", "2-1", "2-2"}
    assert cells["2-2"]["games"] == 2 and cells["2-2"]["win_rate"] == 0.75 and cells["2-0"]["win_rate"] == 0.25
    assert cells["0-1"]["win_rate"] == 1.0 and cells["0-1"]["games"] == 1
    lines = bal.trigger_lines(out)
    assert lines == ["end triggered by seat 0 in 1 game: seat 0 0.0%, seat 1 100.0%, seat 2 0.0%",
                     "end triggered by seat 2 in 2 games: seat 0 25.0%, seat 1 0.0%, seat 2 75.0%"]
    plain = bal.report([dict(g, triggered_end=None) for g in games], 3)  # the view is not read by the verdict
    assert plain["per_trigger_and_seat"] == {} and plain["verdict"] == out["verdict"]


def test_drawn_gates_put_each_seat_on_varied_start_points_and_chosen_gates_are_the_agents():
    drawn = [bal.balance_game({"index": 0, "agents": ["heuristic"] * 2, "seed": s}, {}) for s in range(6)]
    assert len({tuple(g["start_points"]) for g in drawn}) > 1
    assert all(g["start_points"] == bal.balance_game({"index": 0, "agents": ["heuristic"] * 2, "seed": g["seed"]},
                                                     {})["start_points"] for g in drawn[:2])  # seeded
    chosen = [bal.balance_game({"index": 0, "agents": ["heuristic"] * 2, "seed": s}, {}, gates="chosen")
              for s in range(2)]
    assert chosen[0]["start_points"] == chosen[1]["start_points"]  # the heuristic's fixed preference


def test_a_run_writes_its_report_and_resumes_without_replaying(tmp_path):
    out = tmp_path / "b"
    first = bal.run_balance(["heuristic"], 2, 2, seed=3, out=out, progress=False)
    assert first["games"] == 2 and set(first["per_seat"]) == {"0", "1"}
    lines = (out / "games.jsonl").read_text().splitlines()
    more = bal.run_balance(["heuristic"], 2, 4, seed=3, out=out, progress=False)
    after = (out / "games.jsonl").read_text().splitlines()
    assert after[:2] == lines and len(after) == 4 and more["games"] == 4
    on_disk = json.loads((out / "balance.json").read_text())
    assert on_disk["config"]["board_side"] == "winter" and on_disk["verdict"] == more["verdict"]
    assert "games" in on_disk and not isinstance(on_disk["games"], list)  # a count, not the records
    for g in map(json.loads, after):
        assert {"first_capped", "triggered_end", "resources_end", "start_points"} <= g.keys()
        assert sum(win_shares(g)) == pytest.approx(1.0)


def test_a_folder_of_other_settings_or_content_is_refused(tmp_path):
    out = tmp_path / "b"
    bal.run_balance(["heuristic"], 2, 1, seed=0, out=out, progress=False)
    with pytest.raises(ValueError, match="other settings"):
        bal.run_balance(["heuristic"], 2, 1, seed=1, out=out, progress=False)
    config = json.loads((out / "config.json").read_text())
    (out / "config.json").write_text(json.dumps({**config, "pack_id": "default@0+old"}))
    with pytest.raises(ValueError, match="games of other content"):
        bal.run_balance(["heuristic"], 2, 1, seed=0, out=out, progress=False)
    (out / "config.json").write_text(json.dumps(config))
    with pytest.raises(ValueError, match="holds games with --gates drawn"):
        bal.run_balance(["heuristic"], 2, 1, seed=0, out=out, progress=False, gates="chosen")
    with pytest.raises(ValueError, match="--gates 'picked': allowed: drawn, chosen"):
        bal.run_balance(["heuristic"], 2, 1, seed=0, out=tmp_path / "c", progress=False, gates="picked")
    (out / "config.json").write_text(json.dumps({k: v for k, v in config.items() if k != "command"}))
    with pytest.raises(ValueError, match="holds a tournament"):
        bal.run_balance(["heuristic"], 2, 1, seed=0, out=out, progress=False)


@pytest.mark.parametrize("argv, says", [
    (["--players", "6"], "argument --players: 6 is not allowed; the game is for 2 to 5"),
    (["--games", "0"], "argument --games: 0 is not allowed"),
    (["--threshold", "1.5"], "argument --threshold: 1.5 is not allowed; use a win-rate difference"),
    (["--threshold", "-0.1"], "argument --threshold: -0.1 is not allowed"),
    (["--agents", "grandmaster"], "unknown agent spec 'grandmaster'"),
    (["--gates", "picked"], "argument --gates: invalid choice: 'picked'"),
    (["--payment", "manual"], "argument --payment: invalid choice: 'manual'"),
    (["--players", "3", "--board-side", "winter"], "board_side='winter' is not allowed for 3 players"),
    (["--pack", "{new}"], "{new}"),
])
def test_misuse_is_one_line_and_exit_code_2(tmp_path, capsys, argv, says):
    new = str(tmp_path / "missing")
    argv = [a.replace("{new}", new) for a in argv]
    code = main(["balance", *argv, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("mk-env balance: error: ") and says.replace("{new}", new) in err
    assert not (tmp_path / "out" / "games.jsonl").exists()


def test_the_command_prints_the_table_and_json(tmp_path, capsys):
    out = tmp_path / "b"
    assert main(["balance", "--players", "2", "--games", "2", "--workers", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Balance: 2 players, winter side, 2 games (heuristic; gates drawn)" in text and "first to fill a trollsmoot" in text
    assert "seat 0: on start point" in text and "tunnels" in text
    assert main(["balance", "--players", "2", "--games", "2", "--out", str(out), "--json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert parsed["games"] == 2 and parsed["verdict"].split(":")[0] in ("FAIR", "UNFAIR")


def test_the_summary_puts_each_report_in_one_row(tmp_path, capsys):
    # 3 players, 30 games: seat 0 wins 14 (46.7%, flagged), seat 1 11 (36.7%), seat 2 5 (16.7%, flagged);
    # seat 2 finishes ahead of seat 0 in the 5 it wins, of seat 1 in those and 4 more
    games = ([record([0, 1, 2], [0, 1, 2], totals=[110, 100, 90])] * 10 + [record([0, 2, 1], [1, 2, 0])] * 4
             + [record([1, 0, 2], [2, 0, 1])] * 11 + [record([2, 1, 0], [0, 1, 2], totals=[90, 95, 100])] * 5)
    config = {"command": "balance", "agents": ["heuristic"], "players": 3, "board_side": "autumn", "gates": "drawn",
              "seed": 7}
    result = {"config": config, **bal.report(games, 3)}
    row = bal.summary_row(result)
    assert row["table"] == "3p autumn" and row["games"] == "30" and row["verdict"] == "UNFAIR" and row["seed"] == "7"
    assert row["agents"] == "heuristic" and row["gates"] == "drawn"
    ci = [wilson_interval(w, 30) for w in (14, 5)]
    assert row["seats, win %"] == (f"**46.7** ({100 * ci[0][0]:.1f}-{100 * ci[0][1]:.1f}) / 36.7 / "
                                   f"**16.7** ({100 * ci[1][0]:.1f}-{100 * ci[1][1]:.1f})")
    assert row["furthest seat ahead of each other seat"] == "seat 2: seat 0 16.7%, seat 1 30.0%"
    margin = result["per_seat"]["2"]["honour_margin"]
    assert margin < 0 and row["furthest seat's honour margin"].startswith(f"seat 2: {margin:+.1f} +- ")
    # start point 0 wins 10 + 11 games (70.0%), point 1 4 (13.3%), point 2 5 (16.7%): all three flagged
    cells = [f"{k}: **{100 * w / 30:.1f}** ({100 * lo:.1f}-{100 * hi:.1f})"
             for k, w in enumerate((21, 4, 5)) for lo, hi in [wilson_interval(w, 30)]]
    assert row["start points, win %"] == "13.3-70.0; " + ", ".join(cells)
    path = tmp_path / "balance.json"
    path.write_text(json.dumps(result))
    assert main(["balance-summary", str(path), str(path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("| table | agents | gates | seed | games |") and len(lines) == 4
    assert lines[2] == lines[3] == "| " + " | ".join(row.values()) + " |"


def test_the_summary_follows_the_seat_furthest_from_fair():
    # 4 players, 20 games: seat 1 wins 10 (50%, 25 points over fair), seat 3 wins 2 (10%, 15 under); the
    # others finish in turn order after the winner, so seat 1 is ahead of seat 0 only when it wins (10 of 20),
    # of seat 2 also when seat 0 or 3 wins (17), of seat 3 also when seat 0 wins (15)
    winners = [1] * 10 + [0] * 5 + [2] * 3 + [3] * 2
    games = [record([(p - w) % 4 for p in range(4)], [0, 1, 2, 3]) for w in winners]
    result = {"config": {"players": 4, "board_side": "winter", "agents": ["heuristic"]}, **bal.report(games, 4)}
    assert furthest_seat(result) == "1"
    row = bal.summary_row(result)
    assert row["furthest seat's honour margin"].startswith("seat 1: ")
    assert row["furthest seat ahead of each other seat"] == "seat 1: seat 0 50.0%, seat 2 85.0%, seat 3 75.0%"
    # 2 players, 40 / 60%: both seats 10 points from fair; the summary follows the one that won less
    two = {"fair_win_rate": 0.5, "per_seat": {"0": {"win_rate": 0.4}, "1": {"win_rate": 0.6}}}
    assert furthest_seat(two) == "0"


@pytest.mark.parametrize("text, says", [
    ("not json", "not JSON"),
    ('{"config": {"command": "tournament"}, "games": 1, "fair_win_rate": 0.5, "per_seat": {}, "per_start_point": {},'
     ' "verdict": ""}',
     "not a balance report (its config is not a balance run's)"),
    ('[1, 2]', "not a balance report (lacks config, games"),
    (None, "No such file or directory"),
    ('{"config": {"command": "balance"}, "games": 1, "per_seat": {}, "per_start_point": {}, "verdict": ""}',
     "not a balance report (lacks fair_win_rate)"),
    ('{"config": {"command": "balance"}, "games": 1, "fair_win_rate": 1, "per_seat": {"0": {"win_rate": 1}}, '
     '"per_start_point": {}, "verdict": ""}',
     "not a balance report (a field is missing or malformed: KeyError('players')"),
    ('{"config": {"command": "balance"}, "games": 1, "fair_win_rate": 1, "per_seat": {}, "per_start_point": {}, '
     '"verdict": ""}', "not a balance report (a field is missing or malformed: ValueError("),
])
def test_the_summary_refuses_a_file_that_is_not_a_balance_report(tmp_path, capsys, text, says):
    path = tmp_path / "report.json"
    if text is not None:
        path.write_text(text)
    assert main(["balance-summary", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mk-env balance-summary: error: ") and says in err and len(err.strip().splitlines()) == 1
