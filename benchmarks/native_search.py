"""The heuristic and the information-set search on both backends, side by side in one run (issue 51, "Search"):
the same games (seeds), the same decisions in turn, each decided first on the Python engine with the Python
heuristic and search (the reference), then on the compiled ones (``agents/native/``).

    OPENBLAS_NUM_THREADS=1 python benchmarks/native_search.py [--players 2] [--simulations 16] [--decisions 40]
        [--seeds 0 1] [--profile]

Prints, for each backend and their ratio: ``mcts:N``'s simulations per second (the simulations each search ran,
over the seconds it searched) and the heuristic agent's decisions per second, and how many decisions the two
backends chose alike (the same seed, the same draws: every decision should agree; a differing one is listed
with both choices). ``--profile`` prints the compiled run's top functions (what bounds the search).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Callable

import numpy as np

from agents.heuristic import HeuristicAgent
from agents.mcts import MCTSAgent
from agents.search_native import new_search
from mk_env.core.view import PlayerView
from mk_env.mountain_king.rules import Game

BACKENDS = ("python", "native")


def search_step(agent: MCTSAgent, simulations: int) -> Callable:
    """One ``mcts`` decision: the action and the simulations its search ran."""
    def step(view: PlayerView, rng: np.random.Generator) -> tuple[int, int]:
        tree = new_search(view, view.seat, rng, agent.config_for(view))
        tree.run(agent.evaluator, simulations=simulations)
        return int(tree.best_action()), tree.simulations
    return step


def heuristic_step(agent: HeuristicAgent) -> Callable:
    """One heuristic decision (a unit of work each)."""
    return lambda view, rng: (int(agent.act(view, rng)), 1)


def play(backend: str, players: int, decisions: int, seed: int, step: Callable) -> tuple[list[int], int, float]:
    """The choices of ``step`` over ``decisions`` decisions of game ``seed`` with more than one legal action
    (each applied; the forced ones too), the work they did and the seconds they took."""
    st = Game(players, backend=backend).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    chosen, work, spent = [], 0, 0.0
    while len(chosen) < decisions and not st.is_terminal():
        legal = st.legal_actions()
        if len(legal) == 1:
            st.apply(int(legal[0]))
            continue
        start = time.perf_counter()
        action, done = step(PlayerView(st, st.current_player()), rng)
        spent += time.perf_counter() - start
        chosen.append(action)
        work += done
        st.apply(action)
    return chosen, work, spent


def compare(name: str, unit: str, a: argparse.Namespace, step: Callable) -> None:
    """Both backends over the same seeds: the rate of ``unit`` per second, the ratio, the decisions alike."""
    work = {b: 0 for b in BACKENDS}
    spent = {b: 0.0 for b in BACKENDS}
    same = total = 0
    differ = []
    for seed in a.seeds:
        runs = {}
        for backend in BACKENDS:
            if backend == "native" and a.profile:
                profiler = cProfile.Profile()
                runs[backend] = profiler.runcall(play, backend, a.players, a.decisions, seed, step)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
            else:
                runs[backend] = play(backend, a.players, a.decisions, seed, step)
            work[backend] += runs[backend][1]
            spent[backend] += runs[backend][2]
        for k, (x, y) in enumerate(zip(runs["python"][0], runs["native"][0])):
            total += 1
            same += x == y
            if x != y:
                differ.append((seed, k, x, y))
    rate = {b: work[b] / max(spent[b], 1e-9) for b in BACKENDS}
    print(f"{name}, {a.players} players, seeds {a.seeds}, {total} decisions each backend")
    print(f"  {unit + '/s':20s} python {rate['python']:10.1f}   native {rate['native']:10.1f}   "
          f"ratio {rate['native'] / rate['python']:5.2f}x")
    print(f"  decisions alike: {same} of {total}" + ("" if not differ else f"; differing (seed, decision, python, "
                                                     f"native): {differ[:10]}"))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--simulations", type=int, default=16)
    p.add_argument("--decisions", type=int, default=40)
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    p.add_argument("--profile", action="store_true")
    a = p.parse_args()
    compare(f"mcts:{a.simulations}", "simulations", a, search_step(MCTSAgent(a.simulations), a.simulations))
    compare("heuristic", "decisions", a, heuristic_step(HeuristicAgent()))


if __name__ == "__main__":
    main()
