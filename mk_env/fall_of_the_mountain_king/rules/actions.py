"""The Advance, Bolster and Influence actions at power p, and the battle an Advance into an overrun cavern
starts (victory or repulse)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .battle import weak_options
from .board import dominates, draw_gnome, enterable, force, forces, gnomes_at, pawns_at, strength
from .fields import BY_WHEEL, DISPLAY
from .flow import ask, cancel, gain_honor, gain_votes, push, resume, task
from .wheel import move_pawn
from .vocabulary import Ability, Phase

if TYPE_CHECKING:
    from .state import FallState

BATTLE = 0  # honor category


# -- Advance ----------------------------------------------------------------------------------------------
def _troll_places(st: FallState, seat: int) -> tuple[set[int], set[int]]:
    """(the locations with ``seat``'s trolls, those established for it: these and its lairs)."""
    f = forces(st)
    mine = {x for x in range(len(f)) if f[x][seat]}
    return mine, mine | set(st.lairs[seat])


def sources(st: FallState, seat: int, dest: int, places: tuple[set[int], set[int]] | None = None) -> list[int]:
    """The locations whose trolls may advance to ``dest``: "provided intermediate caverns are
    established", so every location of ``seat``'s established region touching ``dest``."""
    mine, est = places or _troll_places(st, seat)
    adj = st.game.side.adjacent
    todo = [x for x in adj[dest] if x in est]
    seen = set(todo)
    while todo:
        x = todo.pop()
        for y in adj[x]:
            if y != dest and y not in seen and y in est:
                seen.add(y)
                todo.append(y)
    return sorted(x for x in seen if x in mine)


@task("advance")
def advance(st: FallState, seat: int, power: int, strong: int) -> None:
    """"Move up to p trolls from any caverns to a single destination cavern": first the destination (with
    no troll able to move anywhere, the action does nothing)."""
    ask(st, Phase.ADVANCE_DEST, seat, power=power, strong=strong)
    if not advance_destinations(st):
        cancel(st)


def advance_destinations(st: FallState) -> list[int]:
    seat = st.decider
    places = _troll_places(st, seat)
    return [x for x in range(st.game.side.size) if enterable(st, seat, x) and sources(st, seat, x, places)]


def why_not_advance_dest(st: FallState, dest: int) -> str:
    """Why Advance's destination ``dest`` is refused (the rules of :func:`advance_destinations`)."""
    seat, side = st.decider, st.game.side
    if dest >= side.size:
        return "that is no cavern of the map"
    if not enterable(st, seat, dest):
        return f"{side.names[dest]} is a lair of another player: trolls enter only caverns and their own lairs"
    return (f"none of your trolls can reach {side.names[dest]}: it is not adjacent to a cavern your trolls "
            "are in, through caverns established for you (your trolls or your lairs)")


def apply_advance_dest(st: FallState, dest: int) -> None:
    seat, p = st.decider, st.pending
    ask(st, Phase.ADVANCE_TROLL, seat, dest=dest, left=p["power"], strong=p["strong"], moved=0,
        sources=sources(st, seat, dest), champions=[])


def advance_trolls(st: FallState) -> list[int]:
    p = st.pending
    if p["left"] <= 0:
        return []
    return [x for x in p["sources"] if st.trolls[x][st.decider] > 0]


def why_not_advance_troll(st: FallState, src: int) -> str:
    """Why moving a troll from ``src`` in an Advance is refused (the rules of :func:`advance_trolls`)."""
    p, names = st.pending, st.game.side.names
    if p["left"] <= 0:
        return f"the Advance has moved {p['moved']} trolls, as many as its power"
    if st.trolls[src][st.decider] <= 0:
        return f"you have no trolls in {names[src]}"
    return (f"{names[src]} is not adjacent to {names[p['dest']]} through caverns established for you "
            "(your trolls or your lairs)")


def why_not_advance_champion(st: FallState, card: int) -> str:
    """Why moving champion ``card``'s pawn in an Advance is refused (the rules of :func:`advance_champions`)."""
    p, names = st.pending, st.game.side.names
    if p["left"] <= 0:
        return f"the Advance has moved {p['moved']} trolls, as many as its power"
    if card >= len(st.champ_loc) or st.champ_owner[card] != st.decider:
        return "that champion is not yours"
    if st.champ_loc[card] < 0:
        return "that champion has no pawn on the map"
    return (f"that champion's pawn in {names[st.champ_loc[card]]} is not adjacent to {names[p['dest']]} "
            "through caverns established for you")


def advance_champions(st: FallState) -> list[int]:
    p = st.pending
    if p["left"] <= 0:
        return []
    return [c for c, x in enumerate(st.champ_loc) if x in p["sources"] and st.champ_owner[c] == st.decider]


def apply_advance_troll(st: FallState, src: int) -> None:
    p = st.pending
    st.trolls[src][st.decider] -= 1
    st.trolls[p["dest"]][st.decider] += 1
    _moved(st)


def apply_advance_champion(st: FallState, card: int) -> None:
    st.champ_loc[card] = st.pending["dest"]
    st.pending["champions"].append(card)
    _moved(st)


def _moved(st: FallState) -> None:
    st.pending["left"] -= 1
    st.pending["moved"] += 1
    if not advance_trolls(st) and not advance_champions(st):
        apply_advance_done(st)


def apply_advance_done(st: FallState) -> None:
    """The trolls are in: battle if the destination is overrun; Argren's weak action after a strong
    Advance she took part in."""
    seat, p = st.decider, st.pending
    champs = st.game.pack.champions
    if p["strong"] and any(champs[c].ability == Ability.HAMMERHELM for c in p["champions"]):
        # after this action's end (its seize check), so beneath the topmost seize check
        at = max((i for i, t in enumerate(st.tasks) if t[0] == "seize_check"), default=len(st.tasks))
        st.tasks.insert(at, ["bonus_weak", seat])
    if gnomes_at(st, p["dest"]):
        push(st, ["battle", seat, p["dest"]])
    resume(st)


@task("bonus_weak")
def bonus_weak(st: FallState, seat: int) -> None:
    """Argren Hammerhelm: "a weak action after a strong Advance she took part in"."""
    ask(st, Phase.TURN, seat, weak=1, bonus=1)
    if not weak_options(st):
        cancel(st)


def attack(st: FallState, seat: int, loc: int) -> int:
    """The trolls ``seat`` attacks with at ``loc`` (Firragh The Avalanche counts as two)."""
    champs = st.game.pack.champions
    return force(st, loc)[seat] + sum(1 for c in pawns_at(st, loc) if champs[c].ability == Ability.AVALANCHE)


@task("battle")
def battle(st: FallState, seat: int, loc: int) -> None:
    """"Reveal the strengths of all the gnomes in the cavern": victorious if the trolls equal or exceed
    the total strength, else repelled."""
    gnomes = gnomes_at(st, loc)
    for g in gnomes:
        st.gnome_public[g] = 1
    total = sum(strength(st, g) for g in gnomes)
    if attack(st, seat, loc) >= total:
        # "Score honor equal to the strength of the defeated gnomes and gain 1 vote in the cavern's clan."
        gain_honor(st, seat, total, BATTLE)
        gain_votes(st, seat, st.game.side.clan_of[loc])
        for g in gnomes:  # "Put the gnomes by the gnome wheel. Move the wheel pawn 1 clockwise for each gnome"
            st.gnome_at[g] = BY_WHEEL
        crossed = move_pawn(st, len(gnomes))
        if st.game.pack.wheel.breach_tripwire in crossed:
            push(st, ["breach", seat])
        return
    # repelled: "Return all trolls in the cavern to a single one of your lairs"; one gnome gets another
    if len(gnomes) == 1:
        g = draw_gnome(st)
        if g >= 0:
            st.gnome_at[g] = loc
    push(st, ["repelled", seat, loc])


@task("repelled")
def repelled(st: FallState, seat: int, loc: int) -> None:
    ask(st, Phase.LAIR_CHOICE, seat, reason="repelled", loc=loc)


def return_to_lair(st: FallState, seat: int, loc: int, lair: int) -> None:
    """Every troll (and pawn) of ``seat`` at ``loc`` goes to its lair ``lair``."""
    st.trolls[lair][seat] += st.trolls[loc][seat]
    st.trolls[loc][seat] = 0
    for c in pawns_at(st, loc):
        if st.champ_owner[c] == seat:
            st.champ_loc[c] = lair


# -- Bolster ----------------------------------------------------------------------------------------------
@task("bolster")
def bolster(st: FallState, seat: int, power: int, strong: int = 0) -> None:
    """"Add up to p trolls from your supply to a single dominated cavern"."""
    ask(st, Phase.BOLSTER_DEST, seat, power=power)


def bolster_destinations(st: FallState) -> list[int]:
    seat = st.decider
    f = forces(st)
    return [x for x in range(st.game.side.size) if dominates(st, seat, x, f[x])]


def why_not_dominated(st: FallState, loc: int) -> str:
    """Why ``loc`` is refused where a dominated cavern is asked (Bolster's destination, a champion's pawn)."""
    side, seat = st.game.side, st.decider
    if loc >= side.n_caverns:
        return f"{side.names[loc]} is a lair of another player"
    rule = "you dominate a cavern where you and only you have trolls"
    if not force(st, loc)[seat]:
        return f"you have no trolls in {side.names[loc]}: {rule}"
    return f"other players have trolls in {side.names[loc]} too: {rule}"


def apply_bolster_dest(st: FallState, dest: int) -> None:
    """"Up to p trolls from your supply": how many, when there is a choice."""
    seat, power = st.decider, st.pending["power"]
    most = min(power, st.troll_supply[seat])
    if most > 1:
        ask(st, Phase.BOLSTER_COUNT, seat, dest=dest, power=power, most=most)
    else:
        _bolster(st, seat, dest, power, most)


def apply_bolster_count(st: FallState, arg: int) -> None:
    p = st.pending
    _bolster(st, st.decider, p["dest"], p["power"], arg + 1)


def _bolster(st: FallState, seat: int, dest: int, power: int, n: int) -> None:
    """``n`` trolls from the supply; with the supply then empty, "you may move trolls from anywhere on the
    map to the destination cavern, ignoring intermediate caverns" (one by one, up to the rest of p; a
    champion pawn is a troll, so pawns too)."""
    st.troll_supply[seat] -= n
    st.trolls[dest][seat] += n
    left = power - n
    if left and not st.troll_supply[seat] and (bolster_sources(st, seat, dest) or bolster_pawns(st, seat, dest)):
        ask(st, Phase.BOLSTER_FROM, seat, dest=dest, left=left)
    else:
        resume(st)


def bolster_sources(st: FallState, seat: int, dest: int) -> list[int]:
    """The locations a Bolster with an empty supply may take ``seat``'s regular trolls from."""
    return [x for x in range(st.game.side.size) if x != dest and st.trolls[x][seat] > 0]


def bolster_pawns(st: FallState, seat: int, dest: int) -> list[int]:
    """The champion cards whose pawns a Bolster with an empty supply may move to ``dest``."""
    return [c for c, x in enumerate(st.champ_loc) if x >= 0 and x != dest and st.champ_owner[c] == seat]


def apply_bolster_from(st: FallState, src: int) -> None:
    seat, p = st.decider, st.pending
    st.trolls[src][seat] -= 1
    st.trolls[p["dest"]][seat] += 1
    _bolster_moved(st, seat)


def apply_bolster_pawn(st: FallState, card: int) -> None:
    st.champ_loc[card] = st.pending["dest"]
    _bolster_moved(st, st.decider)


def _bolster_moved(st: FallState, seat: int) -> None:
    p = st.pending
    p["left"] -= 1
    if not p["left"] or not (bolster_sources(st, seat, p["dest"]) or bolster_pawns(st, seat, p["dest"])):
        resume(st)


# -- Influence --------------------------------------------------------------------------------------------
@task("influence")
def influence(st: FallState, seat: int, power: int, strong: int = 0) -> None:
    """"Add p influence to a single champion in the display"."""
    if influence_targets(st, seat):
        ask(st, Phase.INFLUENCE, seat, power=power)


def influence_targets(st: FallState, seat: int) -> list[int]:
    return [i for i, c in enumerate(st.display) if st.champ_state[c] == DISPLAY]


def why_not_influence(st: FallState, pos: int) -> str:
    """Why influence on display position ``pos`` is refused (the rule of :func:`influence_targets`)."""
    if pos >= len(st.display):
        return f"the display has {len(st.display)} positions"
    return (f"champion {st.game.pack.champions[st.display[pos]].name} is not on display any more: "
            "influence goes to a champion in the display")


def apply_influence(st: FallState, pos: int) -> None:
    """"If this is the champion's first influence from any player, gain 1 extra influence. If another
    player already has the same amount of influence, put your marker on top.\""""
    seat = st.decider
    card = st.display[pos]
    add_influence(st, seat, card, st.pending["power"])
    resume(st)


def add_influence(st: FallState, seat: int, card: int, amount: int) -> None:
    first = not any(st.influence[card])
    st.influence[card][seat] += amount + int(first)
    st.stamp += 1
    st.influence_stamp[card][seat] = st.stamp

