"""The Gnome action and the gnome wheel: move the pawn up to p spaces, scout (a facedown gate card and a
gnome on the map, each player's private knowledge), the tripwires passed (honor boost, breach) in order,
then the effect of the pawn's new space at m, the spaces moved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import enterable, force, overrun, pawns_at
from .flow import ask, gain_honor, push, resume, task
from .vocabulary import Phase, Space

if TYPE_CHECKING:
    from .state import FallState

WHEEL = 2  # honor category


def move_pawn(st: FallState, m: int) -> list[int]:
    """Move the wheel pawn ``m`` spaces clockwise; the tripwires it crossed, in the order crossed (a
    tripwire is crossed when the pawn enters its space)."""
    w = st.game.pack.wheel
    n = len(w.spaces)
    crossed = []
    for k in range(1, m + 1):
        space = (st.wheel + k) % n
        if space in (w.honor_tripwire, w.breach_tripwire):
            crossed.append(space)
    st.wheel = (st.wheel + m) % n
    return crossed


@task("gnome_action")
def gnome_action(st: FallState, seat: int, power: int, strong: int = 0) -> None:
    """"Move the wheel pawn clockwise up to p spaces, but never more than a full circuit"."""
    ask(st, Phase.WHEEL, seat)
    st.pending["most"] = min(power, len(st.game.pack.wheel.spaces))


def why_not_wheel(st: FallState, arg: int) -> str:
    """Why moving the wheel pawn ``arg + 1`` spaces is refused (the limit :func:`gnome_action` sets)."""
    most = st.pending["most"]
    return (f"the Gnome action moves the wheel pawn up to its power, never more than a full circuit: "
            f"at most {most} spaces now")


def apply_wheel(st: FallState, arg: int) -> None:
    seat, m = st.decider, arg + 1
    w = st.game.pack.wheel
    crossed = move_pawn(st, m)
    steps: list[list] = [["scout_gate", seat]]
    for t in crossed:
        steps.append(["honor_tripwire", seat] if t == w.honor_tripwire else ["breach", seat])
    steps.append(["space_effect", seat, m])
    push(st, *steps)
    resume(st)


@task("scout_gate")
def scout_gate(st: FallState, seat: int) -> None:
    """"You may peek at 1 facedown gate card" (then at 1 gnome)."""
    push(st, ["scout_gnome", seat])
    if scoutable_gates(st, seat):
        ask(st, Phase.SCOUT_GATE, seat)


def scoutable_gates(st: FallState, seat: int) -> list[int]:
    """The facedown gate cards ``seat`` has not peeked at (peeking again is free: no decision)."""
    return [i for i in range(st.revealed, len(st.invasion)) if i not in st.known_gates[seat]]


def why_not_gate(st: FallState, pos: int) -> str:
    """Why peeking at gate card ``pos`` is refused (the rules of :func:`scoutable_gates`)."""
    if pos >= len(st.invasion):
        return f"the invasion deck has {len(st.invasion)} gate cards"
    if pos < st.revealed:
        return f"gate card {pos} is already face up"
    return f"you have already peeked at gate card {pos}"


def apply_gate(st: FallState, pos: int) -> None:
    known = st.known_gates[st.decider]
    if pos not in known:
        known.append(pos)
        known.sort()
    resume(st)


@task("scout_gnome")
def scout_gnome(st: FallState, seat: int) -> None:
    """"... **and** at 1 gnome on the map"."""
    if scoutable_gnomes(st, seat):
        ask(st, Phase.SCOUT_GNOME, seat)


def scoutable_gnomes(st: FallState, seat: int) -> list[int]:
    """The gnomes on the map whose strength is facedown and unknown to ``seat``."""
    known = st.known_gnomes[seat]
    return [g for g, x in enumerate(st.gnome_at) if x >= 0 and not st.gnome_public[g] and g not in known]


def why_not_gnome(st: FallState, gnome: int) -> str:
    """Why peeking at ``gnome`` is refused (the rules of :func:`scoutable_gnomes`)."""
    if st.gnome_at[gnome] < 0:
        return f"gnome {gnome} is not on the map"
    if st.gnome_public[gnome]:
        return f"gnome {gnome}'s strength is already face up"
    return f"you already know gnome {gnome}'s strength"


def apply_gnome(st: FallState, gnome: int) -> None:
    known = st.known_gnomes[st.decider]
    if gnome not in known:
        known.append(gnome)
        known.sort()
    resume(st)


@task("honor_tripwire")
def honor_tripwire(st: FallState, seat: int) -> None:
    """"Honor: Advance your marker 1 space on the boost track"."""
    st.boost[seat] = min(st.boost[seat] + 1, st.game.pack.wheel.boost_track)


@task("space_effect")
def space_effect(st: FallState, seat: int, m: int) -> None:
    """"Carry out the effect of the pawn's new space"."""
    space = st.game.pack.wheel.spaces[st.wheel]
    if space == Space.BOLSTER:
        push(st, ["bolster", seat, m])
    elif space == Space.INFLUENCE:
        push(st, ["influence", seat, m])
    elif space == Space.HONOR:  # "Gain m honor plus the amount of your current honor boost"
        gain_honor(st, seat, m + st.boost[seat], WHEEL)
    elif space == Space.TROLL and shove_sources(st, seat):
        ask(st, Phase.SHOVE_FROM, seat, m=m)


# -- the grey troll space ----------------------------------------------------------------------------------
def _destinations(st: FallState, loc: int) -> list[int]:
    n = st.game.side.n_caverns
    return [y for y in st.game.side.adjacent[loc] if y < n and not overrun(st, y)]


def shove_sources(st: FallState, seat: int) -> list[int]:
    """"Move up to m trolls of any players from any single cavern into adjacent gnome-free caverns"."""
    n = st.game.side.n_caverns
    return [x for x in range(n) if sum(force(st, x)) and _destinations(st, x)]


def why_not_shove_from(st: FallState, loc: int) -> str:
    """Why moving trolls out of ``loc`` is refused (the rules of :func:`shove_sources`)."""
    names = st.game.side.names
    if loc >= st.game.side.n_caverns:
        return f"{names[loc]} is a lair: trolls are moved out of a single cavern"
    if not sum(force(st, loc)):
        return f"there are no trolls in {names[loc]}"
    return f"no cavern adjacent to {names[loc]} is gnome-free"


def apply_shove_from(st: FallState, loc: int) -> None:
    ask(st, Phase.SHOVE, st.decider, src=loc, left=st.pending["m"])


def shove_moves(st: FallState) -> list[tuple[int, int]]:
    """(piece, destination): a piece is a seat's regular troll (0..n-1) or n + a champion card."""
    p, n = st.pending, st.num_players
    if p["left"] <= 0:
        return []
    src = p["src"]
    dests = _destinations(st, src)
    out = [(q, d) for q in range(n) if st.trolls[src][q] for d in dests if enterable(st, q, d)]
    out += [(n + c, d) for c in pawns_at(st, src) for d in dests]
    return out


def why_not_shove(st: FallState, arg: int) -> str:
    """Why shove ``arg`` (piece x destination) is refused (the rules of :func:`shove_moves`)."""
    p, n, side = st.pending, st.num_players, st.game.side
    piece, dest = divmod(arg, side.size)
    src = p["src"]
    if p["left"] <= 0:
        return "the grey troll space has moved its m trolls"
    if piece < n and not st.trolls[src][piece]:
        return f"seat {piece} has no trolls in {side.names[src]}"
    if piece >= n and st.champ_loc[piece - n] != src:
        return f"that champion's pawn is not in {side.names[src]}"
    if dest not in side.adjacent[src] or dest >= side.n_caverns:
        return f"{side.names[dest]} is not a cavern adjacent to {side.names[src]}"
    if overrun(st, dest):
        return f"{side.names[dest]} is not gnome-free"
    return f"{side.names[dest]} is a lair of another player"


def apply_shove(st: FallState, piece: int, dest: int) -> None:
    p, n = st.pending, st.num_players
    if piece < n:
        st.trolls[p["src"]][piece] -= 1
        st.trolls[dest][piece] += 1
    else:
        st.champ_loc[piece - n] = dest
    p["left"] -= 1
    if not shove_moves(st):
        resume(st)
