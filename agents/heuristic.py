"""``heuristic``: one-ply lookahead on a determinized copy with a hand-written evaluation.

For each decision the agent draws one determinized state, lists a few *candidate* actions (never all
~1,500 trades nor all few hundred tunnel placements: placements are ranked by a cheap static score
first), applies each on a clone, lets its own quick default policy settle the sub-decisions that
follow (mineral, pedestal, workshop, bribes, statue destination, spell choices) and scores the result
with :func:`evaluate`: the seat's honour as if the game ended now plus a weighted *potential* (what it
owns, its trollsmoot, its pedestals, how deep its network reaches, statues on their way inward).

The same pieces (:func:`candidates`, :func:`settle`, :func:`evaluate`, :func:`quick_action`) are the
prior, rollout policy and leaf evaluation of :mod:`agents.mcts`.
"""

from __future__ import annotations

import numpy as np

from mk_env.mountain_king.rules import queries as Q
from mk_env.mountain_king.rules.actions import SMOOT_CONE
from mk_env.mountain_king.rules.content import CART, COIN, MINERALS, N_RESOURCES, RESOURCES
from mk_env.mountain_king.rules.state import GameState
from mk_env.mountain_king.rules.view import PlayerView
from mk_env.mountain_king.rules.vocabulary import Phase

from .base import BaseAgent, no_argument
from .evaluation import evaluation_of

# the phases the quick policy compares, bound once (a global is cheaper than ``Phase.STEP2``)
(BRIBE, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, RECRUIT_PEDESTAL, SPELL_DIG, SPELL_HORDE, SPELL_OPTION,
 SPELL_PEDESTAL, SPELL_SMOOT, SPELL_STATUE, STATUE_DEST, STEP2, STEP3, STEP4, WORKSHOP) = (
    Phase.BRIBE, Phase.DIG_MINERAL, Phase.DIG_PEDESTAL, Phase.DIG_WORKSHOP, Phase.RECRUIT_PEDESTAL,
    Phase.SPELL_DIG, Phase.SPELL_HORDE, Phase.SPELL_OPTION, Phase.SPELL_PEDESTAL, Phase.SPELL_SMOOT,
    Phase.SPELL_STATUE, Phase.STATUE_DEST, Phase.STEP2, Phase.STEP3, Phase.STEP4, Phase.WORKSHOP)

#: potential value of one resource owned (stone, iron, heartstone, coin, cart, hammer, rune)
RESOURCE_VALUE = np.array([0.55, 0.7, 0.9, 0.45, 0.4, 0.5, 0.35])
#: a recruited troll's potential (its future cascades) while the game is young
TROLL_VALUE = 2.2
SYMBOL_VALUE = 0.25  # per resource symbol in the trollsmoot, times cascades left above it
PEDESTAL_VALUE = 2.0  # a pedestal in storage (a future point token + a doubled statue)
REACH_VALUE = 1.2  # per tier of the innermost square of the network
DIG_POTENTIAL = 0.5  # times the honour of the best tunnel the seat could pay for now
STATUE_POTENTIAL = 0.35  # times the tier value of every unearthed statue in the network
BURIED_VALUE = 0.6  # per buried statue/resource beside the network

#: sub-decisions the agent's own quick policy settles inside a lookahead
SUB_PHASES = frozenset((BRIBE, RECRUIT_PEDESTAL, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, SPELL_OPTION,
                        SPELL_SMOOT, SPELL_HORDE, SPELL_PEDESTAL, SPELL_DIG, SPELL_STATUE, STATUE_DEST,
                        WORKSHOP))
#: establishing preference (the more useful conversions first)
WORKSHOP_PREFERENCE = ("Metalworks", "Stonemill", "Stonegrinder", "Quartermaster", "Toolforge",
                       "Coinpress", "Cartwright", "Wheeljack", "Charmcrafter", "Pickforge",
                       "Runesmithy")
MAX_DIGS = 6  # tunnel placements evaluated by lookahead, best static scores first
MAX_TRADES = 4


# ================================================================================================
# evaluation
# ================================================================================================
def evaluate(st: GameState, p: int) -> float:
    """Honour as if the game ended now plus weighted potential, for seat ``p``."""
    total = float(st.score_breakdown(p)["total"])
    if st.is_terminal():
        return total
    late = 0.25 if Q.in_final_round(st) else 1.0
    return total + late * potential(st, p)


