"""The heuristic's quick default policy (sub-decisions inside a lookahead, rollouts) and ``settle``.

Rules of thumb for the small choices (mineral, pedestal, bribes, statue destination, spell choices); two
choices are settled by value instead, because a rule of thumb loses what they are worth: a workshop's
uses (each use the conversion that raises :func:`~agents.heuristic_eval.evaluate` most, until none
does: an activation is valued with its best uses, not as an activation followed by nothing) and the
kind of workshop established on a new site (:func:`establish_worth`: what one use of it would gain the
seat now, plus the worth of a kind its network does not touch yet).
"""

from __future__ import annotations

import numpy as np

from mk_env.mountain_king.rules import queries as Q
from mk_env.mountain_king.rules import scoring
from mk_env.mountain_king.rules.actions import SMOOT_CONE
from mk_env.mountain_king.rules.content import COIN, RESOURCES
from mk_env.mountain_king.rules.economy import best_leftover_sets
from mk_env.mountain_king.rules.state import GameState
from mk_env.mountain_king.rules.vocabulary import Phase

from .heuristic_candidates import distinct_uses, split_blocks, top_digs
from .heuristic_eval import (best_affordable_honour, evaluate, weights,
                             workshop_kinds_touched)
from .payment_choice import choose_token

# the phases the quick policy compares, bound once (a global is cheaper than ``Phase.STEP2``)
(BRIBE, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, RECRUIT_PEDESTAL, SPELL_DIG, SPELL_HORDE, SPELL_OPTION,
 SPELL_PEDESTAL, SPELL_SMOOT, SPELL_STATUE, STATUE_DEST, STEP2, STEP3, STEP4, WORKSHOP) = (int(ph) for ph in (
    Phase.BRIBE, Phase.DIG_MINERAL, Phase.DIG_PEDESTAL, Phase.DIG_WORKSHOP, Phase.RECRUIT_PEDESTAL,
    Phase.SPELL_DIG, Phase.SPELL_HORDE, Phase.SPELL_OPTION, Phase.SPELL_PEDESTAL, Phase.SPELL_SMOOT,
    Phase.SPELL_STATUE, Phase.STATUE_DEST, Phase.STEP2, Phase.STEP3, Phase.STEP4, Phase.WORKSHOP))
PAY = int(Phase.PAY)  # payment="choose": the tokens that pay (agents.payment_choice)

#: sub-decisions the agent's own quick policy settles inside a lookahead
SUB_PHASES = frozenset((BRIBE, RECRUIT_PEDESTAL, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, SPELL_OPTION,
                        SPELL_SMOOT, SPELL_HORDE, SPELL_PEDESTAL, SPELL_DIG, SPELL_STATUE, STATUE_DEST,
                        WORKSHOP, PAY))
NEW_KIND_WORTH = 1.0  # establishing a kind the seat's network does not touch yet
SETTLE_LIMIT = 16  # sub-decisions :func:`settle` resolves at most


def quick_action(st: GameState, p: int) -> int:
    """A cheap rule-of-thumb decision for the current phase (no lookahead; deterministic)."""
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
    if ph == PAY:
        return "pay_token", choose_token(st, p)
    if ph == BRIBE:
        have = Q.resources_owned(st, p)
        # coins first, else the resource owned most of (minerals last)
        order = sorted(by["bribe"], key=lambda r: (r != COIN, r < 3, -have[r], r))
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
        return "establish", max(by["establish"], key=lambda w: (establish_worth(st, p, w), -w))
    if ph == SPELL_OPTION:
        spell = Q.spell_being_cast(st)

        def worth(k: int) -> float:
            return sum(weights().resource[RESOURCES.index(r)] * n for r, n in spell.params["options"][k].items())
        return "spell_option", max(by["spell_option"], key=worth)
    if ph == SPELL_SMOOT:
        if Q.spell_being_cast(st).effect == "ascension":  # give up the Level-2 troll of least worth
            return "smoot_slot", min(by["smoot_slot"], key=lambda s: (
                int(game.card_symbols[st.smoot[p, s]].sum()) + int(st.tokens[p, s].sum()), s))
        return "smoot_slot", max(by["smoot_slot"], key=lambda s: _cone_missing(st, p, s))
    if ph == SPELL_HORDE:
        return "horde_slot", max(by["horde_slot"], key=lambda h: (int(st.horde_bribes[h].sum()),
                                                                  int(game.card_symbols[st.horde[h]].sum())))
    if ph in (SPELL_DIG, STEP2) and "dig" in by:
        return "dig", top_digs(st, p, by["dig"], 1)[0]
    if ph == STEP2 and "recruit" in by:
        return "recruit", max(by["recruit"], key=lambda a: _recruit_score(st, p, a))
    if ph == STATUE_DEST:
        src = Q.statue_being_moved(st)
        left = max(0, int(st.free_moves) - 1)  # free moves left after this one: plan the path
        return "move_statue", max(by["move_statue"], key=lambda sq: (_reach_value(st, p, src, sq, left), -sq))
    if ph == STEP3 and "hall" in by:
        return "hall", by["hall"][0]
    if "select_statue" in by and (ph in (STEP4, SPELL_STATUE) or st.free_moves > 0):
        free = int(st.free_moves)
        cost = 0.0 if free else 0.5  # a spell's free move, or a cart
        gains = {sq: _best_move_gain(st, p, sq, max(1, free)) - cost for sq in by["select_statue"]}
        sq = max(gains, key=lambda k: (gains[k], -k))
        if gains[sq] > 0 or "pass" not in by:
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


