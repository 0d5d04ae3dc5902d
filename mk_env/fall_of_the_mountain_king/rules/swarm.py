"""Breaches and Invasions: gnomes sent in one by one through a gate of the swarm's domain, each running to
the easiest non-overrun cavern reachable through overrun caverns (fewer trolls, then closer; further ties
by the active player in a breach, by the vote leader of the invasion domain's clan in an invasion). A
gnome reaching trolls is defeated and a troll falls, its player drawn in proportion to their trolls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import return_to_lair
from .board import draw_gnome, force, overrun, pawns_at
from .fields import BY_SWARM, BY_WHEEL, SUPPLY
from .flow import ask, gain_honor, leader, push, resume, task
from .vocabulary import Phase

if TYPE_CHECKING:
    from .state import FallState

FALLS = 1  # honor category
BREACH, INVASION = 0, 1


def to_supply(st: FallState, gnome: int) -> None:
    """A gnome mixed into the supply: facedown again, nobody knows which it is."""
    st.gnome_at[gnome] = SUPPLY
    st.gnome_public[gnome] = 0
    for known in st.known_gnomes:
        if gnome in known:
            known.remove(gnome)


def send_in(st: FallState, count: int, kind: int, seat: int) -> None:
    """Draw ``count`` gnomes, put them by the swarm, and schedule them one by one."""
    steps = []
    for _ in range(count):
        g = draw_gnome(st)
        if g < 0:  # the supply is exhausted: fewer invaders
            break
        st.gnome_at[g] = BY_SWARM
        steps.append(["gnome_in", kind, seat, g])
    push(st, *steps)


# -- breach ------------------------------------------------------------------------------------------------
@task("breach")
def breach(st: FallState, seat: int) -> None:
    """"2 gnomes plus half the number by the wheel, rounded up, will invade. The active player may move the
    swarm up to 2 swarm points in either direction.\""""
    ask(st, Phase.SWARM, seat)


def apply_swarm(st: FallState, arg: int) -> None:
    seat = st.decider
    cycle = st.game.pack.swarm_cycle
    st.swarm = cycle[(cycle.index(st.swarm) + arg - 2) % len(cycle)]
    by_wheel = [g for g, x in enumerate(st.gnome_at) if x == BY_WHEEL]
    count = 2 + (len(by_wheel) + 1) // 2
    for g in by_wheel:  # "Mix the gnomes by the wheel into the supply, draw the calculated number"
        to_supply(st, g)
    st.pending = {}
    send_in(st, count, BREACH, seat)
    resume(st)


# -- invasions ---------------------------------------------------------------------------------------------
@task("invasion")
def invasion(st: FallState, k: int) -> None:
    """"Reveal the gate card. Move the swarm to the domain the card shows. In wave I/II/III, put 2/3/4
    gnomes by the swarm." Each invasion has its own first troll to fall."""
    st.revealed = k + 1
    st.swarm = st.invasion[k]
    st.falls = 0
    send_in(st, st.game.pack.rules.invaders_by_wave[st.wave - 1], INVASION, -1)


def vote_leader(st: FallState, clan: int) -> int:
    """The player with the most votes in ``clan``; if none has votes there, "look to the next lower clan on
    the board, continuing to the next and/or wrapping to the top as needed" (nobody: the start player)."""
    n = len(st.votes)
    for k in range(n):
        c = (clan + k) % n
        p = leader(st.votes[c], st.vote_stamp[c])
        if p >= 0:
            return p
    return st.start_player


def goals(st: FallState) -> list[int]:
    """The easiest non-overrun caverns reachable from a gate of the swarm's domain through overrun caverns
    only: fewest trolls, then closest (all of them if several tie)."""
    side = st.game.side
    n = side.n_caverns
    frontier = list(side.gates[st.swarm])
    dist = {g: 0 for g in frontier}
    found: list[tuple[int, int, int]] = []
    while frontier:
        nxt = []
        for x in frontier:
            if not overrun(st, x):
                found.append((sum(force(st, x)), dist[x], x))
                continue
            for y in side.adjacent[x]:
                if y < n and y not in dist:
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    if not found:  # every reachable cavern is overrun: the gnome stays in a gate cavern
        return [side.gates[st.swarm][0]]
    best = min(found)[:2]
    return sorted(x for t, d, x in found if (t, d) == best)


