"""Cave Troll speed: ``python benchmarks/cave_troll_bench.py [--players 4] [--seconds 5] [--no-compare]``.

Random masked play through ``mk_env.cave_troll_v1.env(...)`` (safety wrappers, the observation and the mask
built at every step), beside PettingZoo's ``chess_v6`` in the same run (the ``compare`` extra: ``pip install
chess``), with our speed as a multiple of chess's; and the engine's ``clone()`` in microseconds, averaged over
states sampled from random games. The loop is the first game's (:func:`training.bench.random_aec_loop`).
Targets (issue 19): >= 20,000 env steps/s with 4 players, >= 15x chess, clone < 20 us. Prints a table, then
the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import numpy as np

from training.bench import random_aec_loop

TARGETS = {"steps_per_s": 20_000.0, "ratio_chess": 15.0, "clone_us": 20.0}


def clone_us(num_players: int, count: int = 300, repeat: int = 20, seed: int = 0) -> float:
    """Microseconds per ``clone()``, over ``count`` states met in random games."""
    from mk_env.cave_troll.rules import Game

    game, rng = Game(num_players), np.random.default_rng(seed)
    states: list[Any] = []
    while len(states) < count:
        st = game.new_initial_state(int(rng.integers(2**31)))
        while not st.is_terminal() and len(states) < count:
            legal = st.legal_actions()
            st.apply(int(legal[rng.integers(len(legal))]))
            if rng.random() < 0.05:
                states.append(st.clone())
    start = time.perf_counter()
    for _ in range(repeat):
        for st in states:
            st.clone()
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def run(players: int, seconds: float, with_compare: bool = True) -> dict[str, Any]:
    """Every figure, as a JSON-able dict."""
    from mk_env import cave_troll_v1

    report: dict[str, Any] = {"players": players, "seconds_per_figure": seconds,
                              "load_avg_before": list(os.getloadavg())}
    report["cave_troll"] = random_aec_loop(cave_troll_v1.env(num_players=players), seconds)
    report["clone_us"] = clone_us(players)
    if with_compare:
        try:
            from pettingzoo.classic import chess_v6
        except ImportError as err:
            report["chess_v6"] = {"error": f"not installed ({err.name}); pip install chess"}
        else:
            report["chess_v6"] = random_aec_loop(chess_v6.env(), seconds)
            report["ratio_chess"] = report["cave_troll"]["steps_per_s"] / report["chess_v6"]["steps_per_s"]
            report["ratio_chess_cpu"] = (report["cave_troll"]["steps_per_cpu_s"]
                                         / report["chess_v6"]["steps_per_cpu_s"])
    report["load_avg_after"] = list(os.getloadavg())
    return report


def print_report(report: dict[str, Any]) -> None:
    ct = report["cave_troll"]
    print(f"cave_troll_v1, {report['players']} players: {ct['steps_per_s']:,.0f} env steps/s "
          f"({ct['steps_per_cpu_s']:,.0f} per CPU second), {ct['games_per_s']:.2f} games/s "
          f"(target >= {TARGETS['steps_per_s']:,.0f})")
    print(f"clone: {report['clone_us']:.2f} us (target < {TARGETS['clone_us']:.0f})")
    chess = report.get("chess_v6")
    if chess and "error" not in chess:
        print(f"chess_v6: {chess['steps_per_s']:,.0f} env steps/s ({chess['steps_per_cpu_s']:,.0f} per CPU second)")
        print(f"ratio: {report['ratio_chess']:.1f}x chess (per CPU second: {report['ratio_chess_cpu']:.1f}x; "
              f"target >= {TARGETS['ratio_chess']:.0f}x)")
    elif chess:
        print(f"chess_v6: {chess['error']}")
    print(json.dumps(report, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="players (default 4)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per figure (default 5)")
    parser.add_argument("--no-compare", action="store_true", help="skip PettingZoo chess")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")
    print_report(run(args.players, args.seconds, with_compare=not args.no_compare))
    return 0


if __name__ == "__main__":
    sys.exit(main())
