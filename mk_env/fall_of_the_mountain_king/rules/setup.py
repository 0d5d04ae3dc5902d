"""Setup: the chance part (Great Hall tokens, the first gnomes at the gates, the swarm, the facedown gate
cards, vote tiles, decks, the champion display, the two 0-deck champions dealt to each player, the
starting ancestry cards, the start player) and the players' decisions (the champion kept: asked clockwise
from the start player, each choice hidden until all have chosen, :mod:`.simultaneous`; then clockwise from the
start player the lairs, their first trolls and the champion pawn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ancestry import write_card
from .board import overrun
from .fields import DEALT, HELD, REMOVED, SUPPLY
from .flow import ask, order_from, push, resume, task
from .vocabulary import Phase
from .waveend import deal_display, deal_gates

if TYPE_CHECKING:
    from .state import FallState


def chance_setup(st: FallState) -> None:
    """Every random draw of the setup, in the order of the text."""
    g, rng = st.game, st.rng
    pack, n = g.pack, st.num_players
    st.strength = [int(s) for s in rng.permutation(st.strength)]  # gnome ids say nothing of strength
    st.hall_value = [int(pack.hall_tokens[i]) for i in rng.choice(len(pack.hall_tokens), len(g.side.halls),
                                                                     replace=False)]
    gates = [int(c) for c in rng.permutation(len(pack.clans))]
    k = pack.rules.starting_gnome_cards[n - 2]
    for clan in gates[:k]:  # "Put a random gnome in a random gate cavern of each card's domain."
        pool = [x for x, at in enumerate(st.gnome_at) if at == SUPPLY]
        gnome = pool[int(rng.integers(len(pool)))]
        cavern = g.side.gates[clan][int(rng.integers(len(g.side.gates[clan])))]
        st.gnome_at[gnome] = cavern
    st.swarm = gates[k]  # "Reveal another gate card and put the swarm token on the swarm point"
    deal_gates(st)
    st.vote_tiles = [int(t) for t in rng.permutation(len(pack.clans))]
    st.deck = [int(c) for c in rng.permutation(len(pack.cards))]
    for d in range(3):
        st.champ_decks[d] = [int(c) for c in rng.permutation([i for i, c in enumerate(pack.champions) if c.deck == d])]
    deal_display(st, 1)
    for seat in range(n):
        st.dealt[seat] = [st.champ_decks[0].pop(), st.champ_decks[0].pop()]
        for c in st.dealt[seat]:
            st.champ_state[c], st.champ_owner[c] = DEALT, seat
    for seat, card in enumerate(rng.permutation(len(pack.starting_cards))[:n]):
        write_card(st, seat, pack.starting_cards[int(card)], g.start_anchor)
    st.start_player = int(rng.integers(n))
    # the champions are kept (and their vote markers stacked) clockwise from the start player, drawn at
    # random: a fixed seat order would give seat 0 the bottom of every tied stack
    order = order_from(st, st.start_player)
    push(st, *[["keep", seat] for seat in order], ["reveal_champions"], *[["lair_pair", seat] for seat in order],
         ["wave_start"])


@task("keep")
def keep(st: FallState, seat: int) -> None:
    """"From the 0 deck, deal each player 2 facedown. Each player chooses 1 to keep face-up.\""""
    ask(st, Phase.KEEP_CHAMPION, seat)


def apply_keep(st: FallState, i: int) -> None:
    """Choose dealt card ``i``: turned face up with the others' (:func:`reveal_champions`)."""
    st.committed[st.decider] = [i]
    resume(st)


@task("reveal_champions")
def reveal_champions(st: FallState) -> None:
    """The kept champions turn face up together: each player's other dealt card leaves the game ("Remove rest
    from game") and the kept ones' votes go on the clan board clockwise from the start player (the order their
    markers stack in). A player still to choose (a valuation's reveal: :func:`.simultaneous.revealed`) keeps
    both cards facedown."""
    votes = []
    for seat in order_from(st, st.start_player):
        for i in st.committed[seat]:
            card, other = st.dealt[seat][i], st.dealt[seat][1 - i]
            st.champ_state[card] = HELD
            st.champ_state[other], st.champ_owner[other] = REMOVED, -1
            st.dealt[seat] = []
            votes.append(["champion_votes", seat, card, st.game.pack.champions[card].votes])
        st.committed[seat] = []
    push(st, *votes)


def free_pairs(st: FallState) -> list[int]:
    taken = {x for lairs in st.lairs for x in lairs}
    return [i for i, pair in enumerate(st.game.side.lair_pairs) if not set(pair) & taken]


def why_not_lair_pair(st: FallState, i: int) -> str:
    """Why lair pair ``i`` is refused (the rule of :func:`free_pairs`)."""
    return f"lair pair {i} is taken: another player's lair tiles are on it"


@task("lair_pair")
def lair_pair(st: FallState, seat: int) -> None:
    """"Each player puts their lair tiles on a pair of lair spaces with matching symbols".\""""
    ask(st, Phase.LAIR_PAIR, seat)


def apply_lair_pair(st: FallState, i: int) -> None:
    """The lairs, 3 trolls on each; then a troll by each."""
    seat = st.decider
    st.lairs[seat] = list(st.game.side.lair_pairs[i])
    for lair in st.lairs[seat]:
        st.trolls[lair][seat] += 3
        st.troll_supply[seat] -= 3
    push(st, ["lair_troll", seat, 0, []])
    resume(st)


def lair_troll_places(st: FallState, seat: int, i: int) -> list[int]:
    """"1 troll in a gnome-free cavern adjacent to each lair"."""
    side = st.game.side
    return [c for c in side.adjacent[st.lairs[seat][i]] if c < side.n_caverns and not overrun(st, c)]


def why_not_lair_troll(st: FallState, loc: int) -> str:
    """Why the lair's troll may not go to ``loc`` (the rule of :func:`lair_troll_places`)."""
    side = st.game.side
    lair = side.names[st.lairs[st.decider][st.pending["lair"]]]
    if loc not in side.adjacent[st.lairs[st.decider][st.pending["lair"]]] or loc >= side.n_caverns:
        return f"{side.names[loc]} is not a cavern adjacent to your lair {lair}"
    return f"{side.names[loc]} is not gnome-free"


@task("lair_troll")
def lair_troll(st: FallState, seat: int, i: int, chosen: list[int]) -> None:
    if i < 2:
        if lair_troll_places(st, seat, i):
            ask(st, Phase.LAIR_TROLL, seat, lair=i, chosen=chosen)
        else:
            push(st, ["lair_troll", seat, i + 1, chosen])
        return
    pawn = [c for c, o in enumerate(st.champ_owner) if o == seat and st.champ_state[c] == HELD
            and st.game.pack.champions[c].letter]
    if pawn and chosen:  # "they add it to one of the latter two lair-adjacent caverns with its initial troll"
        ask(st, Phase.PAWN_SETUP, seat, card=pawn[0], chosen=chosen)


def apply_lair_troll(st: FallState, cavern: int) -> None:
    seat, p = st.decider, st.pending
    st.trolls[cavern][seat] += 1
    st.troll_supply[seat] -= 1
    push(st, ["lair_troll", seat, p["lair"] + 1, p["chosen"] + [cavern]])
    resume(st)


def pawn_setup_options(st: FallState) -> list[int]:
    chosen = st.pending["chosen"]
    return [i for i in range(len(chosen)) if chosen[i] not in chosen[:i]]


def apply_pawn_setup(st: FallState, i: int) -> None:
    st.champ_loc[st.pending["card"]] = st.pending["chosen"][i]
    resume(st)


__all__ = ["chance_setup"]
