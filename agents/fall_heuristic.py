"""The Fall of the Mountain King ``heuristic``: greedy projected honor, one decision and its follow-ups ahead.

Each decision is valued on a determinized copy of the seat's view by the change in its *projected honor
margin* (:func:`evaluate`): honor already scored, plus what the board would score if it were scored now --
each domain's score (4 + 2 per controlled cavern - 1 per overrun one) times the domain scorings still to come
(waves I and II), the Great Halls, the elder table and the clan votes of the end of the game -- and a little
for what becomes honor later (trolls on the map and in reserve, supplies, desperation tokens, influence on the
champions on display, the honor boost); minus the best opponent's projection. The sub-decisions that follow a
decision (a strong action's symbols and boost, Advance's destination and trolls, a route's tie, the troll that
falls, vote or honor...) are settled by the quick policy (:func:`quick_action`: the best one-ply value) before
valuing, whoever decides them. Ties go to the lower action number, never to chance.

The same pieces (:func:`candidates`, :func:`lookahead_values`, :func:`quick_action`, :func:`settle`,
:func:`evaluate`, :func:`best_action`) are the priors, rollout policy and leaf evaluation of :mod:`agents.mcts`
for this game (:mod:`agents.evaluation`).
"""

from __future__ import annotations

import numpy as np

from mk_env.fall_of_the_mountain_king.rules import Phase, Symbol
from mk_env.fall_of_the_mountain_king.rules.ancestry import decode
from mk_env.fall_of_the_mountain_king.rules.board import forces
from mk_env.fall_of_the_mountain_king.rules.fields import DISPLAY
from mk_env.fall_of_the_mountain_king.rules.flow import standing
from mk_env.fall_of_the_mountain_king.rules.simultaneous import revealed
from mk_env.fall_of_the_mountain_king.rules.state import FallState

#: weight of a domain scoring still to come (the board will change before it)
DOMAIN_WEIGHT = 0.9
#: weight of the end-of-game scores (Great Halls, clan votes) while the game is on
END_WEIGHT = 0.8
#: value of a troll on the map, a troll in reserve, a supply, a desperation token, an influence, a boost step
#: (tuned on 40 games per setting against random, seeds 1000-1019: a troll kept in reserve is worth as much as
#: one on the map, which keeps the heuristic from spending its trolls where they score nothing)
TROLL_VALUE, RESERVE_VALUE, SUPPLY_VALUE, TOKEN_VALUE, INFLUENCE_VALUE, BOOST_VALUE = 0.3, 0.3, 0.4, 0.3, 0.5, 0.8
#: the decisions that start something of a seat's own choosing: settling stops there
MAIN = frozenset(int(p) for p in (Phase.TURN, Phase.PLACE_CARD, Phase.KEEP_CHAMPION, Phase.LAIR_PAIR,
                                  Phase.LAIR_TROLL, Phase.WILD_PAIR, Phase.GAME_OVER))
#: sub-decisions settled inside a valuation, at most
SETTLE_LIMIT = 40
#: a decision with more legal actions than this is valued on a sample of them (every block kept)
MAX_CANDIDATES = 48
ELDER = int(Symbol.ELDER)


# ================================================================================================
# evaluation
# ================================================================================================
def projected(st: FallState) -> list[float]:
    """Each seat's projected honor (see the module docstring). At the end: the final honor."""
    st = revealed(st)  # the choices made so far in a simultaneous decision count as carried out
    n = st.num_players
    out = [float(h) for h in st.honor]
    if st.is_terminal():
        return out
    g = st.game
    side, pack = g.side, g.pack
    f = forces(st)
    gnomes = [0] * side.size
    for x in st.gnome_at:
        if x >= 0:
            gnomes[x] += 1
    owner = [-1] * side.size
    for p, lairs in enumerate(st.lairs):
        for x in lairs:
            owner[x] = p
    ctrl = [_controller(f[x], owner[x]) for x in range(side.size)]
    scorings = max(0, len(pack.rules.supply_by_wave) - 1 - st.wave + 1) * DOMAIN_WEIGHT
    if scorings:
        for caverns in side.domain:
            lost = sum(1 for c in caverns if gnomes[c])
            for p in range(n):
                held = sum(1 for c in caverns if ctrl[c] == p)
                if held:
                    out[p] += scorings * (4 + 2 * held - lost)
    for h, caverns in enumerate(side.halls):
        held = [0] * n
        overrun = sum(1 for c in caverns if gnomes[c])
        for c in caverns:
            if not gnomes[c] and ctrl[c] >= 0:
                held[ctrl[c]] += 1
        if st.starburst[h] >= 0:
            held[st.champ_owner[st.starburst[h]]] += 1
        top = max(max(held), overrun)
        if top:
            tied = [p for p in range(n) if held[p] == top]
            for p in tied:
                out[p] += END_WEIGHT * st.hall_value[h] / (len(tied) + (overrun == top))
    table = pack.elder_table
    for p in range(n):
        k = sum(1 for v in st.grid[p] if v > 0 and decode(v)[0] == ELDER) + st.elder_bonus[p]
        out[p] += table[min(k, len(table) - 1)]
        on_map = sum(row[p] for row in st.trolls)
        out[p] += (TROLL_VALUE * on_map + RESERVE_VALUE * st.troll_supply[p] + SUPPLY_VALUE * st.supply[p]
                   + TOKEN_VALUE * st.desperation[p] + BOOST_VALUE * st.boost[p])
    for clan, votes in enumerate(st.votes):
        tile = pack.vote_tiles[st.vote_tiles[clan]]
        for place, p in enumerate(standing(votes, st.vote_stamp[clan])[:3]):
            out[p] += END_WEIGHT * tile[place]
    for c in st.display:
        if st.champ_state[c] == DISPLAY:
            for p, k in enumerate(st.influence[c]):
                out[p] += INFLUENCE_VALUE * k
    return out


