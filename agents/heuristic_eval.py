"""The heuristic's evaluation of a position for one seat: honour as if the game ended now plus a
*potential* weighted by how many of the seat's own turns are left.

One scale for every state, terminal or not: the potential of each asset shrinks smoothly to zero as the
seat's own turns run out, so on the seat's last turn a state that ends the game and a state that does
not are valued alike (honour, with the leftover resources counted as the sets they score), and the
last seat no longer trades its resources away. Before the coronation the turns left are estimated from
how far the trollsmoots are from the coronation; after it they are exact (rulebook, *Game end
trigger*: the round is finished, then two more turns each).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields, replace
from typing import Iterator

import numpy as np

from mk_env.mountain_king.rules import queries as Q
from mk_env.mountain_king.rules.actions import SMOOT_CONE
from mk_env.mountain_king.rules.board import board_memo
from mk_env.mountain_king.rules.content import HAMMER, MINERALS
from mk_env.mountain_king.rules.digging import dig_geometry
from mk_env.mountain_king.rules.state import GameState
from mk_env.mountain_king.rules.vocabulary import Phase
from mk_env.mountain_king.rules.workshops import workshop_touch

#: potential value of one resource owned (stone, iron, heartstone, coin, cart, hammer, rune)
RESOURCE_VALUE = np.array([0.55, 0.7, 0.9, 0.45, 0.4, 0.5, 0.35])
#: a recruited troll's potential (its future cascades) while the game is young
TROLL_VALUE = 2.2
SYMBOL_VALUE = 0.25  # per resource symbol in the trollsmoot, times cascades left above it
PEDESTAL_VALUE = 2.0  # a pedestal in storage (a future point token + a doubled statue)
REACH_VALUE = 1.2  # per tier of the innermost square of the network
DIG_POTENTIAL = 0.5  # times the honour of the best tunnel the seat could pay for, a turn or more ahead
DIG_THIS_TURN = 0.8  # the same on the seat's last turn before its step 2 (the dig is this turn or never)
STATUE_POTENTIAL = 0.35  # times the tier value of every unearthed statue in the network
BURIED_VALUE = 0.6  # per buried statue/resource beside the network
WORKSHOP_ACCESS = 0.4  # per workshop kind the network touches (conversions on future turns)
HELD_TOKEN = 0.3  # a token held by a troll with open slots above: it blocks that symbol's next regeneration
#: recruits per own turn, measured in heuristic self-play (6 recruits in about 11 rounds): how fast
#: the trollsmoots approach the coronation
RECRUIT_RATE = 0.55
#: own turns over which each asset's potential fades in (its weight is min(1, turns / horizon))
HORIZON = {"resources": 3.0, "trolls": 5.0, "pedestals": 2.0, "reach": 4.0, "statues": 2.0, "buried": 3.0,
           "workshops": 3.0}


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (defaults: the constants above). A seat of a varied table plays with its own
    (:meth:`jittered`); :func:`using` puts a set in force for the decisions taken inside it."""

    resource: tuple[float, ...] = tuple(RESOURCE_VALUE.tolist())
    troll: float = TROLL_VALUE
    symbol: float = SYMBOL_VALUE
    pedestal: float = PEDESTAL_VALUE
    reach: float = REACH_VALUE
    dig_potential: float = DIG_POTENTIAL
    dig_this_turn: float = DIG_THIS_TURN
    statue: float = STATUE_POTENTIAL
    buried: float = BURIED_VALUE
    workshop: float = WORKSHOP_ACCESS
    held_token: float = HELD_TOKEN
    #: :attr:`resource` as a read-only array, the one the evaluation multiplies (made once)
    resource_values: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = np.asarray(self.resource, dtype=float)
        values.flags.writeable = False
        object.__setattr__(self, "resource_values", values)

    def jittered(self, spread: float, rng: np.random.Generator) -> "Weights":
        """Each weight (each resource's value apart) times a factor drawn uniformly in ``[1 - spread, 1 +
        spread]``; ``0 <= spread < 1``."""
        if not 0.0 <= spread < 1.0:
            raise ValueError(f"a weight spread must be in [0, 1), got {spread!r}")
        scalars = [f.name for f in fields(self) if f.init and f.name != "resource"]
        factors = rng.uniform(1.0 - spread, 1.0 + spread, size=len(scalars) + len(self.resource))
        changes = {name: float(getattr(self, name) * k) for name, k in zip(scalars, factors)}
        resource = tuple((self.resource_values * factors[len(scalars):]).tolist())
        return replace(self, resource=resource, **changes)