def potential(st: GameState, p: int) -> float:
    """What the position promises beyond honour already counted."""
    game, geo = st.game, st.game.geo
    have = Q.resources_owned(st, p)
    value = float(RESOURCE_VALUE @ have)
    value += DIG_POTENTIAL * best_affordable_honour(st, have)
    smoot = st.smoot[p]
    n_trolls = int((smoot >= 0).sum())
    room = max(0, game.max_trolls - n_trolls)
    value += TROLL_VALUE * n_trolls * min(1.0, room / 3 + 0.3)
    # symbols regenerate each time a cascade passes: weight by the slots still open above them
    open_above = _open_above(smoot)
    for s in np.flatnonzero(smoot >= 0):
        value += SYMBOL_VALUE * int(game.card_symbols[smoot[s]].sum()) * open_above[s]
    value += PEDESTAL_VALUE * int(st.storage_pedestals[game.storage_of[p]].sum())
    net = st.reach[p]
    value += REACH_VALUE * float(geo.tier[net].max(initial=0))
    statues = np.flatnonzero((st.statue[:-1] >= 0) & net[:-1])
    for sq in statues:
        t = int(geo.tier[sq])
        if t > 0:
            mult = 2 if st.pedestal[sq] == st.statue[sq] else 1
            value += STATUE_POTENTIAL * game.pack.statue_values[t - 1] * mult
    frontier = _frontier(st, p)
    value += BURIED_VALUE * float(((st.statue[frontier] >= 0) | (st.buried[frontier] >= 0)).sum())
    return value


def _open_above(smoot: np.ndarray) -> np.ndarray:
    """For each slot, how many empty slots above it would cascade through it."""
    out = np.zeros(len(smoot))
    for top, cone in enumerate(SMOOT_CONE):
        if smoot[top] < 0:
            for s in cone[1:]:
                out[s] += 1
    return out


def _frontier(st: GameState, p: int) -> np.ndarray:
    """Empty squares beside p's network."""
    nb = st.game.geo.neighbours
    net = st.reach[p]
    side = np.zeros_like(net)
    side[nb[net]] = True
    side &= st.kind == 0
    side[-1] = False
    return side


def best_affordable_honour(st: GameState, have: np.ndarray) -> int:
    """Honour of the best tunnel the minerals owned would pay for (geometry ignored)."""
    honour = st.game.pack.tunnel_honour
    best = 0
    for m, name in enumerate(MINERALS):
        size = min(int(have[m]), max(honour))
        if size >= min(honour):
            best = max(best, honour[size][name])
    return best


# ================================================================================================
# candidates
# ================================================================================================
def split_blocks(layout, legal: np.ndarray) -> dict[str, list[int]]:
    """Legal actions grouped by block, as arguments within the block (vectorised decode)."""
    out: dict[str, list[int]] = {}
    for block in layout.BLOCKS:
        lo = layout.offset[block]
        i, j = np.searchsorted(legal, (lo, lo + layout.sizes[block]))
        if j > i:
            out[block] = (legal[i:j] - lo).tolist()
    return out


def candidates(st: GameState, p: int) -> list[int]:
    """A short list of the decisions worth a lookahead, from the legal ones."""
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
            args = top_digs(st, p, args, MAX_DIGS)
        out += [layout.index(block, a) for a in args]
    if "trade" in blocks and _trading_useful(st, p):
        out += [layout.index("trade", a) for a in useful_trades(st, p, blocks["trade"])]
    return out or [int(legal[0])]


def _trading_useful(st: GameState, p: int) -> bool:
    """Trade to complete a dig in step 2, or to make sets in the final turns."""
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
        cost = float(RESOURCE_VALUE @ give)
        if gain not in best or cost < best[gain][0]:
            best[gain] = (cost, arg)
    ranked = sorted(best.values())
    return [arg for _, arg in ranked[:MAX_TRADES]]


def top_digs(st: GameState, p: int, args: list[int], k: int) -> list[int]:
    """The ``k`` tunnel placements with the best static score."""
    if len(args) <= k:
        return args
    scores = dig_scores(st, p, np.asarray(args))
    order = np.argsort(-scores, kind="stable")[:k]
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
    score -= 1.0 * table.rubble[args]
    return score


# ================================================================================================
# quick default policy (sub-decisions inside a lookahead; rollouts)
# ================================================================================================
def quick_action(st: GameState, p: int) -> int:
    """A cheap rule-of-thumb decision for the current phase (no lookahead)."""
    legal = st.legal_actions()
    layout = st.game.layout
    if len(legal) == 1:
        return int(legal[0])
    ph = Q.phase(st)
    by_block = split_blocks(layout, legal)
    pick = _quick_pick(st, p, ph, by_block)
    if pick is not None:
        return layout.index(*pick)
    if "pass" in by_block:
        return 0
    return int(legal[0])


