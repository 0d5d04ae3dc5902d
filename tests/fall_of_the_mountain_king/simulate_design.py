"""Design check of the default pack (not a test): plays games between a cheap "sensible" player (one-step
greedy over a static evaluation, looking ahead to the end of an Advance) or random players, and prints how
often each action kind is used, how long the waves are, the honor by category, and each seat's wins with a
Wilson 95% interval.

    python tests/fall_of_the_mountain_king/simulate_design.py --players 2 --games 40 --seed 1 --policy greedy
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

import numpy as np

from mk_env.fall_of_the_mountain_king.rules import CATEGORIES, Block, Game, Phase
from mk_env.fall_of_the_mountain_king.rules.board import controller
from mk_env.fall_of_the_mountain_king.rules.flow import leader


def value(st, seat: int) -> float:
    """A static evaluation: honor, votes, controlled caverns, trolls on the map, champion leads."""
    side = st.game.side
    held = sum(1 for c in range(side.n_caverns) if controller(st, c) == seat)
    on_map = sum(st.trolls[x][seat] for x in range(side.size))
    leads = sum(1 for c in st.display if leader(st.influence[c], st.influence_stamp[c]) == seat)
    votes = sum(v[seat] for v in st.votes)
    return st.honor[seat] + 1.2 * votes + 1.5 * held + 0.2 * on_map + 2.0 * leads + 0.3 * st.supply[seat]


def finish_advance(st, seat: int) -> None:
    """Look ahead to the end of an Advance under way: move every troll the power allows (so a destination
    is judged by its battle)."""
    done = st.game.layout.offset[Block.DONE]
    while st.phase == Phase.ADVANCE_TROLL and st.decider == seat:
        moves = [int(a) for a in st.legal_actions() if a != done]
        st.apply(moves[0] if moves else done)


def greedy(st, rng) -> int:
    """The legal action whose result evaluates best for the deciding seat (ties at random)."""
    seat = st.decider
    legal = st.legal_actions()
    if len(legal) == 1:
        return int(legal[0])
    if len(legal) > 40:
        legal = rng.choice(legal, 40, replace=False)
    best, out = -1e9, []
    for a in legal:
        c = st.clone()
        c.apply(int(a))
        finish_advance(c, seat)
        v = value(c, seat) + 1e-3 * rng.random()
        if v > best:
            best, out = v, [int(a)]
    return out[0]


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", choices=("greedy", "random"), default="greedy")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    kinds: Counter = Counter()
    turns_by_wave: Counter = Counter()
    wins = [0.0] * args.players
    wins_from_start = [0.0] * args.players  # by place clockwise from the first start player
    decisions, honors = [], []
    by_category = np.zeros(len(CATEGORIES))
    events: Counter = Counter()
    t0 = time.time()
    for i in range(args.games):
        st = Game(args.players).new_initial_state(args.seed * 100000 + i)
        first = st.start_player
        k = 0
        while not st.is_terminal():
            a = greedy(st, rng) if args.policy == "greedy" else int(rng.choice(st.legal_actions()))
            block, arg = st.game.layout.decode(a)
            if st.phase == Phase.SWARM:
                events["breaches"] += 1
            if st.phase == Phase.LAIR_CHOICE and st.pending.get("reason") == "repelled":
                events["repulses"] += 1
            if st.phase == Phase.TURN and block in (Block.WEAK, Block.STRONG):
                action = ("advance", "bolster", "influence", "gnome")[arg // st.game.layout.symbol_cells]
                kinds[f"{block} {action}"] += 1
            if st.phase == Phase.TURN and block == Block.WEAK and not st.pending.get("weak"):
                turns_by_wave[st.wave] += 1
            elif st.phase == Phase.TURN and block in (Block.STRONG, Block.END_TURN) and not st.pending.get("weak"):
                turns_by_wave[st.wave] += 1
            st.apply(a)
            k += 1
        decisions.append(k)
        by_category += np.array(st.honor_by).mean(axis=0)
        honors.append(max(st.honor))
        r = st.ranks()
        w = r.count(0)
        for p in range(args.players):
            if r[p] == 0:
                wins[p] += 1 / w
                wins_from_start[(p - first) % args.players] += 1 / w
    n = args.games
    print(f"{n} games, {args.players} players, policy {args.policy}, seed {args.seed}, {time.time() - t0:.0f}s")
    print(f"decisions per game: mean {np.mean(decisions):.0f} (min {min(decisions)}, max {max(decisions)});"
          f" winner's honor mean {np.mean(honors):.1f}")
    print("battle turns per game by wave:", {w: round(turns_by_wave[w] / n, 1) for w in (1, 2, 3)})
    print("mean honor per player by category:", {c: round(float(v), 1) for c, v in zip(CATEGORIES, by_category / n)})
    print("per game:", {k: round(v / n, 2) for k, v in events.items() if k != "victories"})
    total = sum(v for k, v in kinds.items() if v)
    print("actions taken:", {k: f"{v / total:.0%}" for k, v in sorted(kinds.items()) if v})
    for p in range(args.players):
        lo, hi = wilson(round(wins[p]), n)
        print(f"seat {p}: {wins[p]:.1f} wins ({wins[p] / n:.0%}, Wilson 95% {lo:.0%}-{hi:.0%})")
    for k in range(args.players):
        lo, hi = wilson(round(wins_from_start[k]), n)
        print(f"place {k} from the first start player: {wins_from_start[k]:.1f} wins ({wins_from_start[k] / n:.0%}, "
              f"Wilson 95% {lo:.0%}-{hi:.0%})")


if __name__ == "__main__":
    main()