DEFAULT_WEIGHTS = Weights()
_WEIGHTS: ContextVar[Weights] = ContextVar("heuristic_weights", default=DEFAULT_WEIGHTS)


def weights() -> Weights:
    """The weights in force (:data:`DEFAULT_WEIGHTS` unless inside :func:`using`)."""
    return _WEIGHTS.get()


@contextmanager
def using(w: Weights) -> Iterator[Weights]:
    """Put ``w`` in force for the evaluations made inside the block (restored after, even on error)."""
    token = _WEIGHTS.set(w)
    try:
        yield w
    finally:
        _WEIGHTS.reset(token)


#: the phases of a turn before its step 2 is decided (a recruit or a dig is still to come)
BEFORE_STEP2 = frozenset(int(ph) for ph in (Phase.STEP1, Phase.WORKSHOP, Phase.SPELL_OPTION, Phase.SPELL_SMOOT,
                                            Phase.SPELL_HORDE, Phase.SPELL_PEDESTAL, Phase.SPELL_DIG,
                                            Phase.SPELL_STATUE, Phase.STEP2))
_SETUP = frozenset((int(Phase.GATE), int(Phase.DRAFT)))
#: [slot, top]: 1 where a cascade from slot ``top`` passes through ``slot`` (``top`` itself excluded), so
#: ``CONE_ABOVE @ (smoot < 0)`` counts, per slot, the empty slots above it that would cascade through it
CONE_ABOVE = np.array([[1.0 if s in cone[1:] else 0.0 for cone in SMOOT_CONE] for s in range(len(SMOOT_CONE))])


# ================================================================================================
# turns left
# ================================================================================================
def own_turns_left(st: GameState, p: int) -> float:
    """Seat ``p``'s own turns still to begin after the current one: exact once the coronation is
    complete, estimated before it (rounds until the trollsmoots that take the remaining coronation
    tokens are full, at :data:`RECRUIT_RATE` recruits a turn, plus the two final turns)."""
    if st.is_terminal():
        return 0.0
    n, cur = st.num_players, int(st.current)
    if st.final_turns_left >= 0:
        full, rest = divmod(int(st.final_turns_left), n)
        return float(full + (1 if (p - cur - 1) % n < rest else 0))
    game = st.game
    tokens = max(1, len(st.coronation_left))
    counts = (st.smoot >= 0).sum(axis=1)[st.coronation == 0].tolist()
    uncrowned = sorted(counts, reverse=True)
    kth = uncrowned[min(tokens, len(uncrowned)) - 1] if uncrowned else game.max_trolls
    if int(st.phase) in _SETUP:
        kth = max(kth, 4)  # the draft fills the starting row: four trolls each
    rounds = max(0, game.max_trolls - kth) / RECRUIT_RATE
    return rounds + 2.0


def step2_open(st: GameState, p: int) -> bool:
    """Whether ``p`` is to move and its step 2 (recruit or dig) is still to come this turn."""
    return not st.is_terminal() and st.current == p and int(st.phase) in BEFORE_STEP2


def _fade(turns: float, asset: str) -> float:
    return min(1.0, turns / HORIZON[asset])


# ================================================================================================
# evaluation
# ================================================================================================
def evaluate(st: GameState, p: int) -> float:
    """Honour as if the game ended now plus the potential of what ``p`` owns, for the turns ``p`` has
    left (zero potential when none are: the final score exactly)."""
    total = float(st.score_breakdown(p)["total"])
    if st.is_terminal():
        return total
    return total + potential(st, p, own_turns_left(st, p), step2_open(st, p))


