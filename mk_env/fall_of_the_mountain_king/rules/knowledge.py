"""What each player may know: the one place the env's observation, renderers and agents ask, so hidden
information (facedown gnomes and gate cards, the draft hands, the 0-deck champions dealt to others, the
choices committed in a simultaneous decision) is never read past its owner. ``determinize`` resamples
exactly what these say a player does not know."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .vocabulary import Phase

if TYPE_CHECKING:
    from .state import FallState

UNKNOWN = -1


def gnome_strength(st: FallState, player: int, gnome: int) -> int:
    """The strength of ``gnome`` as ``player`` knows it: revealed in a battle (public) or peeked at by
    ``player``; UNKNOWN otherwise."""
    if st.gnome_public[gnome] or gnome in st.known_gnomes[player]:
        return st.strength[gnome]
    return UNKNOWN


def gate_card(st: FallState, player: int, position: int) -> int:
    """The clan of the gate card at ``position`` by the board, as ``player`` knows it: revealed by an
    invasion or peeked at by ``player``; UNKNOWN otherwise."""
    if position < st.revealed or position in st.known_gates[player]:
        return st.invasion[position]
    return UNKNOWN


def hand(st: FallState, player: int, seat: int) -> list[int]:
    """``seat``'s draft hand as ``player`` knows it: the cards ``player`` has held this wave (it passed
    them on); UNKNOWN for each other card."""
    if player == seat:
        return st.hands[seat][:]
    return [c if c in st.seen[player] else UNKNOWN for c in st.hands[seat]]


def dealt_champions(st: FallState, player: int, seat: int) -> list[int]:
    """The 0-deck champions dealt to ``seat`` at setup and not yet chosen, as ``player`` knows them."""
    return st.dealt[seat][:] if player == seat else [UNKNOWN] * len(st.dealt[seat])


def markers(st: FallState, player: int, seat: int) -> list[int]:
    """``seat``'s ancestry markers (1 per canvas cell covered) as ``player`` knows them: those on the table,
    and on its own grid the wilds it has chosen to cover in the wild pairs under way (another seat's stay
    hidden until every seat has chosen: :mod:`.simultaneous`). A committed card or champion shows at the
    reveal: its seat has no decision before it."""
    if seat != player or st.phase != Phase.WILD_PAIR or not st.committed[seat]:
        return st.covered[seat]
    out = st.covered[seat][:]
    for cell in st.committed[seat]:
        out[cell] = 1
    return out