def _statue_honour(st: GameState, p: int, src: int, dest: int) -> int:
    """p's statue and great hall honour with the statue on ``src`` moved to ``dest`` (the scoring's own
    count: one statue per tunnel, doubled on its pedestal, an altar's high value)."""
    net = st.reach[st.game.teammates[p]].any(axis=0)
    clan = int(st.statue[src])
    st.statue[src], st.statue[dest] = -1, clan
    try:
        return scoring.statue_honour(st, net) + scoring.great_hall_honour(st, net)
    finally:
        st.statue[dest], st.statue[src] = -1, clan


def _best_move_gain(st: GameState, p: int, sq: int, moves: int = 1) -> float:
    """Honour the best square ``moves`` moves of the statue on ``sq`` can reach adds (before the carts
    they cost)."""
    dests = Q.statue_destinations(st, p, sq)
    if len(dests) == 0:
        return 0.0
    here = _statue_honour(st, p, sq, sq)
    return max(_reach_value(st, p, sq, int(d), moves - 1) for d in dests.tolist()) - here


def _reach_value(st: GameState, p: int, src: int, sq: int, more: int) -> float:
    """The most honour the statue now on ``src`` makes on ``sq`` or on the squares ``more`` further
    moves take it from there (a spell's free moves: Tremor's two)."""
    best = _statue_honour(st, p, src, sq)
    if more > 0:
        for d in Q.statue_destinations(st, p, sq).tolist():
            if d != src:
                best = max(best, _reach_value(st, p, src, int(d), more - 1))
    return best


# ================================================================================================
# workshops by value
# ================================================================================================
def _resource_worth(st: GameState, have: np.ndarray) -> float:
    """What a bundle of resources is worth to its owner: its use (the potential's resource terms at
    full weight) plus the sets it would score."""
    game = st.game
    w = weights()
    return (float(w.resource_values @ have) + w.dig_potential * best_affordable_honour(st, have)
            + best_leftover_sets(have, game.set_size, game.trade_rate))


def establish_worth(st: GameState, p: int, w: int) -> float:
    """The worth to ``p`` of establishing workshop kind ``w``: the best gain one of its uses would
    bring now (needs-aware: a mineral that completes a bigger tunnel, a set), the worth of a kind ``p``'s
    network does not touch yet, and what future uses are worth."""
    layout = st.game.layout
    have = Q.resources_owned(st, p)
    base = _resource_worth(st, have)
    held = int(st.tokens[p].sum())
    best = -1.0
    for conv in (layout.conversions[j] for j in np.flatnonzero(layout.conv_workshop == w).tolist()):
        if conv.move is not None:  # the Quartermaster frees a troll to generate again
            gain = 0.5 if held else 0.0
        else:
            give, got = np.asarray(conv.give), np.asarray(conv.gain)
            if (give > have).any():
                continue
            gain = _resource_worth(st, have - give + got) - base
        best = max(best, gain)
    new = NEW_KIND_WORTH if w not in workshop_kinds_touched(st, p) else 0.0
    return best + new + weights().workshop


def best_workshop_use(st: GameState, p: int) -> int:
    """In the workshop phase: the use (or pass, action 0) that leaves ``p`` the best evaluation; ties
    go to pass."""
    layout = st.game.layout
    by = split_blocks(layout, st.legal_actions())
    best_value, best = evaluate(st, p) + 1e-9, 0
    for j in distinct_uses(st, by.get("workshop_use", [])):
        c = st.clone()
        a = layout.index("workshop_use", j)
        c.apply(a)
        v = evaluate(c, p)
        if v > best_value:
            best_value, best = v, a
    return best


def settle(st: GameState, p: int, limit: int = SETTLE_LIMIT) -> None:
    """Resolve p's pending sub-decisions (the quick policy; a workshop's uses by value), so the
    position can be evaluated."""
    for _ in range(limit):
        if st.current_player() != p:
            return
        ph = Q.phase(st)
        if ph not in SUB_PHASES:
            return
        st.apply(best_workshop_use(st, p) if ph == WORKSHOP else quick_action(st, p))
