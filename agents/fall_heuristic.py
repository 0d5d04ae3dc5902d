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

Three things keep the valuation honest about what a battle (an Advance into an overrun cavern) wins and costs
(issue 52, item 5; before them battles brought 0.4% of the heuristic's honor at 3 players, fought with one
troll where the copy had dealt a weak gnome): a battle on gnomes the seat has not seen is weighed at its odds,
not at the strengths its copy dealt (:func:`value_after`, :mod:`agents.fall_odds`); the decisions that move
nothing by themselves (:data:`LOOK_THROUGH`: an Advance's destination above all) are valued by the quick
policy after their follow-ups, so a turn's valuation sees the advance, and the battle, it leads to; and the
free scouting peeks are taken (:func:`scouting_peek`), so a seat learns the gnomes it may fight.

The same pieces (:func:`candidates`, :func:`lookahead_values`, :func:`quick_action`, :func:`settle`,
:func:`evaluate`, :func:`best_action`) are the priors, rollout policy and leaf evaluation of :mod:`agents.mcts`
for this game (:mod:`agents.evaluation`).
"""

from __future__ import annotations

import numpy as np

from agents.fall_odds import deal, newly_seen, total_odds
from mk_env.fall_of_the_mountain_king.rules import Phase, Symbol
from mk_env.fall_of_the_mountain_king.rules.actions import sources
from mk_env.fall_of_the_mountain_king.rules.ancestry import code
from mk_env.fall_of_the_mountain_king.rules.board import forces
from mk_env.fall_of_the_mountain_king.rules.fields import DISPLAY
from mk_env.fall_of_the_mountain_king.rules.flow import standing
from mk_env.fall_of_the_mountain_king.rules.simultaneous import revealed
from mk_env.fall_of_the_mountain_king.rules.state import FallState
from mk_env.fall_of_the_mountain_king.rules.vocabulary import Block

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
#: the decisions that move nothing by themselves, valued by the quick policy after their follow-ups: an
#: Advance's destination (its trolls come after), a Bolster's cavern (when how many trolls is asked next), the
#: cavern the grey troll space empties (its trolls come after), the wheel pawn's move (its space's effect comes
#: after the scouting). One-ply, every choice of these looked the same and the lowest numbered was taken, so
#: a turn's valuation never saw an advance's battle, and valued a Gnome action at one space
LOOK_THROUGH = frozenset(int(p) for p in (Phase.ADVANCE_DEST, Phase.BOLSTER_DEST, Phase.SHOVE_FROM, Phase.WHEEL))
SCOUT_GATE, SCOUT_GNOME, ADVANCE_TROLL = int(Phase.SCOUT_GATE), int(Phase.SCOUT_GNOME), int(Phase.ADVANCE_TROLL)
SCOUTING = frozenset({SCOUT_GATE, SCOUT_GNOME})
#: the grid codes of an elder symbol (any strength)
ELDER_CODES = frozenset(code(Symbol.ELDER, s) for s in (1, 2, 3))


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
    gnomes = set(st.gnome_at)  # the overrun caverns (and -1, no cavern)
    ctrl = _controllers(forces(st), st.lairs)
    scorings = max(0, len(pack.rules.supply_by_wave) - 1 - st.wave + 1) * DOMAIN_WEIGHT
    if scorings:
        for caverns in side.domain:
            lost, held = 0, [0] * n
            for c in caverns:
                if c in gnomes:
                    lost += 1
                if ctrl[c] >= 0:
                    held[ctrl[c]] += 1
            for p in range(n):
                if held[p]:
                    out[p] += scorings * (4 + 2 * held[p] - lost)
    for h, caverns in enumerate(side.halls):
        overrun, held = 0, [0] * n
        for c in caverns:
            if c in gnomes:
                overrun += 1
            elif ctrl[c] >= 0:
                held[ctrl[c]] += 1
        if st.starburst[h] >= 0:
            held[st.champ_owner[st.starburst[h]]] += 1
        top = max(max(held), overrun)
        if top:
            share = END_WEIGHT * st.hall_value[h] / (held.count(top) + (overrun == top))
            for p in range(n):
                if held[p] == top:
                    out[p] += share
    table = pack.elder_table
    on_map = [sum(col) for col in zip(*st.trolls)]
    for p in range(n):
        k = sum(map(ELDER_CODES.__contains__, st.grid[p])) + st.elder_bonus[p]
        out[p] += table[min(k, len(table) - 1)]
        out[p] += (TROLL_VALUE * on_map[p] + RESERVE_VALUE * st.troll_supply[p] + SUPPLY_VALUE * st.supply[p]
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


def _controllers(f: list[list[int]], lairs: list[list[int]]) -> list[int]:
    """Each location's controller: the seat with more trolls than any other single seat (a lair: its owner),
    -1 (:func:`~mk_env.fall_of_the_mountain_king.rules.board.controller` for every location at once)."""
    out = [-1] * len(f)
    empty = [0] * len(f[0]) if f else []
    for x, row in enumerate(f):
        if row != empty:
            best = max(row)
            if row.count(best) == 1:
                out[x] = row.index(best)
    for p, mine in enumerate(lairs):
        for x in mine:
            out[x] = p
    return out


def evaluate(st: FallState, p: int) -> float:
    """Seat ``p``'s projected honor margin over the best opponent."""
    v = projected(st)
    return v[p] - max(x for q, x in enumerate(v) if q != p)


# ================================================================================================
# sub-decisions and the quick policy
# ================================================================================================
def settle(st: FallState, p: int | None = None, limit: int = SETTLE_LIMIT) -> None:
    """Resolve the sub-decisions under way (whoever decides them) with the quick policy, until a decision
    of :data:`MAIN` is awaited or the game is over; a battle is fought with the strengths the copy dealt.
    ``p`` is unused: each sub-decision is its decider's."""
    for _ in range(limit):
        if st.phase in MAIN:
            return
        st.apply(quick_action(st, st.current_player()))


def quick_action(st: FallState, p: int) -> int:
    """A cheap greedy choice for seat ``p`` (the seat deciding now): the best one-ply value among the
    :func:`candidates` (ties: the lower action number); a decision of :data:`LOOK_THROUGH` (one that moves
    nothing by itself) is valued after its follow-ups, and a move that ends an advance into an overrun cavern
    at the battle's odds (:func:`value_after`)."""
    acts = candidates(st, p)
    if len(acts) == 1:
        return acts[0]
    return acts[_best(_values(st, p, acts, st.phase in LOOK_THROUGH))]


def _best(values: np.ndarray) -> int:
    """The first index within a hair of the best value."""
    return int(np.flatnonzero(values >= values.max() - 1e-9)[0])


# ================================================================================================
# a battle at its odds
# ================================================================================================
def value_after(st: FallState, p: int, action: int, follow: bool, limit: int = SETTLE_LIMIT) -> float:
    """``p``'s value of ``action`` on a copy of ``st``: applied, its sub-decisions settled too if ``follow``,
    evaluated. A battle it starts, on gnomes ``p`` has not seen, is weighed at its odds: the copy is dealt
    each total strength they may have (:func:`~agents.fall_odds.total_odds`) and each outcome, settled (a
    repelled seat's trolls back in a lair), weighs by its chance. Valuing the one strength the copy dealt
    would make a seat fight exactly where its copy happened to deal weak gnomes, and lose."""
    c = st.clone()
    c.apply(action)
    fought = newly_seen(st, c, p) if _battle_pending(st) else []
    if not fought:
        return settled_value(c, p, limit) if follow else evaluate(c, p)
    trial, own = c, sum(c.strength[g] for g in fought)
    value = 0.0
    for chance, strengths in total_odds(st, p, fought):
        if trial is not None and sum(strengths) == own:  # the copy's own deal: its outcome is this total's
            c, trial = trial, None
        else:
            c = st.clone()
            deal(c, p, fought, strengths)
            c.apply(action)
        value += chance * settled_value(c, p, limit)
    return value


def settled_value(st: FallState, p: int, limit: int = SETTLE_LIMIT) -> float:
    """``p``'s value of ``st`` once its sub-decisions are settled (:func:`settle`, changing ``st``), a
    battle on the way weighed at its odds (:func:`value_after`)."""
    for left in range(limit, 0, -1):
        if st.phase in MAIN:
            break
        action = quick_action(st, st.current_player())
        if _battle_pending(st):
            return value_after(st, p, action, True, left - 1)
        st.apply(action)
    return evaluate(st, p)


def _battle_pending(st: FallState) -> bool:
    """Whether the decision awaited may end an advance into an overrun cavern (and so start its battle)."""
    return st.phase == ADVANCE_TROLL and st.pending["dest"] in st.gnome_at


# ================================================================================================
# the agent's valuation
# ================================================================================================
def candidates(st: FallState, p: int) -> list[int]:
    """The decisions worth valuing, ascending: at a scouting decision the one peek :func:`scouting_peek`
    names; else every legal one, or, past :data:`MAX_CANDIDATES`, an even spread over them that keeps the
    first of every block (ending the turn, ``done``)."""
    legal = [int(a) for a in st.legal_actions()]
    if st.phase in SCOUTING and len(legal) > 1:
        return [scouting_peek(st, p, legal)]
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


def scouting_peek(st: FallState, p: int, legal: list[int]) -> int:
    """The peek to take: "You may peek at 1 facedown gate card ... and at 1 gnome on the map" costs nothing
    and knowing never lowers what the decisions after it are worth, while the evaluation sees no worth in
    knowing itself (it would decline, ``done`` being the lower number). So: the first facedown gate card (the
    next invasion); the gnome in a cavern ``p``'s trolls can advance into (the battle it may fight next),
    else the gnome of the lowest number."""
    layout = st.game.layout
    peeks = [a for a in legal if layout.decode(a)[0] != Block.DONE]
    if st.phase == SCOUT_GATE:
        return peeks[0]
    near = [a for a in peeks if sources(st, p, st.gnome_at[layout.decode(a)[1]])]
    return (near or peeks)[0]


def lookahead_values(st: FallState, p: int, actions: list[int]) -> np.ndarray:
    """The value for ``p`` of each action: applied to a copy, its sub-decisions settled, then evaluated
    (a battle on the way at its odds: :func:`value_after`)."""
    return _values(st, p, [int(a) for a in actions], True)


def _values(st: FallState, p: int, actions: list[int], follow: bool) -> np.ndarray:
    """:func:`value_after` of each action, once for the actions the valuation cannot tell apart
    (:func:`_effect`)."""
    memo: dict[object, float] = {}
    out = np.empty(len(actions))
    for i, a in enumerate(actions):
        key = _effect(st, a)
        if key not in memo:
            memo[key] = value_after(st, p, a, follow)
        out[i] = memo[key]
    return out


def _effect(st: FallState, action: int) -> object:
    """What tells ``action`` apart in a valuation: a weak action runs its action at power 1 whichever symbol
    it covers, and neither the evaluation nor the follow-ups up to the next main decision read which one is
    covered, so the weak actions of one action share a valuation (the first symbol is covered); any other
    action is its own."""
    layout = st.game.layout
    block, arg = layout.decode(action)
    if block == Block.WEAK:
        return block, arg // layout.symbol_cells
    return action


def best_action(st: FallState, p: int, rng: np.random.Generator | None = None) -> int:
    """The heuristic's choice on a (determinized) state: the best look-ahead value, ties to the lower
    action number (``rng`` unused)."""
    cands = candidates(st, p)
    if len(cands) == 1:
        return cands[0]
    return cands[_best(lookahead_values(st, p, cands))]