def _quick_pick(st: GameState, p: int, ph: int, by: dict[str, list[int]]) -> tuple[str, int] | None:
    game = st.game
    have = Q.resources_owned(st, p)
    if ph == BRIBE:
        # coins first, else the resource owned most of (minerals last)
        order = sorted(by["bribe"], key=lambda r: (r != COIN, r < 3, -have[r]))
        return "bribe", order[0]
    if ph == DIG_MINERAL:
        return "mineral", max(by["mineral"])  # heartstone > iron > stone
    if ph == DIG_PEDESTAL and "pedestal" in by:
        anchor = int(game.geo.tunnel_placements.anchor[Q.tunnel_being_dug(st)])
        tier = int(game.geo.tier[anchor]) - 1
        return "pedestal", max(by["pedestal"], key=lambda c: st.track_value[tier, c])
    if ph in (RECRUIT_PEDESTAL, SPELL_PEDESTAL):
        return "pedestal", max(by["pedestal"], key=lambda c: st.bag[c])
    if ph == DIG_WORKSHOP and "establish" in by:
        names = [w.name for w in game.pack.workshops]
        rank = {n: i for i, n in enumerate(WORKSHOP_PREFERENCE)}
        return "establish", min(by["establish"], key=lambda w: rank.get(names[w], 99))
    if ph == SPELL_OPTION:
        spell = Q.spell_being_cast(st)
        def worth(k: int) -> float:
            return sum(RESOURCE_VALUE[RESOURCES.index(r)] * n for r, n in spell.params["options"][k].items())
        return "spell_option", max(by["spell_option"], key=worth)
    if ph == SPELL_SMOOT:
        return "smoot_slot", max(by["smoot_slot"], key=lambda s: _cone_missing(st, p, s))
    if ph == SPELL_HORDE:
        return "horde_slot", max(by["horde_slot"], key=lambda h: (int(st.horde_bribes[h].sum()),
                                                                  int(game.card_symbols[st.horde[h]].sum())))
    if ph in (SPELL_DIG, STEP2) and "dig" in by:
        return "dig", top_digs(st, p, by["dig"], 1)[0]
    if ph == STEP2 and "recruit" in by:
        return "recruit", max(by["recruit"], key=lambda a: _recruit_score(st, p, a))
    if ph == SPELL_STATUE and "select_statue" in by:
        return "select_statue", by["select_statue"][0]
    if ph == STATUE_DEST:
        src = Q.statue_being_moved(st)
        return "move_statue", max(by["move_statue"], key=lambda sq: _spot_value(st, src, sq))
    if ph == STEP3 and "hall" in by:
        return "hall", by["hall"][0]
    if ph == STEP4 and "select_statue" in by:
        gains = {sq: _best_move_gain(st, p, sq) for sq in by["select_statue"]}
        sq = max(gains, key=gains.get)
        if gains[sq] > 0:
            return "select_statue", sq
    return None


def _cone_missing(st: GameState, p: int, slot: int) -> int:
    """Symbols a cascade from ``slot`` would fill."""
    game = st.game
    total = 0
    for s in SMOOT_CONE[slot]:
        card = st.smoot[p, s]
        if card >= 0:
            total += int(np.maximum(game.card_symbols[card] - st.tokens[p, s], 0).sum())
    return total


def _recruit_score(st: GameState, p: int, arg: int) -> float:
    h, t = st.game.layout.recruit_args(arg)
    card = st.horde[h]
    return float(st.game.card_symbols[card].sum()) + _cone_missing(st, p, t) - 0.01 * h


def _spot_value(st: GameState, src: int, sq: int) -> float:
    """How good a square is for the statue now on ``src`` (tier value, doubled on its pedestal,
    an altar's swing)."""
    game = st.game
    clan = int(st.statue[src])
    if st.hall_at[sq] >= 0:
        hall = int(st.hall_at[sq])
        if st.hall_altar[hall] == sq:
            h = game.pack.great_halls[hall]
            return float(h.high - h.low)
        return -1.0
    t = int(game.geo.tier[sq])
    v = game.pack.statue_values[t - 1] if t > 0 else 0
    return float(v * (2 if st.pedestal[sq] == clan else 1))


def _best_move_gain(st: GameState, p: int, sq: int) -> float:
    dests = Q.statue_destinations(st, p, sq)
    if len(dests) == 0:
        return 0.0
    here = _spot_value(st, sq, sq)
    return max(_spot_value(st, sq, int(d)) for d in dests) - here - 0.5


def settle(st: GameState, p: int, limit: int = 12) -> None:
    """Resolve p's pending sub-decisions with the quick policy, so the position can be evaluated."""
    for _ in range(limit):
        if st.current_player() != p or Q.phase(st) not in SUB_PHASES:
            return
        st.apply(quick_action(st, p))


# ================================================================================================
# the agent
# ================================================================================================
def lookahead_values(st: GameState, p: int, actions: list[int]) -> np.ndarray:
    """Value of each action for ``p`` after applying it to a clone and settling."""
    values = np.empty(len(actions))
    for i, a in enumerate(actions):
        c = st.clone()
        c.apply(a)
        settle(c, p)
        values[i] = evaluate(c, p)
    return values


def best_action(st: GameState, p: int, rng: np.random.Generator) -> int:
    """The heuristic's choice on a (determinized) state: one-ply lookahead over candidates."""
    cands = candidates(st, p)
    if len(cands) == 1:
        return cands[0]
    values = lookahead_values(st, p, cands)
    best = np.flatnonzero(values >= values.max() - 1e-9)
    return int(cands[best[rng.integers(len(best))]])


class HeuristicAgent(BaseAgent):
    """Greedy one-ply lookahead with :func:`evaluate` (in another game of the suite: that game's
    evaluation module's ``best_action``, :mod:`agents.evaluation`)."""

    name = "heuristic"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        st = view.determinize(rng)
        return evaluation_of(view.game).best_action(st, view.seat, rng)


def from_spec(arg: str) -> HeuristicAgent:
    """The ``heuristic`` spec (no argument)."""
    no_argument("heuristic", arg)
    return HeuristicAgent()
