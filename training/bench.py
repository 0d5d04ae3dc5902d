"""``mk-env bench``: how fast the environment runs, beside PettingZoo's classic games.

Figures (one process, one core):

* env steps/s and games/s: random masked play through the PettingZoo AEC API of any game of the suite
  (``--game``; its ``env()``, safety wrappers included), the observation and the mask built at every step, for
  each of the game's player counts;
* engine decisions/s: the rules engine alone (legal actions + apply);
* microseconds per ``clone()``, JSON save, JSON load, mask and observation, averaged over states sampled
  from random games; the observation also along consecutive states of play (as the env meets them),
  and the benchmark's own policy (reading the mask, drawing an action);
* peak memory (Python allocations during one game, and the process's maximum resident size);
* with ``--compare``: the same loop on PettingZoo's ``chess_v6`` and ``connect_four_v3`` (needs the
  ``chess`` and ``pygame`` packages), and our speed as a multiple of each.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import resource
import sys
import time
import tracemalloc
from typing import Any, Callable

import numpy as np

from mk_env.core.env.masks import random_legal_action
from mk_env.games import DEFAULT_GAME, game_entry, load, make_game

from training import cli
from training.play import add_game_argument


def random_aec_loop(env: Any, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random masked play through the AEC API for ``seconds``: steps/s and games/s (wall clock), and
    steps per CPU second of this process (what one idle core would give; the wall-clock figure drops
    when other jobs share the core: ``cpu_share`` is CPU time / wall time)."""
    rng = np.random.default_rng(seed)
    steps = games = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=int(rng.integers(2**31)))
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                action = random_legal_action(obs["action_mask"], rng)
            env.step(action)
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - cpu_start, 1e-9)
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "steps": steps, "games": games,
            "steps_per_cpu_s": steps / cpu, "cpu_share": cpu / elapsed}


def engine_loop(num_players: int, seconds: float, seed: int = 0, game_name: str = DEFAULT_GAME) -> dict[str, float]:
    """The rules engine alone: random legal decisions per second."""
    game = make_game(game_name, num_players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        st = game.new_initial_state(int(rng.integers(2**31)))
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"decisions_per_s": steps / elapsed, "games_per_s": games / elapsed}


def sample_states(num_players: int, count: int, seed: int = 0, game_name: str = DEFAULT_GAME) -> list:
    """States from random games (one in five kept), for timing single operations; where the game has a
    ``trade`` block (the first game's) trades are rarely chosen, so the states dig and build."""
    def visit(st: Any, rng: np.random.Generator, out: list) -> None:
        legal = st.legal_actions()
        non_trade = [a for a in legal if st.game.layout.decode(int(a))[0] != "trade"]
        st.apply(int(rng.choice(non_trade if non_trade and rng.random() < 0.95 else legal)))
        if rng.random() < 0.2:
            out.append(st.clone())
    return _collect_states(num_players, count, seed, visit, game_name)


def play_states(num_players: int, count: int, seed: int = 0, game_name: str = DEFAULT_GAME) -> list:
    """Consecutive states of random games (copies), in the order play meets them."""
    def visit(st: Any, rng: np.random.Generator, out: list) -> None:
        out.append(st.clone())
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    return _collect_states(num_players, count, seed, visit, game_name)


def _collect_states(num_players: int, count: int, seed: int, visit: Callable[..., None],
                    game_name: str = DEFAULT_GAME) -> list:
    """Play random games until ``count`` states are collected: ``visit(state, rng, out)`` takes one
    decision and may append copies of states to ``out``."""
    game = make_game(game_name, num_players)
    rng = np.random.default_rng(seed)
    out: list = []
    while len(out) < count:
        st = game.new_initial_state(int(rng.integers(2**31)))
        while not st.is_terminal() and len(out) < count:
            visit(st, rng, out)
    return out


