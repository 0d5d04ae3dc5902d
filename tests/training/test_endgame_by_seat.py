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
        assert {block for _, block, *_ in g["step2"][seat]} <= {"dig", "recruit", "pass", "trade"}
        for _, block, digs, free, untouching in g["step2"][seat]:
            # a legal dig is a placement beside the network that touches no opponent; not every one is paid for
            assert 0 <= digs and 0 <= untouching <= free
            assert block != "dig" or untouching > 0


def test_the_summary_of_the_last_turns_adds_up(endgame, games) -> None:
    for seat in range(2):
        s = endgame.seat_summary(games, seat)
        expected = sum(g["tunnels"][seat] - g["turn_starts"][seat][-endgame.LAST][1] for g in games) / len(games)
        assert sum(s["last_gains"]) == pytest.approx(expected)
        assert all(0 <= x <= 1 for x in s["last_no_dig"])
        assert set(s["tunnels_at"]) == set(endgame.CHECKPOINTS)
    assert sum(endgame.seat_summary(games, p)["win_rate"] for p in range(2)) == pytest.approx(1.0)


def test_room_counts_the_free_placements_beside_the_network_and_those_touching_no_opponent(endgame) -> None:
    """On a 2-player position late in play, both counts of ``room`` match a count over every placement of
    the board (rows padded with the board's spare square, which is empty and in no network): its squares
    empty, a neighbour in the seat's network, a tile of its shape left (and, for the
    second count, no neighbour in the opponent's network)."""
    from mk_env.mountain_king.rules.vocabulary import SquareKind
    from training.play import make_game, run_game

    game = make_game(2, {})
    actions: list[int] = []
    run_game(["heuristic", "heuristic"], 5, game=game, actions=actions)
    state = game.new_initial_state(5)
    for action in actions[: int(len(actions) * 0.8)]:
        state.apply(action)
    table = game.geo.tunnel_placements
    empty = (state.kind == int(SquareKind.EMPTY))[table.cells].all(axis=1)
    left = state.tunnel_supply[table.piece] > 0
    for seat in range(2):
        beside = state.reach[seat][table.nbrs].any(axis=1)
        touching = state.reach[1 - seat][table.nbrs].any(axis=1)
        free = beside & empty & left
        assert endgame.room(state, seat) == (int(free.sum()), int((free & ~touching).sum()))
        assert 0 < int((free & ~touching).sum()) < int(free.sum())
