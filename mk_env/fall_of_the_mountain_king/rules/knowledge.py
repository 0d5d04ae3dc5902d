"""What each player may know: the one place the env's observation, renderers and agents ask, so hidden
information (facedown gnomes and gate cards, the draft hands, the 0-deck champions dealt to others) is
never read past its owner. ``determinize`` resamples exactly what these say a player does not know."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