def time_us(fn: Callable[[Any], Any], items: list, repeat: int = 3) -> float:
    """Mean microseconds of ``fn(item)`` over ``items`` (best of ``repeat`` passes)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter() - start) / len(items))
    return best * 1e6


def operation_costs(num_players: int, count: int = 300, game_name: str = DEFAULT_GAME) -> dict[str, float]:
    """Microseconds per clone, JSON save, JSON load, mask and observation (on distinct sampled
    states, where nothing memoised applies; and on consecutive states of play, as the env meets
    them), and of the benchmark's own random policy (reading the mask, drawing an action)."""
    states = sample_states(num_players, count, game_name=game_name)
    game = states[0].game
    observer_class = load(game_entry(game_name).env).raw_env.observer_class
    observer = observer_class(game)
    texts = [s.to_json() for s in states]
    played = play_states(num_players, 4 * count, game_name=game_name)
    masks = [s.legal_mask() for s in played if not s.is_terminal()]
    rng = np.random.default_rng(0)

    def mask(st):
        getattr(st, "_cache", {}).pop("legal", None)  # rebuild the legal set (what else the state memoises stays, as in play)
        return st.legal_mask()

    return {
        "clone_us": time_us(lambda s: s.clone(), states),
        "json_save_us": time_us(lambda s: s.to_json(), states),
        "json_load_us": time_us(game.state_from_json, texts, repeat=1),
        "mask_us": time_us(mask, states),
        "observation_us": time_us(lambda s: observer.encode(s, max(s.current_player(), 0)), states),
        "observation_play_us": _play_encode_us(observer_class, game, played),
        "policy_us": time_us(lambda m: random_legal_action(m, rng), masks),
    }


def _play_encode_us(observer_class: type, game: Any, played: list) -> float:
    """Mean µs of the observation of the acting player along consecutive states (a fresh observer
    per pass, best of 3 passes)."""
    best = float("inf")
    for _ in range(3):
        observer = observer_class(game)
        start = time.perf_counter()
        for st in played:
            observer.encode(st, max(st.current_player(), 0))
        best = min(best, (time.perf_counter() - start) / len(played))
    return best * 1e6


def peak_memory(num_players: int, game_name: str = DEFAULT_GAME) -> dict[str, float]:
    """Peak Python allocations during one random game through the env, and the process's max RSS."""
    tracemalloc.start()
    env = game_env(game_name, num_players)
    random_aec_loop(env, seconds=0.0)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else random_legal_action(obs["action_mask"], rng))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"game_peak_mb": peak / 2**20,
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def game_env(game_name: str, num_players: int) -> Any:
    """The game's PettingZoo AEC env (its ``env()``, wrappers included)."""
    return load(game_entry(game_name).env).env(num_players=num_players)


def compare(seconds: float) -> dict[str, dict[str, float]]:
    """The same random loop on PettingZoo's chess and connect four (skipped if not installed)."""
    out: dict[str, dict[str, float]] = {}
    for name in ("chess_v6", "connect_four_v3"):
        try:
            module = __import__(f"pettingzoo.classic.{name}", fromlist=["env"])
        except ImportError as e:
            out[name] = {"error": f"not installed ({e.name}); pip install chess pygame"}
            continue
        out[name] = random_aec_loop(module.env(), seconds)
    return out


