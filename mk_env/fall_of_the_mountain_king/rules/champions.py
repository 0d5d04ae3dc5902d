"""Award Champions: left to right, the victor (most influence, the bottom marker of a stack leads) gains
the card's votes (an outsider's are wild: any single clan), the others with influence choose a vote or
honor by the yellow lines passed, the victor takes the card (a pawn into a dominated cavern in waves I/II,
a starburst tile into an empty Great Hall in wave III) and resolves an instant ability; then the
end-of-wave abilities."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import controller, dominates
from .fields import HELD, REMOVED
from .flow import ask, gain_honor, gain_votes, leader, push, resume, standing, task
from .vocabulary import Ability, Phase, Timing

if TYPE_CHECKING:
    from .state import FallState

CHAMPIONS = 3  # honor category


@task("award")
def award(st: FallState, pos: int) -> None:
    """Resolve the champion at display position ``pos``."""
    card = st.display[pos]
    inf, stamps = st.influence[card], st.influence_stamp[card]
    victor = leader(inf, stamps)
    if victor < 0:  # "If no player has influence on the champion, remove it from the game."
        st.champ_state[card] = REMOVED
        return
    ch = st.game.pack.champions[card]
    st.champ_state[card], st.champ_owner[card] = HELD, victor
    steps: list[list] = [["champion_votes", victor, card, ch.votes]]
    steps += [["vote_or_honor", p, card] for p in standing(inf, stamps) if p != victor]
    if ch.letter and st.wave < 3:
        steps.append(["pawn_place", victor, card])
    elif ch.letter:
        steps.append(["starburst", victor, card])
    if ch.timing == Timing.INSTANT:
        steps.append(["ability", victor, card])
    push(st, *steps)


@task("champion_votes")
def champion_votes(st: FallState, seat: int, card: int, amount: int) -> None:
    """Votes in the champion's clan; "A champion with a flag not on the clan board is an outsider. You may
    apply its wild votes to any single clan.\""""
    clan = st.game.pack.champions[card].clan
    if clan >= 0:
        gain_votes(st, seat, clan, amount)
    elif amount > 0:
        ask(st, Phase.OUTSIDER, seat, amount=amount)


def apply_clan(st: FallState, clan: int) -> None:
    gain_votes(st, st.decider, clan, st.pending["amount"])
    resume(st)


def lines_passed(st: FallState, seat: int, card: int) -> int:
    """The yellow lines ``seat``'s influence on ``card`` passed."""
    return sum(1 for x in st.game.pack.yellow_lines if st.influence[card][seat] >= x)


@task("vote_or_honor")
def vote_or_honor(st: FallState, seat: int, card: int) -> None:
    """"Other players with influence on the card choose a vote in the champion's clan or honor equal to the
    number of yellow lines their influence passed" (an outsider's vote: any single clan)."""
    ask(st, Phase.VOTE_OR_HONOR, seat, card=card)


def apply_vote_or_honor(st: FallState, arg: int) -> None:
    seat, card = st.decider, st.pending["card"]
    if arg == 1:
        gain_honor(st, seat, lines_passed(st, seat, card), CHAMPIONS)
    else:
        push(st, ["champion_votes", seat, card, 1])
    resume(st)


def pawn_places(st: FallState, seat: int) -> list[int]:
    return [x for x in range(st.game.side.size) if dominates(st, seat, x)]


@task("pawn_place")
def pawn_place(st: FallState, seat: int, card: int) -> None:
    """"Take the matching square champion tile and insert it into one of your champion bases, making a
    champion pawn. Add it to a cavern you dominate." (No base left: no pawn.)"""
    on_map = sum(1 for c, o in enumerate(st.champ_owner) if o == seat and st.champ_loc[c] >= 0)
    if on_map < st.game.pack.rules.champion_bases and pawn_places(st, seat):
        ask(st, Phase.PAWN_PLACE, seat, card=card)


def apply_pawn_place(st: FallState, loc: int) -> None:
    st.champ_loc[st.pending["card"]] = loc
    resume(st)


@task("starburst")
def starburst(st: FallState, seat: int, card: int) -> None:
    """"Put the champion's matching starburst tile into an empty Great Hall" (it counts as a cavern its
    holder controls touching that hall, the designed effect)."""
    if -1 in st.starburst:
        ask(st, Phase.STARBURST, seat, card=card)


def why_not_hall(st: FallState, hall: int) -> str:
    """Why the starburst tile may not go into ``hall`` (the rule of the STARBURST choice: an empty hall)."""
    holder = st.game.pack.champions[st.starburst[hall]].name
    return f"{st.game.side.hall_names[hall]} is not empty: it holds the starburst tile of {holder}"


def apply_hall(st: FallState, hall: int) -> None:
    st.starburst[hall] = st.pending["card"]
    resume(st)


@task("ability")
def ability(st: FallState, seat: int, card: int) -> None:
    """An instant or end-of-wave ability of ``card`` for ``seat``."""
    ch = st.game.pack.champions[card]
    if ch.ability == Ability.HONOR:
        gain_honor(st, seat, ch.amount, CHAMPIONS)
    elif ch.ability == Ability.VOTES:
        push(st, ["champion_votes", seat, card, ch.amount])
    elif ch.ability == Ability.ELDER:
        st.elder_bonus[seat] += ch.amount
    elif ch.ability == Ability.DOMAIN_HONOR:
        side = st.game.side
        clan = ch.clan if ch.clan >= 0 else st.swarm
        gain_honor(st, seat, sum(1 for c in side.domain[clan] if controller(st, c) == seat), CHAMPIONS)


@task("end_of_wave_abilities")
def end_of_wave_abilities(st: FallState) -> None:
    """"Apply the effects of any champions with the end-of-wave symbol (red sunset).\""""
    champs = st.game.pack.champions
    push(st, *[["ability", o, c] for c, o in enumerate(st.champ_owner)
               if o >= 0 and st.champ_state[c] == HELD and champs[c].timing == Timing.END_OF_WAVE])
