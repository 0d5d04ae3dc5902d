"""The compiled engine beside the Python one, side by side in one run (issue 51): random legal play through the
engine protocol (``legal_actions`` + ``apply``, one decision at a time from Python), ``clone``, ``determinize``
and env steps through ``mk_env.env`` (observation and mask every step).

    python benchmarks/native.py [--players 4] [--seconds 5]

Prints each figure for both backends and their ratio. Random play draws its actions in Python, so the figure
is the engine as a Python caller sees it, not the compiled loop alone.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mk_env
from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules.native import MISSING


def decisions_per_second(game: Game, seconds: float) -> float:
    """Random legal decisions per second, whole games from seeds 0, 1, ..."""
    rng = np.random.default_rng(0)
    done, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = game.new_initial_state(seed)
        seed += 1
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(int(legal[rng.integers(len(legal))]))
            done += 1
    return done / (time.perf_counter() - start)


def mid_game(game: Game, decisions: int = 120):
    st = game.new_initial_state(1)
    rng = np.random.default_rng(1)
    for _ in range(decisions):
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    return st


def per_call(fn, seconds: float) -> float:
    """Seconds per call of ``fn``."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            fn()
        n += 100
    return (time.perf_counter() - start) / n


def env_steps_per_second(players: int, backend: str, seconds: float) -> float:
    from mk_env.mountain_king.rules.native import set_default_backend
    set_default_backend(backend)
    try:
        env = mk_env.env(num_players=players)
        rng = np.random.default_rng(0)
        env.reset(seed=0)
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    env.step(int(legal[rng.integers(len(legal))]))
                    steps += 1
                if time.perf_counter() - start >= seconds:
                    break
            env.reset(seed=steps)
        return steps / (time.perf_counter() - start)
    finally:
        set_default_backend(None)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=5.0)
    a = p.parse_args()
    if MISSING:
        raise SystemExit(MISSING)
    rows = []
    games = {b: Game(a.players, backend=b) for b in ("python", "native")}
    rate = {b: decisions_per_second(g, a.seconds) for b, g in games.items()}
    rows.append(("random decisions/s (engine protocol)", rate["python"], rate["native"], rate["native"] / rate["python"]))
    states = {b: mid_game(g) for b, g in games.items()}
    clone = {b: per_call(st.clone, a.seconds / 2) for b, st in states.items()}
    rows.append(("clone, us", clone["python"] * 1e6, clone["native"] * 1e6, clone["python"] / clone["native"]))
    gen = np.random.default_rng(0)
    det = {b: per_call(lambda st=st: st.determinize(1, gen), a.seconds / 2) for b, st in states.items()}
    rows.append(("determinize, us", det["python"] * 1e6, det["native"] * 1e6, det["python"] / det["native"]))
    env = {b: env_steps_per_second(a.players, b, a.seconds) for b in ("python", "native")}
    rows.append(("env steps/s (mk_env.env, obs + mask)", env["python"], env["native"], env["native"] / env["python"]))
    print(f"{a.players} players, {a.seconds:g} s a figure, one process")
    print(f"{'figure':40s} {'python':>12s} {'native':>12s} {'ratio':>8s}")
    for name, py, nat, ratio in rows:
        print(f"{name:40s} {py:12.1f} {nat:12.1f} {ratio:7.1f}x")


if __name__ == "__main__":
    main()
