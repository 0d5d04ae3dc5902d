"""The heuristic's candidate decisions: a short list worth a lookahead (never all ~1,500 trades nor all
few hundred tunnel placements: placements are ranked by a cheap static score first), and the fixed
preference that breaks ties between equally valued decisions (so the agent is reproducible), or, given a
generator, a tie-break at random (so the agent has no favourite direction on a symmetric board)."""

from __future__ import annotations

import numpy as np

from mk_env.mountain_king.rules import queries as Q
from mk_env.mountain_king.rules.content import CART, MINERALS, N_RESOURCES
from mk_env.mountain_king.rules.state import GameState
from mk_env.mountain_king.rules.vocabulary import Phase

from .heuristic_eval import weights

STEP2, STEP3, STEP4 = int(Phase.STEP2), int(Phase.STEP3), int(Phase.STEP4)

MAX_DIGS = 6  # tunnel placements evaluated by lookahead, best static scores first
MAX_TRADES = 4
MAX_ANY_GIVES = 3  # Pickforge, Wheeljack: the cheapest pairs of resources offered
#: tie-break between equally valued decisions: the lower rank first, then the lower action number.
#: Doing nothing (pass) is preferred to an action that changes nothing the evaluation sees (e.g. a
#: workshop activated and left unused); trades last (they only convert what is owned).
BLOCK_RANK = {"pass": 0, "trade": 2}
TIE_TOLERANCE = 1e-9  # values this close to the best are tied


def split_blocks(layout, legal: np.ndarray) -> dict[str, list[int]]:
    """Legal actions grouped by block, as arguments within the block (vectorised decode)."""
    out: dict[str, list[int]] = {}
    for block in layout.BLOCKS:
        lo = layout.offset[block]
        i, j = np.searchsorted(legal, (lo, lo + layout.sizes[block]))
        if j > i:
            out[block] = (legal[i:j] - lo).tolist()
    return out


def preferred(layout, actions: list[int], values: np.ndarray, tolerance: float = TIE_TOLERANCE,
              rng: np.random.Generator | None = None) -> int:
    """The action of highest value; among those within ``tolerance`` of it, the first by
    :data:`BLOCK_RANK` (1 for blocks it does not name), then by action number (deterministic), or, with
    ``rng``, one drawn from those of the first rank."""
    top = float(values.max()) - tolerance
    tied = [a for a, v in zip(actions, values.tolist()) if v >= top]
    rank = min(BLOCK_RANK.get(layout.decode(a)[0], 1) for a in tied)
    tied = [a for a in tied if BLOCK_RANK.get(layout.decode(a)[0], 1) == rank]
    return int(tied[int(rng.integers(len(tied)))]) if rng is not None else min(tied)


def candidates(st: GameState, p: int, rng: np.random.Generator | None = None) -> list[int]:
    """A short list of the decisions worth a lookahead, from the legal ones (``rng``: tunnel placements of
    equal static score cut at random, :func:`top_digs`)."""
    legal = st.legal_actions()
    if len(legal) <= 1:
        return [int(a) for a in legal]
    layout = st.game.layout
    blocks = split_blocks(layout, legal)
    out: list[int] = []
    for block, args in blocks.items():
        if block == "trade":
            continue
        if block == "dig":
            args = top_digs(st, p, args, MAX_DIGS, rng)
        elif block == "workshop_use":
            args = distinct_uses(st, args)
        out += [layout.index(block, a) for a in args]
    if "trade" in blocks and _trading_useful(st, p):
        out += [layout.index("trade", a) for a in useful_trades(st, p, blocks["trade"])]
    return out or [int(legal[0])]


def distinct_uses(st: GameState, args: list[int]) -> list[int]:
    """Workshop conversions with distinct effects: the Quartermaster's one per token kind (from the
    troll whose cone regenerates most often, the lowest slot), a spend-any-two workshop's
    :data:`MAX_ANY_GIVES` cheapest pairs."""
    layout = st.game.layout
    seen: set[tuple] = set()
    out, any_two = [], []
    for j in args:
        conv = layout.conversions[j]
        if conv.move is not None:
            key: tuple = ("move", conv.move[1])
        elif st.game.pack.workshops[conv.workshop].trades[0].give_any:
            any_two.append((float(weights().resource_values @ np.asarray(conv.give)), j))
            continue
        else:
            key = (conv.give, conv.gain)
        if key not in seen:
            seen.add(key)
            out.append(j)
    return out + [j for _, j in sorted(any_two)[:MAX_ANY_GIVES]]


def _trading_useful(st: GameState, p: int) -> bool:
    """Trade to complete a dig in step 2, or to move statues and make sets in the final turns."""
    ph = Q.phase(st)
    return ph == STEP2 or (Q.in_final_round(st) and ph in (STEP4, STEP3))


def useful_trades(st: GameState, p: int, args: list[int]) -> list[int]:
    """For each mineral (and a cart), the legal trade that gives away the least valuable four."""
    layout = st.game.layout
    have = Q.resources_owned(st, p)
    wanted = [m for m in range(len(MINERALS)) if have[m] >= 2] + ([CART] if Q.phase(st) == STEP4 else [])
    if Q.in_final_round(st):
        wanted = list(range(N_RESOURCES))
    best: dict[int, tuple[float, int]] = {}
    for arg in args:
        give, gain = layout.trade_args(arg)
        if gain not in wanted or give[gain] > 0:
            continue
        cost = float(weights().resource_values @ give)
        if gain not in best or cost < best[gain][0]:
            best[gain] = (cost, arg)
    ranked = sorted(best.values())
    return [arg for _, arg in ranked[:MAX_TRADES]]


def top_digs(st: GameState, p: int, args: list[int], k: int, rng: np.random.Generator | None = None) -> list[int]:
    """The ``k`` tunnel placements with the best static score; among equal scores the lower action number
    first, or, with ``rng``, in random order."""
    if len(args) <= k:
        return args
    scores = dig_scores(st, p, np.asarray(args))
    order = (np.argsort(-scores, kind="stable") if rng is None  # equal up to float rounding: a tie
             else np.lexsort((rng.random(len(scores)), -np.round(scores, 9))))[:k]
    return [int(args[i]) for i in order]


def dig_scores(st: GameState, p: int, args: np.ndarray) -> np.ndarray:
    """Cheap static value of tunnel placements: honour, depth, buried things, anchors, rubble."""
    game, geo = st.game, st.game.geo
    table = geo.tunnel_placements
    have = Q.resources_owned(st, p)
    size = table.size[args]
    honour_table = game.pack.tunnel_honour
    honour = np.array([max(honour_table[int(z)][MINERALS[m]] for m in range(3) if have[m] >= z)
                       for z in size], dtype=float)
    cells = table.cells[args]  # padded with the sentinel
    tier = geo.tier[cells]
    finds = ((st.statue[cells] >= 0) | (st.buried[cells] >= 0)).sum(axis=1)
    score = honour + 0.8 * tier.max(axis=1) + 0.15 * tier.sum(axis=1) + 1.5 * finds
    anchors = table.anchor[args]
    if int(st.storage_pedestals[game.storage_of[p]].sum()) > 0:
        score += np.where(anchors >= 0, 0.6 * geo.tier[np.maximum(anchors, 0)], 0.0)
    if not st.ignore_rubble:
        score -= 1.0 * table.rubble[args]
    return score