@task("gnome_in")
def gnome_in(st: FallState, kind: int, seat: int, gnome: int) -> None:
    """The gnome runs in; a tie between goals is decided by the active player (breach) or the vote leader
    of the invasion domain's clan (invasion)."""
    options = goals(st)
    if len(options) == 1:
        arrive(st, kind, gnome, options[0])
        return
    decider = seat if kind == BREACH else vote_leader(st, st.swarm)
    ask(st, Phase.ROUTE, decider, kind=kind, gnome=gnome, options=options)


def apply_route(st: FallState, loc: int) -> None:
    p = st.pending
    kind, gnome = p["kind"], p["gnome"]
    st.pending = {}
    arrive(st, kind, gnome, loc)
    resume(st)


def arrive(st: FallState, kind: int, gnome: int, loc: int) -> None:
    """"If the gnome's goal is empty, it stays. If not, it is defeated; mix it into the supply, and a troll
    in the cavern falls: randomly select a player in proportion to their trolls.\""""
    f = force(st, loc)
    if not sum(f) or overrun(st, loc):
        st.gnome_at[gnome] = loc
        return
    to_supply(st, gnome)
    pick = int(st.rng.integers(sum(f)))
    for seat, k in enumerate(f):
        if pick < k:
            break
        pick -= k
    push(st, ["fall", kind, seat, loc])


def fall_options(st: FallState, seat: int, loc: int) -> list[int]:
    """0: a regular troll; 1 + card: that champion pawn."""
    return ([0] if st.trolls[loc][seat] else []) + [1 + c for c in pawns_at(st, loc) if st.champ_owner[c] == seat]


def why_not_fall(st: FallState, arg: int) -> str:
    """Why ``arg`` may not fall (the rules of :func:`fall_options`: one of your trolls in the cavern)."""
    loc = st.pending["loc"]
    where = st.game.side.names[loc]
    if arg == 0:
        return f"you have no regular trolls in {where}"
    card = arg - 1
    if card >= len(st.champ_loc) or st.champ_owner[card] != st.decider:
        return "that champion is not yours"
    return f"that champion's pawn is not in {where}"


@task("fall")
def fall(st: FallState, kind: int, seat: int, loc: int) -> None:
    """"That player chooses any one of their trolls in the cavern to fall"; then its honor."""
    if kind == INVASION:  # "The first troll to fall in each invasion scores 3/4/5 ... Each later troll 2"
        rules = st.game.pack.rules
        gain_honor(st, seat, rules.first_fall_honor[st.wave - 1] if st.falls == 0 else rules.later_fall_honor, FALLS)
        st.falls += 1
    options = fall_options(st, seat, loc)
    if len(options) == 1:
        troll_falls(st, seat, loc, options[0])
    else:
        ask(st, Phase.FALL, seat, loc=loc)


def apply_fall(st: FallState, arg: int) -> None:
    seat, loc = st.decider, st.pending["loc"]
    st.pending = {}
    troll_falls(st, seat, loc, arg)
    if st.phase != Phase.LAIR_CHOICE:
        resume(st)


def troll_falls(st: FallState, seat: int, loc: int, arg: int) -> None:
    """"A champion jumps to a lair; a regular troll goes to their supply.\""""
    if arg == 0:
        st.trolls[loc][seat] -= 1
        st.troll_supply[seat] += 1
    else:
        ask(st, Phase.LAIR_CHOICE, seat, reason="fall", card=arg - 1)


def apply_lair(st: FallState, i: int) -> None:
    """The lair chosen for a repulse's trolls or a falling champion."""
    seat, p = st.decider, st.pending
    lair = st.lairs[seat][i]
    if p["reason"] == "fall":
        st.champ_loc[p["card"]] = lair
    else:
        return_to_lair(st, seat, p["loc"], lair)
    resume(st)