def run(players: list[int], seconds: float, with_compare: bool = False,
        game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Every figure, as a JSON-able dict (``game``: a game of the suite, :mod:`mk_env.games`)."""
    report: dict[str, Any] = {"game": game, "seconds_per_figure": seconds,
                              "load_avg_before": list(os.getloadavg()), "players": {}}
    for n in players:
        report["players"][n] = {
            "env": random_aec_loop(game_env(game, n), seconds),
            "engine": engine_loop(n, seconds, game_name=game),
            "ops": operation_costs(n, count=200 if seconds < 1 else 400, game_name=game),
            "memory": peak_memory(n, game),
        }
    report["load_avg_after"] = list(os.getloadavg())
    if with_compare:
        report["compare"] = compare(seconds)
        for n, fig in report["players"].items():
            fig["ratio"] = {k: fig["env"]["steps_per_s"] / v["steps_per_s"]
                            for k, v in report["compare"].items() if "steps_per_s" in v}
    return report


def profile(num_players: int, seconds: float, top: int = 15, game: str = DEFAULT_GAME) -> str:
    """cProfile's top entries (by own time) of the env loop."""
    prof = cProfile.Profile()
    env = game_env(game, num_players)
    prof.enable()
    random_aec_loop(env, seconds)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
    return buf.getvalue()


def print_report(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{report['game']} speed (one core)")
    for col in ("players", "env steps/s", "steps/CPU-s", "games/s", "engine decisions/s", "clone µs", "save µs",
                "load µs", "mask µs", "obs µs", "obs play µs", "policy µs", "game peak MB", "ratios"):
        table.add_column(col, justify="right")
    for n, fig in report["players"].items():
        ops = {k: f"{v:.0f}" if k.startswith("json") else f"{v:.1f}" for k, v in fig["ops"].items()}
        ratios = ", ".join(f"{k.split('_')[0]} x{v:.1f}" for k, v in fig.get("ratio", {}).items())
        table.add_row(str(n), f"{fig['env']['steps_per_s']:,.0f}", f"{fig['env']['steps_per_cpu_s']:,.0f}",
                      f"{fig['env']['games_per_s']:.2f}",
                      f"{fig['engine']['decisions_per_s']:,.0f}",
                      *(ops.get(k, "-") for k in ("clone_us", "json_save_us", "json_load_us", "mask_us",
                                                  "observation_us", "observation_play_us", "policy_us")),
                      f"{fig['memory']['game_peak_mb']:.1f}" if "memory" in fig else "-", ratios)
    console = Console(width=max(Console().width, 190))
    console.print(table)
    if "load_avg_before" in report:  # other processes on the machine make every figure noisier
        console.print("load average (1, 5, 15 min) before: "
                      + ", ".join(f"{x:.2f}" for x in report["load_avg_before"])
                      + f"; after: {report['load_avg_after'][0]:.2f} on {os.cpu_count()} cores")
    for name, fig in report.get("compare", {}).items():
        if "steps_per_s" in fig:
            console.print(f"{name}: {fig['steps_per_s']:,.0f} steps/s")
        else:
            console.print(f"{name}: {fig['error']}")


def _players(text: str) -> list[int] | None:
    if text == "all":
        return None  # every player count of the game
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed; use 'all' or numbers 2..5 like 2,4") from None
    if not values or any(v not in (2, 3, 4, 5) for v in values):
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed; player counts are 2..5 (like 2,4) or 'all'")
    return values


def main(args: argparse.Namespace) -> int:
    counts = game_entry(args.game).player_counts
    players = args.players or list(counts)
    if any(n not in counts for n in players):
        raise cli.UsageError(f"--players {','.join(map(str, players))}: {args.game} is for "
                             f"{', '.join(map(str, counts))} players")
    report = run(players, args.seconds, args.compare, args.game)
    print_report(report)
    if args.profile:
        print(profile(players[-1], args.seconds, game=args.game))
    text = json.dumps(report, indent=2, default=float)
    if args.json:
        with open(args.json, "w") as fh:
            fh.write(text)
    else:
        print(text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="measure env steps/s, games/s, clone/save/load/mask/observation costs",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(p)
    p.add_argument("--players", type=_players, default=None, help="'all' or e.g. 2,4 (default: all the game's)")
    p.add_argument("--seconds", type=cli.positive_float, default=5.0, help="seconds per timed loop, > 0 (default 5)")
    p.add_argument("--compare", action="store_true", help="also time PettingZoo chess_v6 and connect_four_v3")
    p.add_argument("--profile", action="store_true", help="print the profile's top entries (largest count)")
    p.add_argument("--json", metavar="PATH", type=cli.out_file,
                   help="write the figures as JSON here (default: print them)")
    p.set_defaults(func=main)


if __name__ == "__main__":
    from training.cli import main as cli_main

    sys.exit(cli_main(["bench"] + sys.argv[1:]))
