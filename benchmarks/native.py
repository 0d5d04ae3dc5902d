"""The compiled engine beside the Python one, side by side in one run (issue 51):

* random legal play through the engine protocol (``legal_actions`` + ``apply``, one decision at a time from
  Python), and the compiled loop alone (``play_random``: whole games in C++, no observation) beside the same
  Python loop;
* ``clone``, ``determinize`` and one observation (``Observer.encode_flat``: Python's memoised encoder, the
  compiled writer);
* env steps through ``mk_env.env`` (observation and mask every step) on both backends and, beside them,
  PettingZoo's ``chess_v6`` through the same loop (``training.bench.random_aec_loop``; needs ``chess`` and
  ``pygame``: ``pip install -e ".[compare]"``);
* the batch API (``GameBatch``: N games a call, full observation, mask, rewards every step, random actions),
  its Python twin and the compiled batch at each ``--batch`` size; and ``gymnasium.make_vec``'s batched env at the
  first size (learner steps/s: each step is the learner's decision and the random opponents' up to its next
  turn), beside one ``mk_env.env``.

    OPENBLAS_NUM_THREADS=1 python benchmarks/native.py [--players 4] [--seconds 5] [--batch 16 64]

Prints each figure for both sides and their ratio; one process, one core (OpenBLAS's idle threads would
otherwise spin on the second core).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mk_env
from mk_env.mountain_king.env.batch import GameBatch
from mk_env.mountain_king.env.observation import Observer
from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules import native
from mk_env.mountain_king.rules.native import MISSING
from training.bench import random_aec_loop


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


def mid_game(game: Game):
    """The state halfway through random game 1 (its decisions drawn from seed 1)."""
    rng = np.random.default_rng(1)
    st, actions = game.new_initial_state(1), []
    while not st.is_terminal():
        legal = st.legal_actions()
        actions.append(int(legal[rng.integers(len(legal))]))
        st.apply(actions[-1])
    st = game.new_initial_state(1)
    for action in actions[:len(actions) // 2]:
        st.apply(action)
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
    """Steps/s of random masked play through ``mk_env.env`` (the loop chess_v6 is timed with)."""
    from mk_env.mountain_king.rules.native import set_default_backend
    set_default_backend(backend)
    try:
        return random_aec_loop(mk_env.env(num_players=players), seconds)["steps_per_s"]
    finally:
        set_default_backend(None)


def compiled_loop_per_second(game: Game, seconds: float) -> float:
    """Decisions/s of whole random games played in C++ (``play_random``), seeds 0, 1, ..."""
    rules = native.rules_of(game)
    done, games, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += native._native.play_random(rules, games, 20)
        games += 20
    return done / (time.perf_counter() - start)


def batch_steps_per_second(players: int, games: int, backend: str, seconds: float) -> float:
    """Steps/s of the batch API with random actions (every step: observation, mask, rewards of each game)."""
    batch = GameBatch(games, players, seed=0, backend=backend)
    batch.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        batch.step(batch.random_actions())
        steps += games
    return steps / (time.perf_counter() - start)


def vector_steps_per_second(players: int, games: int, seconds: float) -> float:
    """Steps/s of ``gymnasium.make_vec``'s batched env (random opponents inside the step; ``copy=False``)."""
    from mk_env.mountain_king.env.vector import BatchVectorEnv
    envs = BatchVectorEnv(games, players, copy=False)
    envs.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        envs.step(envs.batch.random_actions())
        steps += games
    return steps / (time.perf_counter() - start)


def chess_steps_per_second(seconds: float) -> float | None:
    """PettingZoo chess_v6 through the same random AEC loop (None where chess or pygame is missing)."""
    try:
        from pettingzoo.classic import chess_v6
    except ImportError:
        return None
    return random_aec_loop(chess_v6.env(), seconds)["steps_per_s"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--batch", type=int, nargs="+", default=[16, 64], help="batch sizes of the batch API")
    a = p.parse_args()
    if MISSING:
        raise SystemExit(MISSING)
    rows = []
    games = {b: Game(a.players, backend=b) for b in ("python", "native")}
    rate = {b: decisions_per_second(g, a.seconds) for b, g in games.items()}
    rows.append(("random decisions/s (engine protocol)", rate["python"], rate["native"], rate["native"] / rate["python"]))
    loop = compiled_loop_per_second(games["native"], a.seconds)
    rows.append(("random decisions/s (compiled loop)", rate["python"], loop, loop / rate["python"]))
    states = {b: mid_game(g) for b, g in games.items()}
    clone = {b: per_call(st.clone, a.seconds / 2) for b, st in states.items()}
    rows.append(("clone, us", clone["python"] * 1e6, clone["native"] * 1e6, clone["python"] / clone["native"]))
    gen = np.random.default_rng(0)
    det = {b: per_call(lambda st=st: st.determinize(1, gen), a.seconds / 2) for b, st in states.items()}
    rows.append(("determinize, us", det["python"] * 1e6, det["native"] * 1e6, det["python"] / det["native"]))
    obs = {b: Observer(g) for b, g in games.items()}
    enc = {b: per_call(lambda b=b: obs[b].encode_flat(states[b], 0), a.seconds / 2) for b in games}
    rows.append(("one observation (encode_flat), us", enc["python"] * 1e6, enc["native"] * 1e6,
                 enc["python"] / enc["native"]))
    env = {b: env_steps_per_second(a.players, b, a.seconds) for b in ("python", "native")}
    rows.append(("env steps/s (mk_env.env, obs + mask)", env["python"], env["native"], env["native"] / env["python"]))
    chess = chess_steps_per_second(a.seconds)
    if chess is not None:
        rows.append(("env steps/s: chess_v6 | ours (native)", chess, env["native"], env["native"] / chess))
    for n in a.batch:
        bat = {b: batch_steps_per_second(a.players, n, b, a.seconds) for b in ("python", "native")}
        rows.append((f"batch API steps/s, {n} games", bat["python"], bat["native"], bat["native"] / bat["python"]))
    vec = vector_steps_per_second(a.players, a.batch[0], a.seconds)
    rows.append((f"make_vec learner steps/s, {a.batch[0]} games", env["native"], vec, vec / env["native"]))
    print(f"{a.players} players, {a.seconds:g} s a figure, one process")
    print(f"{'figure':42s} {'python':>12s} {'native':>12s} {'ratio':>8s}")
    for name, py, nat, ratio in rows:
        print(f"{name:42s} {py:12.1f} {nat:12.1f} {ratio:7.1f}x")
    if chess is None:
        print("chess_v6 not timed: pip install chess pygame (the [compare] extra)")


if __name__ == "__main__":
    main()
