"""The Cave Troll ``heuristic``: greedy control value with a look-ahead over the turn's remaining actions.

Each decision is valued on a determinized copy of the seat's view by the change in its *projected score
margin* (:func:`evaluate`): gold already scored, plus every room's gold to the seat that controls it now
(printed value doubled by each Dwarf, Treasure +4, the Idol's room to its owner; a Cave Troll's room to
nobody) weighted by the scorings still to come (the final one and each "Count the Loot!" left in the
piles), half of each Orc's best kill to come (:func:`orc_threats`), the gold of the artifacts held, and a
little for each counter in play; minus the best opponent's projection. A draw is valued by its expectation
over the kinds left in the seat's own pile (its composition is public; its order is not). The
sub-decisions that follow an action (a counter's place, a push's destination, the Helm's steps, the
escapes of every player from a Cave Troll's room) are settled greedily. The best few actions are then
looked at one action further while the turn has an action left before its last draw, and the Cloak of
Invisibility always, at its adventurer's move (its effect is only what that move can do); ties go to a
fixed preference (the order of :data:`PREFERENCE`, then the lower action number), never to chance. Every
turn draws at least once, as its last action (:func:`candidates`): the game's only clock is the piles
running out. A drawn Treasure may be declined: that is worth what a room nobody controls is, and ties go to
placing (:data:`PREFERENCE`), so the Treasure is placed unless every room it may go to helps an opponent.

The same pieces (:func:`candidates`, :func:`lookahead_values`, :func:`quick_action`, :func:`settle`,
:func:`evaluate`) are the priors, rollout policy and leaf evaluation of :mod:`agents.mcts` for this game.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mk_env.cave_troll.rules import Block, Game, Kind, Phase
from mk_env.cave_troll.rules.board import Occupancy, occupancy
from mk_env.cave_troll.rules.scoring import room_control
from mk_env.cave_troll.rules.state import CaveTrollState
from mk_env.cave_troll.rules.vocabulary import PILE
from mk_env.core.view import PlayerView

from .base import BaseAgent, no_argument

#: weight of a "Count the Loot!" still in a pile: the share of today's control it is expected to pay
LOOT_WEIGHT = 0.5
#: value of one of the seat's adventurers in play (strength to take rooms later) and of a monster in play
ADVENTURER_VALUE = 0.8
MONSTER_VALUE = 0.6
#: the share of an Orc's best kill its owner is expected to make (the victim's owner may act first): in
#: 3-player self-play 13 of the 33 Orcs left beside a seat's adventurers at the end of its turn killed one
#: before its next turn (39%, Wilson 95% 25-56%; 40 games, seeds 0-39)
ORC_THREAT = 0.5
#: value of each counter played from the pile (the game ends, with +3, when the pile is empty)
PROGRESS_VALUE = 0.15
#: actions looked at one action further, best one-ply values first
LOOKAHEAD = 3
#: sub-decisions settled inside a valuation, at most (a Cave Troll asks each player once)
SETTLE_LIMIT = 12
#: the search's constants for this game (agents.evaluation.SEARCH_DEFAULTS): its evaluation is already a margin
#: over the best opponent, so its margins of margins run twice the first game's; lookahead priors at the root
#: only, where a lookahead costs about twice a quick choice (docs/tournament.md, Scaling)
SEARCH_VALUE_SCALE, SEARCH_LOOKAHEAD = 20.0, 1
#: ties go to the earlier block in this order (then to the lower action number)
PREFERENCE = (Block.MOVE, Block.PLACE, Block.PUSH, Block.PUSH_TO, Block.ORC, Block.STEP, Block.TELEPORT,
              Block.DRAW, Block.SWORD, Block.WAND, Block.IDOL, Block.HELM, Block.CHALICE, Block.CLOAK,
              Block.DECLINE, Block.END_TURN)
_RANK = {b: i for i, b in enumerate(PREFERENCE)}
ACTION, COUNT_THE_LOOT, ORC = Phase.ACTION, Kind.COUNT_THE_LOOT, Kind.ORC


# ================================================================================================
# evaluation
# ================================================================================================
def projected(st: CaveTrollState) -> list[float]:
    """Each seat's projected gold: scored gold, control of the rooms now times the scorings still to come,
    the threats of the Orcs (:func:`orc_threats`), artifacts held, and the counters in play. A Cave Troll's
    room counts for nobody: nothing but a cloaked adventurer can be there, and it is discarded at the end of
    its turn unless it leaves ("If the adventurer is in a room occupied by a Cave Troll at the end of your
    turn, the adventurer is discarded"). At the end: the final scores."""
    g = st.game
    out = [float(s) for s in st.score]
    if st.is_terminal():
        return out
    loc = st.loc
    loot_left = sum(1 for c in _counters_of_kind(g, COUNT_THE_LOOT) if loc[c] == PILE)
    weight = 1.0 + LOOT_WEIGHT * loot_left
    occ = occupancy(st)
    n_rooms, slots = g.pack.lair.n_rooms, g.pack.slots
    adventurer, monster = g.is_adventurer, g.is_monster
    for x, here in enumerate(occ.at):
        if occ.troll[x]:
            here = [c for c in here if not adventurer[c]]
        elif x < n_rooms and (here or x == st.idol_room):
            seat, gold, treasure = room_control(st, occ, x)
            if seat >= 0:
                out[seat] += weight * (gold + treasure)
        for c in here:
            out[c // slots] += ADVENTURER_VALUE if adventurer[c] else MONSTER_VALUE if monster[c] else 0.0
    for seat, threat in enumerate(orc_threats(st, occ, weight)):
        out[seat] += threat
    for i, holder in enumerate(st.art_at):
        if holder >= 0:
            out[holder] += g.pack.artifacts[i].gold
    for p, pile in enumerate(st.piles):
        out[p] += PROGRESS_VALUE * (slots - len(pile))
    return out


@lru_cache(maxsize=32)
def _counters_of_kind(game: Game, kind: Kind) -> tuple[int, ...]:
    """The ids of the game's counters of ``kind``."""
    return tuple(c for c, k in enumerate(game.kind_of) if k == kind)


def orc_threats(st: CaveTrollState, occ: Occupancy, weight: float) -> list[float]:
    """What each seat's projection gains (or loses) from the Orcs' kills to come: "If your Orc is in a room
    or entrance with an adventurer, you may spend one action to discard that adventurer". Each Orc beside a
    rival's adventurer threatens its best kill (:func:`orc_kill`), counted at :data:`ORC_THREAT` of its
    worth: its owner may use it on its next action, unless the victim leaves first or the Orc is discarded
    (a Knight entering, the Sword of Slaying). The projection of control alone cannot see it, as the kill
    comes after the look-ahead: without it an Orc is never brought beside a victim, and the Sword, which
    only removes the threat, is worth nothing but its gold."""
    g = st.game
    out = [0.0] * g.num_players
    for orc in _counters_of_kind(g, ORC):
        x = st.loc[orc]
        if x < 0:
            continue
        owner = g.owner_of[orc]
        kills = [orc_kill(st, occ, x, c, weight) for c in occ.at[x]
                 if g.is_adventurer[c] and g.owner_of[c] != owner]
        if kills:
            best = max(kills, key=lambda d: d[owner] - min(d))
            for seat, d in enumerate(best):
                out[seat] += ORC_THREAT * d
    return out


def orc_kill(st: CaveTrollState, occ: Occupancy, x: int, victim: int, weight: float) -> list[float]:
    """The change in each seat's projection if ``victim`` (in location ``x``) is discarded: its owner loses
    the adventurer in play, and in a room the control of its gold may pass (for each scoring to come)."""
    g = st.game
    out = [0.0] * g.num_players
    out[g.owner_of[victim]] -= ADVENTURER_VALUE
    if x < g.pack.lair.n_rooms:
        for sign, seen in ((-1.0, occ), (1.0, _Without(occ, x, victim))):
            seat, gold, treasure = room_control(st, seen, x)
            if seat >= 0:
                out[seat] += sign * weight * (gold + treasure)
    return out


class _Without:
    """Location ``x`` of an occupancy with one counter fewer: what :func:`room_control` reads (``at[x]``)."""

    __slots__ = ("at",)

    def __init__(self, occ: Occupancy, x: int, cid: int):
        self.at = {x: [c for c in occ.at[x] if c != cid]}


def evaluate(st: CaveTrollState, p: int) -> float:
    """Seat ``p``'s projected margin over the best opponent."""
    v = projected(st)
    return v[p] - max(x for q, x in enumerate(v) if q != p)


# ================================================================================================
# sub-decisions and the quick policy
# ================================================================================================
def preferred(st: CaveTrollState, actions: list[int] | np.ndarray) -> list[int]:
    """``actions`` in the fixed preference order (ties go to the first)."""
    decode = st.game.layout.decode
    return sorted((int(a) for a in actions), key=lambda a: (_RANK[decode(a)[0]], a))


def settle(st: CaveTrollState, p: int | None = None, limit: int = SETTLE_LIMIT) -> None:
    """Resolve the sub-decisions under way (whoever decides them: escapes are other players') with the
    quick policy, until an action of a turn is awaited or the game is over. ``p`` is unused: every
    sub-decision is settled by the seat whose decision it is."""
    for _ in range(limit):
        if st.phase == ACTION or st.is_terminal():
            return
        st.apply(quick_action(st, st.current_player()))


def quick_action(st: CaveTrollState, p: int) -> int:
    """A cheap greedy choice for seat ``p`` (the seat deciding now): the best one-ply value among the
    :func:`candidates`, the draw at its value on this copy, the sub-decisions that follow taken in the
    preference order."""
    acts = candidates(st, p)
    if len(acts) == 1:
        return acts[0]
    return acts[_best(_values(st, p, acts, depth=0))]


def _values(st: CaveTrollState, p: int, actions: list[int], depth: int) -> np.ndarray:
    """The value for ``p`` of each action applied to a copy, its sub-decisions settled greedily (``depth``
    levels; deeper ones take the preferred choice)."""
    return np.array([_value_after(st, p, a, depth) for a in actions], dtype=float)


def _value_after(st: CaveTrollState, p: int, action: int, depth: int) -> float:
    c = st.clone()
    c.apply(action)
    _settle_to(c, depth)
    return evaluate(c, p)


def _settle_to(st: CaveTrollState, depth: int) -> None:
    for _ in range(SETTLE_LIMIT):
        if st.phase == ACTION or st.is_terminal():
            return
        legal = st.legal_actions()
        if depth <= 0 or len(legal) == 1:
            st.apply(preferred(st, legal)[0])
        else:
            acts = preferred(st, legal)
            st.apply(acts[_best(_values(st, st.current_player(), acts, depth - 1))])


def _best(values: np.ndarray) -> int:
    """The first index within a hair of the best value (ties: the preference order)."""
    return int(np.flatnonzero(values >= values.max() - 1e-9)[0])


# ================================================================================================
# the agent's valuation
# ================================================================================================
def candidates(st: CaveTrollState, p: int) -> list[int]:
    """The decisions worth valuing, in the preference order (the branching is a few dozen): every legal
    one, except that a turn never ends with its actions unspent while the pile can be drawn from, and its
    last action is a draw. So every turn brings at least one counter into play and the game moves on to
    its end (the rules have no other clock: players who never draw would play for ever)."""
    legal = st.legal_actions()
    if st.phase == ACTION and len(legal) > 1:
        layout = st.game.layout
        draw, end = layout.offset[Block.DRAW], layout.offset[Block.END_TURN]
        if st.is_legal(draw):
            if st.actions_left <= 1:
                return [draw]
            legal = legal[legal != end]
    return preferred(st, legal)


def draw_value(st: CaveTrollState, p: int, draw: int) -> float:
    """The expected value for ``p`` of drawing: the average over the kinds left in the turn player's pile
    (each drawn on a copy and settled), weighted by how many of each remain."""
    pile = st.piles[st.turn_player]
    kind_of = st.game.kind_of
    by_kind: dict[int, list[int]] = {}
    for i, c in enumerate(pile):
        by_kind.setdefault(kind_of[c], []).append(i)
    total = 0.0
    for positions in by_kind.values():
        c = st.clone()
        top = c.piles[st.turn_player]
        i = positions[0]
        top[i], top[-1] = top[-1], top[i]
        c.invalidate_caches()
        c.apply(draw)
        settle(c)
        total += len(positions) * evaluate(c, p)
    return total / len(pile)


def lookahead_values(st: CaveTrollState, p: int, actions: list[int]) -> np.ndarray:
    """The value of each action for ``p``: one ply (a draw by its expectation), then the best
    :data:`LOOKAHEAD` of them looked at one action further when the turn has an action left before its last
    draw (:func:`follow_ups`). The Cloak of Invisibility changes nothing on the board, so its one-ply value
    is only the gold it gives up: it is always looked at one action further, at the best move of the cloaked
    adventurer ("two rooms for one action", into Cave Troll and opponents' Knights' rooms, its second room
    chosen by value); with only the turn's last draw left it is worth nothing but its lost gold."""
    layout = st.game.layout
    draw = layout.offset[Block.DRAW]
    values = np.empty(len(actions))
    after: list[CaveTrollState | None] = []
    for i, a in enumerate(actions):
        if a == draw and st.phase == ACTION:
            values[i] = draw_value(st, p, a)
            after.append(None)
            continue
        c = st.clone()
        c.apply(a)
        settle(c)
        values[i] = evaluate(c, p)
        after.append(c)
    cloaks = [i for i, a in enumerate(actions) if layout.decode(a)[0] == Block.CLOAK]
    for i in [i for i in np.argsort(-values, kind="stable") if i not in cloaks][:LOOKAHEAD]:
        follow = follow_ups(after[i], p)
        if follow:
            values[i] = max(values[i], float(_values(after[i], p, follow, depth=1).max()))
    for i in cloaks:
        cid = after[i].cloaked
        follow = [a for a in follow_ups(after[i], p) if _moves_counter(after[i], a, cid)]
        if follow:
            values[i] = max(values[i], float(_values(after[i], p, follow, depth=1).max()))
    return values


def follow_ups(st: CaveTrollState | None, p: int) -> list[int]:
    """The actions ``p`` may take next in the same turn before its last draw (:func:`candidates` but the
    draw): none when the turn is over, the next decision is not ``p``'s action, or only the turn's last
    draw is left (a look at a move there would value a move the turn cannot make)."""
    if st is None or st.is_terminal() or st.current_player() != p or st.phase != ACTION:
        return []
    draw = st.game.layout.offset[Block.DRAW]
    return [a for a in candidates(st, p) if a != draw]


def _moves_counter(st: CaveTrollState, action: int, cid: int) -> bool:
    """Whether ``action`` is a move of counter ``cid`` (of the turn player)."""
    block, arg = st.game.layout.decode(action)
    return block == Block.MOVE and cid >= 0 and arg // st.game.pack.lair.size == st.game.slot_of[cid]


def best_action(st: CaveTrollState, p: int, rng: np.random.Generator | None = None) -> int:
    """The heuristic's choice on a (determinized) state: the best look-ahead value, ties to the
    preference order."""
    cands = candidates(st, p)
    if len(cands) == 1:
        return cands[0]
    return cands[_best(lookahead_values(st, p, cands))]


class CaveTrollHeuristic(BaseAgent):
    """Greedy control value with a look-ahead over the turn (Cave Troll)."""

    name = "heuristic"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        return best_action(view.determinize(rng), view.seat)


def from_spec(arg: str) -> CaveTrollHeuristic:
    """The Cave Troll heuristic (no argument)."""
    no_argument("heuristic", arg)
    return CaveTrollHeuristic()
