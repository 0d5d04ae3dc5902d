"""benchmarks/endgame_by_seat.py: one game's per-seat record and the summary of the last own turns."""

from __future__ import annotations

import pytest
from script_loader import load_script


@pytest.fixture(scope="module")
def endgame():
    return load_script("benchmarks/endgame_by_seat.py")


@pytest.fixture(scope="module")
def games(endgame):
    return [endgame.play(2, seed, {}) for seed in (3, 4)]


def test_a_game_records_each_seats_own_turns_and_step2_choices(games) -> None:
    g = games[0]
    assert sum(g["wins"]) == pytest.approx(1.0)
    counts = [len(s) for s in g["turn_starts"]]
    assert counts[0] == counts[1] > 10, "both seats play the same number of own turns"
    for seat in range(2):
        honour = [h for _, h in g["turn_starts"][seat]]
        assert honour == sorted(honour) and honour[-1] <= g["tunnels"][seat]  # tunnel honour never falls
        assert {block for _, block, _ in g["step2"][seat]} <= {"dig", "recruit", "pass", "trade"}
        assert all(n >= 0 for _, _, n in g["step2"][seat])


def test_the_summary_of_the_last_turns_adds_up(endgame, games) -> None:
    for seat in range(2):
        s = endgame.seat_summary(games, seat)
        expected = sum(g["tunnels"][seat] - g["turn_starts"][seat][-endgame.LAST][1] for g in games) / len(games)
        assert sum(s["last_gains"]) == pytest.approx(expected)
        assert all(0 <= x <= 1 for x in s["last_no_dig"])
        assert set(s["tunnels_at"]) == set(endgame.CHECKPOINTS)
    assert sum(endgame.seat_summary(games, p)["win_rate"] for p in range(2)) == pytest.approx(1.0)