def potential(st: GameState, p: int, ahead: float, open_now: bool = False) -> float:
    """What the position promises beyond honour already counted, given ``ahead`` own turns still to
    begin (:func:`own_turns_left`; each asset's weight fades with them, so a step that ends the turn is
    not valued apart from one that does not) and, when ``open_now``, this turn's step 2 still to come
    (a dig this turn, no bigger than a placement beside the network now allows)."""
    w = weights()
    have = Q.resources_owned(st, p)
    dig = w.dig_this_turn * best_affordable_honour(st, have, largest_placeable(st, p)) if open_now else 0.0
    if ahead >= 1.0:
        dig = max(dig, w.dig_potential * best_affordable_honour(st, have))
    if ahead <= 0.0:
        return dig
    game = st.game
    value = dig + _fade(ahead, "resources") * float(w.resource_values @ have)
    trolls = _fade(ahead, "trolls")
    if trolls > 0:
        smoot = st.smoot[p]
        n_trolls = int((smoot >= 0).sum())
        room = max(0, game.max_trolls - n_trolls)
        recruits = min(room, RECRUIT_RATE * ahead + 0.5)  # the recruits p can still make
        troll_part = w.troll * n_trolls * min(1.0, recruits / 3 + 0.3)
        # symbols regenerate each time a cascade passes: weight by the slots still open above them that
        # the recruits left can fill
        open_above = CONE_ABOVE @ (smoot < 0) * (recruits / room if room else 0.0)
        held = smoot >= 0
        troll_part += w.symbol * float(_symbol_totals(game)[smoot[held]] @ open_above[held])
        # a token a troll still holds does not regenerate on the next cascade through it
        troll_part -= w.held_token * float(st.tokens[p].sum(axis=1) @ (open_above > 0))
        value += trolls * troll_part
    value += _fade(ahead, "pedestals") * w.pedestal * int(st.storage_pedestals[game.storage_of[p]].sum())
    net = st.reach[p]
    depth, finds = board_memo(st, "heuristic_reach", p, lambda: _reach_and_finds(st, p))
    value += _fade(ahead, "reach") * w.reach * depth
    value += _fade(ahead, "statues") * w.statue * _statue_tiers(st, net)
    value += _fade(ahead, "buried") * w.buried * finds
    value += _fade(ahead, "workshops") * w.workshop * len(workshop_kinds_touched(st, p))
    return value


def _reach_and_finds(st: GameState, p: int) -> tuple[float, float]:
    """The tier of the innermost square of p's network, and the buried statues and resources beside
    it (both change only with the board)."""
    frontier = _frontier(st, p)
    finds = float(((st.statue[frontier] >= 0) | (st.buried[frontier] >= 0)).sum())
    return float(st.game.geo.tier[st.reach[p]].max(initial=0)), finds


def _statue_tiers(st: GameState, net: np.ndarray) -> float:
    """Tier value of every unearthed statue in the network (doubled on its pedestal)."""
    squares = np.flatnonzero((st.statue[:-1] >= 0) & net[:-1]).tolist()
    tiers, values = st.game.geo.tier, st.game.pack.statue_values
    total = 0
    for sq in squares:
        t = int(tiers[sq])
        if t > 0:
            total += values[t - 1] * (2 if st.pedestal[sq] == st.statue[sq] else 1)
    return float(total)


_SYMBOL_TOTALS: dict[int, np.ndarray] = {}


def _symbol_totals(game) -> np.ndarray:
    """Per troll card: its resource symbols, summed (computed once per game's card table)."""
    key = id(game.card_symbols)
    out = _SYMBOL_TOTALS.get(key)
    if out is None:
        out = _SYMBOL_TOTALS[key] = game.card_symbols.sum(axis=1).astype(float)
    return out


def workshop_kinds_touched(st: GameState, p: int) -> set[int]:
    """Kinds of the established workshops ``p``'s network touches."""
    touch = workshop_touch(st, p)[0] & (st.workshop >= 0)
    return set(st.workshop[touch].tolist())


def _frontier(st: GameState, p: int) -> np.ndarray:
    """Empty squares beside p's network."""
    nb = st.game.geo.neighbours
    net = st.reach[p]
    side = np.zeros_like(net)
    side[nb[net]] = True
    side &= st.kind == 0
    side[-1] = False
    return side


def largest_placeable(st: GameState, p: int) -> int:
    """Size of the largest tunnel p could place now if minerals were no object (a stack left, free
    squares beside the network, the rubble paid with the hammers owned or cleared by Clear Passage)."""
    hammers = -1 if st.ignore_rubble else int(Q.resources_owned(st, p)[HAMMER])
    return board_memo(st, ("heuristic_largest", hammers), p, lambda: _largest(st, p, hammers))


def _largest(st: GameState, p: int, hammers: int) -> int:
    """:func:`largest_placeable` (``hammers`` -1: rubble cleared); the tile stacks change only with the
    board."""
    cand = dig_geometry(st, p)
    if len(cand) == 0:
        return 0
    table = st.game.geo.tunnel_placements
    ok = st.tunnel_supply[table.piece[cand]] > 0
    if hammers >= 0:
        ok &= table.rubble[cand] <= hammers
    return int(table.size[cand[ok]].max(initial=0))


def best_affordable_honour(st: GameState, have: np.ndarray, max_size: int | None = None) -> int:
    """Honour of the best tunnel the minerals owned would pay for (geometry ignored, but no bigger than
    ``max_size`` when given)."""
    honour = st.game.pack.tunnel_honour
    best = 0
    top = max(honour) if max_size is None else min(max(honour), max_size)
    for m, name in enumerate(MINERALS):
        size = min(int(have[m]), top)
        if size >= min(honour):
            best = max(best, honour[size][name])
    return best
