"""Where each seat wins and loses honour as the game ends: heuristic self-play, gates drawn as in
``mk-env balance``.

For every seat: its win rate; its tunnel honour when its own turns 3, 6, 9 and 12 begin and at the end;
the tunnel honour it gained on each of its last three own turns; what it did in step 2 of those turns
(dig, recruit, pass); how many digs were legal at those step-2 decisions (and how often none was); and the
room behind them: the tunnel placements beside its network on free squares (a stack of the shape left) and
how many of those do not touch an opponent's network (the rulebook forbids the others).
Issue 16's diagnosis of the last seat's deficit (docs/balance.md) comes from this script.

    python benchmarks/endgame_by_seat.py --players 3 --games 400 --seed 0 --workers 2
    python benchmarks/endgame_by_seat.py --players 4 --games 300 --pack path/to/pack

Game ``i`` uses seed ``seed + i``; the figures depend on the seeds, the pack and the agent, not on the
machine.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from agents import make_agent
from mk_env.mountain_king.rules.digging import dig_geometry
from mk_env.mountain_king.rules.vocabulary import SquareKind
from training.balance import DrawnGate
from training.play import make_game, run_game
from training.ratings import win_shares

#: own turns at whose start the tunnel honour is reported
CHECKPOINTS = (3, 6, 9, 12)
#: the last own turns looked at (1: the seat's final turn)
LAST = 3
STEP2 = "step2_recruit_or_dig"


def room(state: Any, seat: int) -> tuple[int, int]:
    """Tunnel placements beside ``seat``'s network on free squares whose shape has a tile left, and how many
    of them do not touch an opponent's network (minerals and hammers aside)."""
    geo = state.game.geo
    table = geo.tunnel_placements
    beside = geo.tunnels_beside.lookup(state.reach[seat].nonzero()[0])
    free = beside[(state.kind == int(SquareKind.EMPTY))[table.cells[beside]].all(axis=1)]
    untouching = dig_geometry(state, seat)
    left = state.tunnel_supply > 0
    return int(left[table.piece[free]].sum()), int(left[table.piece[untouching]].sum())


def play(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One game: per seat, its tunnel honour at the start of each own turn and its step-2 records
    (turn, block chosen, legal digs, and the two counts of :func:`room`)."""
    game = make_game(players, options)
    actions: list[int] = []
    run_game([DrawnGate(make_agent("heuristic"), seed) for _ in range(players)], seed, game=game, actions=actions)
    state = game.new_initial_state(seed)
    turn_starts: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    step2: list[list[tuple[int, str, int, int, int]]] = [[] for _ in range(players)]
    layout, last_turn = game.layout, None
    for action in actions:
        seat, kind = state.current_player(), state.decision_kind()
        if kind not in ("setup_gate", "setup_draft") and state.turn != last_turn:
            last_turn = int(state.turn)
            turn_starts[seat].append((last_turn, state.score_breakdown(seat)["tunnels"]))
        if kind == STEP2:
            digs = sum(layout.decode(int(a))[0] == "dig" for a in state.legal_actions())
            step2[seat].append((int(state.turn), layout.decode(int(action))[0], int(digs), *room(state, seat)))
        state.apply(action)
    return {"wins": win_shares({"ranks": state.ranks()}), "turn_starts": turn_starts, "step2": step2,
            "tunnels": [state.score_breakdown(p)["tunnels"] for p in range(players)]}


def _play_star(args: tuple) -> dict[str, Any]:
    return play(*args)


def seat_summary(games: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """One seat's figures over ``games``."""
    at = {k: np.mean([g["turn_starts"][seat][k][1] for g in games if len(g["turn_starts"][seat]) > k])
          for k in CHECKPOINTS}
    gains, choices = [[] for _ in range(LAST)], [{} for _ in range(LAST)]
    digs, free, untouching = ([[] for _ in range(LAST)] for _ in range(3))
    for g in games:
        starts = g["turn_starts"][seat]
        ends = [t for _, t in starts[1:]] + [g["tunnels"][seat]]
        by_turn = {turn: rest for turn, *rest in g["step2"][seat]}
        for back in range(1, min(LAST, len(starts)) + 1):
            turn, honour = starts[-back]
            gains[back - 1].append(ends[-back] - honour)
            if turn in by_turn:
                block, n, n_free, n_untouching = by_turn[turn]
                choices[back - 1][block] = choices[back - 1].get(block, 0) + 1
                digs[back - 1].append(n)
                free[back - 1].append(n_free)
                untouching[back - 1].append(n_untouching)
    return {"win_rate": float(np.mean([g["wins"][seat] for g in games])), "tunnels_at": at,
            "tunnels_end": float(np.mean([g["tunnels"][seat] for g in games])),
            "last_gains": [float(np.mean(x)) for x in gains], "last_choices": choices,
            "last_digs": [float(np.mean(x)) for x in digs],
            "last_no_dig": [float(np.mean(np.equal(x, 0))) for x in digs],
            "last_free": [float(np.mean(x)) for x in free], "last_untouching": [float(np.mean(x)) for x in untouching]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0, help="game i uses seed + i")
    p.add_argument("--pack", default=None, help="content pack folder (default: the built-in pack)")
    p.add_argument("--board-side", default=None)
    p.add_argument("--workers", type=int, default=1)
    a = p.parse_args()
    options = {k: v for k, v in (("pack", a.pack), ("board_side", a.board_side)) if v is not None}
    jobs = [(a.players, a.seed + i, options) for i in range(a.games)]
    with ProcessPoolExecutor(a.workers) as pool:
        games = list(pool.map(_play_star, jobs, chunksize=4))
    print(f"{a.players} players, {a.games} games, seeds {a.seed}-{a.seed + a.games - 1}, heuristic self-play, "
          f"gates drawn{', pack ' + a.pack if a.pack else ''}")
    for seat in range(a.players):
        s = seat_summary(games, seat)
        at = ", ".join(f"{k}: {v:.1f}" for k, v in s["tunnels_at"].items())
        print(f"seat {seat}: wins {100 * s['win_rate']:.1f}%; tunnel honour at own turn {at}; "
              f"end {s['tunnels_end']:.1f}")
        for back in range(LAST, 0, -1):
            i = back - 1
            label = "final own turn" if back == 1 else f"own turn {back - 1} before the final"
            print(f"    {label}: tunnel honour +{s['last_gains'][i]:.2f}; step 2 {s['last_choices'][i]}; "
                  f"legal digs {s['last_digs'][i]:.1f} (none: {100 * s['last_no_dig'][i]:.0f}%); placements beside "
                  f"its network {s['last_free'][i]:.1f}, not touching an opponent {s['last_untouching'][i]:.1f}")


if __name__ == "__main__":
    main()
