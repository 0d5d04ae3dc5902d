"""Building Cave Troll positions by hand for the rule tests: a state beyond the first round whose board
holds exactly the counters a test puts there, and small helpers to act by block and location name."""

from __future__ import annotations

from mk_env.cave_troll.rules import Artifact, Block, CaveTrollState, Game, Kind, Phase
from mk_env.cave_troll.rules.invariants import check
from mk_env.cave_troll.rules.vocabulary import DISCARDED, NO_PENDING, PILE


def position(n: int = 4, seat: int = 0, actions: int = 4, seed: int = 0) -> CaveTrollState:
    """Seat ``seat`` to act with ``actions`` actions, after the first round; every counter in its pile."""
    st = Game(n).new_initial_state(seed)
    st.turn, st.turn_player, st.current = n, seat, seat
    st.actions_left, st.phase, st.pending = actions, Phase.ACTION, NO_PENDING
    st.invalidate_caches()
    return st


def where(st: CaveTrollState, name: str) -> int:
    """The location number of a room, entrance or the pit by its name ("R12", "the pit")."""
    return st.game.pack.lair.names.index(name)


def counter(st: CaveTrollState, seat: int, kind: Kind, nth: int = 0) -> int:
    """The id of ``seat``'s ``nth`` counter of ``kind``."""
    g = st.game
    return [c for c in g.counters_of[seat] if g.kind_of[c] == kind][nth]


def put(st: CaveTrollState, seat: int, kind: Kind, place: str, nth: int | None = None) -> int:
    """Take ``seat``'s next counter of ``kind`` still in its pile (or the ``nth``) into ``place``."""
    g = st.game
    if nth is None:
        cid = next(c for c in g.counters_of[seat] if g.kind_of[c] == kind and st.loc[c] == PILE)
    else:
        cid = counter(st, seat, kind, nth)
    st.piles[seat].remove(cid)
    st.loc[cid] = where(st, place)
    st.invalidate_caches()
    return cid


def on_top(st: CaveTrollState, seat: int, kind: Kind) -> int:
    """Make ``seat``'s next draw its first counter of ``kind`` still in the pile."""
    g = st.game
    cid = next(c for c in st.piles[seat] if g.kind_of[c] == kind)
    st.piles[seat].remove(cid)
    st.piles[seat].append(cid)
    return cid


def action(st: CaveTrollState, block: Block, arg: int | str = 0) -> int:
    """The action number of ``block`` with ``arg`` (a location name is read as its number)."""
    return st.game.layout.index(block, where(st, arg) if isinstance(arg, str) else arg)


def act(st: CaveTrollState, block: Block, arg: int | str = 0) -> None:
    """Apply ``block`` with ``arg``, then check the invariants."""
    st.apply(action(st, block, arg))
    check(st)


def move(st: CaveTrollState, cid: int, dest: str) -> None:
    """The move (or escape) of counter ``cid`` to ``dest``, invariants checked."""
    st.apply(st.game.layout.move(st.game.slot_of[cid], where(st, dest)))
    check(st)


def can_move(st: CaveTrollState, cid: int, dest: str) -> bool:
    return st.is_legal(st.game.layout.move(st.game.slot_of[cid], where(st, dest)))


def legal_args(st: CaveTrollState, block: Block) -> list[int]:
    """The legal arguments of ``block`` now."""
    off, size = st.game.layout.offset[block], st.game.layout.sizes[block]
    return [int(a) - off for a in st.legal_actions() if off <= a < off + size]


def names(st: CaveTrollState, locs: list[int]) -> list[str]:
    return [st.game.pack.lair.names[x] for x in locs]


def lay(st: CaveTrollState, *counters: tuple[int, Kind, str]) -> list[int]:
    """:func:`put` each (seat, kind, place); their ids."""
    return [put(st, seat, kind, place) for seat, kind, place in counters]


def give(st: CaveTrollState, seat: int, kind: Artifact) -> int:
    """Put the artifact of ``kind`` into ``seat``'s hand (out of the stack); its index."""
    i = next(i for i, a in enumerate(st.game.pack.artifacts) if a.kind == kind)
    st.art_at[i] = seat
    st.stack.remove(i)
    st.invalidate_caches()
    return i


def last_counter(st: CaveTrollState, seat: int, kind: Kind) -> int:
    """Leave ``seat`` a single counter (its next ``kind``) in its pile, the others discarded."""
    keep = on_top(st, seat, kind)
    for c in [c for c in st.piles[seat] if c != keep]:
        st.piles[seat].remove(c)
        st.loc[c] = DISCARDED
    st.invalidate_caches()
    return keep


def cloaked_in_troll_room(st: CaveTrollState) -> int:
    """Seat 0 cloaks an Explorer in R07 and moves it into R12, seat 1's Cave Troll's room (the Cloak's
    second room still to choose); the Explorer's id."""
    give(st, 0, Artifact.CLOAK_OF_INVISIBILITY)
    e = put(st, 0, Kind.EXPLORER, "R07")
    put(st, 1, Kind.CAVE_TROLL, "R12")
    act(st, Block.CLOAK, st.game.slot_of[e])
    move(st, e, "R12")
    return e
