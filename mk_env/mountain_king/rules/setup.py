"""Setup (rulebook, *Setup*): the general setup of the board, the horde, the spellbook and the pedestal
track, then each player's gate and starting trolls (the draft) and their starting resources. Legal
moves and their application side by side; the game's chance draws are in :mod:`mk_env.mountain_king.rules.chance`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .actions import N_HORDE, TROLLSMOOT_ROWS
from .board import place_tile
from .chance import refill
from .content import N_CLANS, N_TIERS, RESOURCES
from .fields import blank_fields, reset_turn
from .vocabulary import Phase, SquareKind

if TYPE_CHECKING:
    from .state import GameState


# -- the general setup ---------------------------------------------------------------------------------
def setup(st: GameState, rng: np.random.Generator) -> None:
    """The rulebook's general setup of a new state (of its game; ``rng``: the game's chance from now on),
    then the first player-setup decision (gate placement)."""
    game = st.game
    pack, geo, n = game.pack, game.geo, game.num_players
    st._rng = rng
    blank_fields(st, game)
    st.buried[:-1] = geo.side.buried.reshape(-1)
    st.supply[:] = [pack.supply[r] for r in RESOURCES]
    st.tunnel_supply[:] = [t.count for t in pack.tunnels]
    # statues: a random first spot and clan, then the clan cycle clockwise (setup step 8)
    spots = geo.side.statue_spots
    start = int(rng.integers(len(spots))) if spots else 0
    cycle = rng.permutation(N_CLANS)
    placed = [0] * N_CLANS
    for k in range(len(spots)):
        clan = int(cycle[k % N_CLANS])
        if placed[clan] < pack.statues_per_clan:
            r, c = spots[(start + k) % len(spots)]
            st.statue[geo.sq(r, c)] = clan
            placed[clan] += 1
    # workshops revealed: 2 per player + 1 (setup step 6)
    want = 2 * n + 1
    if game.workshop_selection == "random":
        tiles = [w for w, shop in enumerate(pack.workshops) for _ in range(shop.count)]
        chosen = [tiles[i] for i in rng.permutation(len(tiles))[:want].tolist()]
    elif game.workshop_selection == "no_duplicates":
        chosen = rng.permutation(len(pack.workshops))[:want].tolist()
    else:
        names = [w.name for w in pack.workshops]
        chosen = [names.index(x) for x in game.workshop_selection]
    for w in chosen:
        st.workshop_supply[w] += 1
    # the horde (setup steps 3-4)
    for level in (1, 2, 3):
        ids = [i for i, c in enumerate(game.cards) if c.level == level]
        st.decks[level - 1] = [ids[i] for i in rng.permutation(len(ids)).tolist()]
    st.deck_unseen = [len(d) for d in st.decks]
    st.bag[:] = pack.pedestals_per_clan
    for h in range(N_HORDE):
        refill(st, h)
    st.coronation_left = list(pack.coronation_tokens[n])
    # spellbook (step 7) and pedestal track (step 9)
    order = rng.permutation(len(pack.spells)).tolist()
    size = len(st.spellbook)
    st.spellbook[:] = order[:size]
    st.spell_deck = order[size:]
    st.spell_unseen = len(st.spell_deck)
    track = rng.permutation(len(pack.pedestal_tokens)).tolist()
    st.track_value[:] = np.array([pack.pedestal_tokens[i] for i in track]).reshape(N_TIERS, N_CLANS)
    # players: two starters in hand, the rest in a deck (the draft)
    for p in range(n):
        deck = rng.permutation(game.n_starters).tolist()
        st.draft_hand[p], st.draft_deck[p] = deck[:2], deck[2:]
    st.draft_placed = [0] * n
    st.phase = int(Phase.GATE)


# -- player setup: legal moves -------------------------------------------------------------------------
def legal_gates(st: GameState, _p: int) -> list[int]:
    """Start points where the seat may place its gate (the marks of this player count; 2 players: a pair
    of matching marks; team play: beside the teammate's gate)."""
    geo, n = st.game.geo, st.num_players
    taken = {int(s) for s in st.gate_sq if s >= 0}
    marks = {m for _, m in geo.start_points}
    if n in marks:
        allowed = {n}
    else:  # 2 players: any two matching-numbered start points
        placed = [m for sq, m in geo.start_points if sq in taken]
        allowed = {placed[0]} if placed else {m for m in marks
                                              if sum(1 for _, x in geo.start_points if x == m) >= n}
    legal = [k for k, (sq, m) in enumerate(geo.start_points) if m in allowed and sq not in taken]
    mate_gates = [int(st.gate_sq[q]) for q in st.game.teammates[st.current] if st.gate_sq[q] >= 0]
    if st.game.team_mode and mate_gates:  # team play: gates beside each other
        legal = [k for k in legal if _beside(geo, k, mate_gates[0])]
    return legal


def _beside(geo, k: int, gate_sq: int) -> bool:
    """Start point k is next to the start point under ``gate_sq`` clockwise or anticlockwise among
    the points of the same mark."""
    mark = geo.start_points[k][1]
    ring = [i for i in geo.start_clockwise if geo.start_points[i][1] == mark]
    j = next(i for i in ring if geo.start_points[i][0] == gate_sq)
    a, b = ring.index(k), ring.index(j)
    return (a - b) % len(ring) in (1, len(ring) - 1)


def legal_drafts(st: GameState, p: int) -> list[int]:
    """Draft arguments: a starter in hand x a free starting slot."""
    free_slots = [s for s in range(TROLLSMOOT_ROWS[0]) if st.smoot[p, s] < 0]
    return sorted({t * TROLLSMOOT_ROWS[0] + s for t in st.draft_hand[p] for s in free_slots})


# -- player setup: application ---------------------------------------------------------------------------
def apply_gate(st: GameState, p: int, k: int) -> None:
    """Place p's gate on start point ``k``; after the last gate, the draft."""
    sq = st.game.geo.start_points[k][0]
    st.gate_sq[p] = sq
    place_tile(st, [sq], SquareKind.GATE, -1)
    if p + 1 < st.num_players:
        st.current = p + 1
    else:
        st.phase, st.current = int(Phase.DRAFT), 0


def apply_draft(st: GameState, p: int, arg: int) -> None:
    """Keep a starter in a starting slot and draw the next; after the last player's fourth, the starting
    resources and the first turn."""
    t, slot = st.game.layout.draft_args(arg)
    st.smoot[p, slot] = t
    hand = list(st.draft_hand[p])
    hand.remove(t)
    st.draft_placed[p] += 1
    if st.draft_placed[p] < TROLLSMOOT_ROWS[0]:
        hand.append(st.draft_deck[p][0])
        st.draft_deck[p] = st.draft_deck[p][1:]
    st.draft_hand[p] = hand
    if st.draft_placed[p] < TROLLSMOOT_ROWS[0]:
        return
    if p + 1 < st.num_players:
        st.current = p + 1
        return
    _grant_starting_resources(st)
    st.phase, st.current, st.turn = int(Phase.STEP1), 0, 0
    reset_turn(st)


def _grant_starting_resources(st: GameState) -> None:
    """Starting resources of the four chosen starters, plus the bonus by seat: seats 2-3 also take
    the hand troll's, seats 4-5 the hand troll's and the unseen one's (none in team play)."""
    game = st.game
    for p in range(st.num_players):
        cards = st.smoot[p, : TROLLSMOOT_ROWS[0]].tolist()
        if not game.team_mode:
            if p in (1, 2):
                cards += st.draft_hand[p]
            elif p >= 3:
                cards += st.draft_hand[p] + st.draft_deck[p]
        for c in cards:
            for res in game.cards[c].starting:
                eco.gain(st, p, RESOURCES.index(res), 1)
    st.draft_hand = [[] for _ in range(st.num_players)]
    st.draft_deck = [[] for _ in range(st.num_players)]
