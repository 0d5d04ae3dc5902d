"""The information-set search on both backends, side by side in one run (issue 51, "Search"): the same games
(seeds), the same decisions in turn, ``mcts:N`` deciding every one, first on the Python engine, then on the
compiled one. The search itself is Python in both (``agents/search_tree.py``): the compiled engine serves its
clones, determinizations, legal sets and applies, and the compiled writer its observations.

    OPENBLAS_NUM_THREADS=1 python benchmarks/native_search.py [--players 2] [--simulations 16] [--decisions 40]
        [--seeds 0 1]

Prints the simulations per second of each backend and their ratio, and how many decisions the two chose alike
(the same seed, the same draws: every decision should agree; a differing one is listed with both choices).
Add ``--profile`` for the compiled run's top functions (what bounds the search).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np

from agents.registry import make_agent
from mk_env.core.view import PlayerView
from mk_env.mountain_king.rules import Game


def play(backend: str, players: int, simulations: int, decisions: int, seed: int) -> tuple[list[int], float]:
    """The search's choices over ``decisions`` decisions of game ``seed`` (each applied), and the seconds spent
    searching."""
    game = Game(players, backend=backend)
    st = game.new_initial_state(seed)
    agent = make_agent(f"mcts:{simulations}")
    rng = np.random.default_rng(seed)
    chosen, spent = [], 0.0
    while len(chosen) < decisions and not st.is_terminal():
        start = time.perf_counter()
        action = int(agent.act(PlayerView(st, st.current_player()), rng))
        spent += time.perf_counter() - start
        chosen.append(action)
        st.apply(action)
    return chosen, spent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--simulations", type=int, default=16)
    p.add_argument("--decisions", type=int, default=40)
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    p.add_argument("--profile", action="store_true")
    a = p.parse_args()
    spent = {"python": 0.0, "native": 0.0}
    same = total = 0
    differ = []
    for seed in a.seeds:
        runs = {}
        for backend in ("python", "native"):
            if backend == "native" and a.profile:
                profiler = cProfile.Profile()
                runs[backend] = profiler.runcall(play, backend, a.players, a.simulations, a.decisions, seed)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
            else:
                runs[backend] = play(backend, a.players, a.simulations, a.decisions, seed)
            spent[backend] += runs[backend][1]
        ours, theirs = runs["python"][0], runs["native"][0]
        for k, (x, y) in enumerate(zip(ours, theirs)):
            total += 1
            same += x == y
            if x != y:
                differ.append((seed, k, x, y))
    sims = total * a.simulations
    rate = {b: sims / max(s, 1e-9) for b, s in spent.items()}
    print(f"mcts:{a.simulations}, {a.players} players, seeds {a.seeds}, {total} decisions each backend")
    print(f"{'simulations/s':20s} python {rate['python']:10.1f}   native {rate['native']:10.1f}   "
          f"ratio {rate['native'] / rate['python']:5.2f}x")
    print(f"decisions alike: {same} of {total}" + ("" if not differ else f"; differing (seed, decision, python, "
                                                   f"native): {differ[:10]}"))


if __name__ == "__main__":
    main()