def _controller(force: list[int], lair_owner: int) -> int:
    """The seat with more trolls than any other single seat (a lair: its owner), -1."""
    if lair_owner >= 0:
        return lair_owner
    best = max(force)
    if best == 0 or force.count(best) > 1:
        return -1
    return force.index(best)


def evaluate(st: FallState, p: int) -> float:
    """Seat ``p``'s projected honor margin over the best opponent."""
    v = projected(st)
    return v[p] - max(x for q, x in enumerate(v) if q != p)


# ================================================================================================
# sub-decisions and the quick policy
# ================================================================================================
def settle(st: FallState, p: int | None = None, limit: int = SETTLE_LIMIT) -> None:
    """Resolve the sub-decisions under way (whoever decides them) with the quick policy, until a decision
    of :data:`MAIN` is awaited or the game is over. ``p`` is unused: each sub-decision is its decider's."""
    for _ in range(limit):
        if st.phase in MAIN:
            return
        st.apply(quick_action(st, st.current_player()))


def quick_action(st: FallState, p: int) -> int:
    """A cheap greedy choice for seat ``p`` (the seat deciding now): the best one-ply value among the
    :func:`candidates` (ties: the lower action number)."""
    acts = candidates(st, p)
    if len(acts) == 1:
        return acts[0]
    values = []
    for a in acts:
        c = st.clone()
        c.apply(a)
        values.append(evaluate(c, p))
    return acts[_best(np.array(values))]


def _best(values: np.ndarray) -> int:
    """The first index within a hair of the best value."""
    return int(np.flatnonzero(values >= values.max() - 1e-9)[0])


# ================================================================================================
# the agent's valuation
# ================================================================================================
def candidates(st: FallState, p: int) -> list[int]:
    """The decisions worth valuing, ascending: every legal one, or, past :data:`MAX_CANDIDATES`, an even
    spread over them that keeps the first of every block (ending the turn, ``done``)."""
    legal = [int(a) for a in st.legal_actions()]
    if len(legal) <= MAX_CANDIDATES:
        return legal
    decode_block = st.game.layout.decode
    firsts, seen = [], set()
    for a in legal:
        b = decode_block(a)[0]
        if b not in seen:
            seen.add(b)
            firsts.append(a)
    step = len(legal) / (MAX_CANDIDATES - len(firsts))
    spread = [legal[int(i * step)] for i in range(MAX_CANDIDATES - len(firsts))]
    return sorted(set(firsts) | set(spread))


def lookahead_values(st: FallState, p: int, actions: list[int]) -> np.ndarray:
    """The value for ``p`` of each action: applied to a copy, its sub-decisions settled, then evaluated."""
    values = np.empty(len(actions))
    for i, a in enumerate(actions):
        c = st.clone()
        c.apply(int(a))
        settle(c)
        values[i] = evaluate(c, p)
    return values


def best_action(st: FallState, p: int, rng: np.random.Generator | None = None) -> int:
    """The heuristic's choice on a (determinized) state: the best look-ahead value, ties to the lower
    action number (``rng`` unused)."""
    cands = candidates(st, p)
    if len(cands) == 1:
        return cands[0]
    return cands[_best(lookahead_values(st, p, cands))]
