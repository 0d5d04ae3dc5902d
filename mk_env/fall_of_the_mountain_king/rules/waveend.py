"""Wave End (entrenchment, the invasions left to right, awarding the champions, the end-of-wave
abilities, scoring the domains in waves I and II) and Refresh."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import controller, draw_gnome, gnomes_at, overrun
from .fields import DISPLAY
from .flow import gain_honor, push, task

if TYPE_CHECKING:
    from .state import FallState

DOMAINS = 4  # honor category


@task("wave_end")
def wave_end(st: FallState) -> None:
    steps: list[list] = [["entrench"]]
    steps += [["invasion", k] for k in range(len(st.invasion))]
    steps += [["award", i] for i in range(len(st.display))]
    steps.append(["end_of_wave_abilities"])
    if st.wave < 3:
        steps += [["score_domains"], ["refresh"], ["wave_start"]]
    else:
        steps.append(["end_game"])
    push(st, *steps)


@task("entrench")
def entrench(st: FallState) -> None:
    """"Add one gnome to each cavern with exactly one gnome in it.\""""
    for c in range(st.game.side.n_caverns):
        if len(gnomes_at(st, c)) == 1:
            g = draw_gnome(st)
            if g >= 0:
                st.gnome_at[g] = c


def domain_score(st: FallState, clan: int) -> list[int]:
    """"Each player with at least one controlled cavern in the domain scores 4 honor plus 2 for each
    controlled cavern minus 1 for each overrun cavern.\""""
    caverns = st.game.side.domain[clan]
    lost = sum(1 for c in caverns if overrun(st, c))
    out = []
    for seat in range(st.num_players):
        held = sum(1 for c in caverns if controller(st, c) == seat)
        out.append(4 + 2 * held - lost if held else 0)
    return out


@task("score_domains")
def score_domains(st: FallState) -> None:
    """Score each domain, "start with Moss and proceed clockwise"."""
    for clan in st.game.pack.swarm_cycle:
        for seat, honor in enumerate(domain_score(st, clan)):
            gain_honor(st, seat, honor, DOMAINS)


def deal_gates(st: FallState) -> None:
    """"Gather and shuffle all gate cards. For 2/3/4/5 players, deal 3/3/4/5 facedown by the board.\""""
    k = st.game.pack.rules.invasion_cards[st.num_players - 2]
    cards = [int(c) for c in st.rng.permutation(len(st.game.pack.clans))]
    st.invasion, st.gates_aside, st.revealed = cards[:k], cards[k:], 0
    st.known_gates = [[] for _ in range(st.num_players)]


def deal_display(st: FallState, deck: int) -> None:
    """Deal 3/4/5/6 champions face-up from ``deck`` (its letter tile goes with the card)."""
    k = st.game.pack.rules.display[st.num_players - 2]
    pile = st.champ_decks[deck]
    st.display = [pile.pop() for _ in range(min(k, len(pile)))]
    for c in st.display:
        st.champ_state[c] = DISPLAY


@task("refresh")
def refresh(st: FallState) -> None:
    """Refresh: new gate cards and champions, ancestry markers and claws back, desperation tokens
    discarded, the start player marker passed clockwise."""
    deal_gates(st)
    st.wave += 1
    deal_display(st, 1 if st.wave == 2 else 2)
    st.covered = [[0] * st.game.cells for _ in range(st.num_players)]
    st.claws_used = [0] * len(st.claws_used)
    st.desperation = [0] * st.num_players
    st.start_player = (st.start_player + 1) % st.num_players


