"""The Battle: turns clockwise from the start player until every supply is spent; each turn spends 1
supply and takes 1 or 2 weak actions or 1 strong action. A weak action covers one weak symbol (boost:
desperation tokens); a strong action covers one strong symbol or more than one connected symbols of the
same action (boost: supplies). Wilds serve as any action. Then the action runs at its power, and a
cavern whose control the active player seized during it gives a vote.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ancestry import champion_cells, connected_candidates, serves, symbol_of, use_symbol
from .board import controller, forces, uncontrolled_nonempty
from .flow import ask, gain_votes, push, resume, run, task
from .vocabulary import ACTIONS, SYMBOL_NAMES, Phase, Symbol

if TYPE_CHECKING:
    from .state import FallState

#: the task starting each action at power p
START = {Symbol.ADVANCE: "advance", Symbol.BOLSTER: "bolster", Symbol.INFLUENCE: "influence",
         Symbol.GNOME: "gnome_action"}


@task("battle_turn")
def battle_turn(st: FallState, seat: int) -> None:
    """The turn of ``seat`` or, if it has no supply left, of the next seat that has ("passing players who
    have none left"); when nobody has, the wave ends."""
    n = st.num_players
    for k in range(n):
        p = (seat + k) % n
        if st.supply[p] > 0:
            break
    else:
        st.turn_player = -1
        push(st, ["wave_end"])
        return
    st.turn_player = p
    st.turn += 1
    st.supply[p] -= 1  # "spend 1 supply (move your barrel 1 space left)"
    push(st, ["battle_turn", (p + 1) % n])
    ask(st, Phase.TURN, p, weak=0)


def _cells(st: FallState, seat: int) -> list[int]:
    g = st.game
    return [i for i in range(g.cells) if st.grid[seat][i] > 0 and not st.covered[seat][i]] + champion_cells(st, seat)


def weak_options(st: FallState) -> list[tuple[int, int]]:
    """(action, cell) of every weak action possible: an unnumbered symbol of that action or a wild."""
    seat = st.decider
    out = []
    for cell in _cells(st, seat):
        sym = symbol_of(st, seat, cell)
        if sym[1] == 1:
            out += [(int(a), cell) for a in ACTIONS if serves(sym, a)]
    return out


def strong_options(st: FallState) -> list[tuple[int, int]]:
    """(action, cell) of every symbol a strong action may start with: a numbered symbol, or one that has
    another symbol of the same action connected to it."""
    if st.pending.get("weak"):
        return []
    seat = st.decider
    out = []
    for cell in _cells(st, seat):
        sym = symbol_of(st, seat, cell)
        for a in ACTIONS:
            if not serves(sym, a):
                continue
            if sym[1] > 1 or _has_partner(st, seat, a, cell):
                out.append((int(a), cell))
    return out


def _has_partner(st: FallState, seat: int, action: Symbol, cell: int) -> bool:
    """Whether a second symbol could join ``cell`` in a strong action of ``action`` (cover, look, undo)."""
    saved_pending, saved = st.pending, st.covered[seat][:]
    saved_claws = st.claws_used[:]
    use_symbol(st, seat, cell)
    st.pending = {"cells": [cell]}
    found = bool(connected_candidates(st, seat, action))
    st.pending, st.covered[seat], st.claws_used = saved_pending, saved, saved_claws
    return found


def end_turn_legal(st: FallState) -> bool:
    """End the turn: after a weak action, or when no action is possible at all."""
    return bool(st.pending.get("weak")) or not (weak_options(st) or strong_options(st))


def apply_end_turn(st: FallState) -> None:
    resume(st)


def _symbol_fault(st: FallState, cell: int, action: int) -> str | None:
    """Why the symbol at ``cell`` cannot serve ``action`` (no usable symbol there, or another action's)."""
    sym = symbol_of(st, st.decider, cell)
    if sym is None and cell >= st.game.cells:
        name = st.game.pack.champions[cell - st.game.cells].name
        return f"you do not hold champion {name} with a symbol and a claw left to cover"
    if sym is None:
        return (f"{st.game.layout.cell_name(cell)} has no symbol you may use (no card, a blank, or a symbol "
                "already covered by an ancestry marker)")
    if not serves(sym, Symbol(action)):
        return (f"that symbol is {SYMBOL_NAMES[sym[0]]}, not {SYMBOL_NAMES[action]} "
                "(only wild symbols serve as any action symbol)")
    return None


def why_not_weak(st: FallState, arg: int) -> str:
    """Why weak action ``arg`` (action x cell) is refused (the rules of :func:`weak_options`)."""
    action, cell = divmod(arg, st.game.layout.symbol_cells)
    fault = _symbol_fault(st, cell, action)
    if fault:
        return fault
    power = symbol_of(st, st.decider, cell)[1]
    return f"a weak action covers one unnumbered symbol, and that one is numbered (power {power}): a strong action"


def why_not_strong(st: FallState, arg: int) -> str:
    """Why starting strong action ``arg`` (action x cell) is refused (the rules of :func:`strong_options`)."""
    if st.pending.get("weak"):
        return "a strong action cannot follow a weak action in the same turn (take a second weak one, or end it)"
    action, cell = divmod(arg, st.game.layout.symbol_cells)
    return _symbol_fault(st, cell, action) or (
        "an unnumbered symbol starts a strong action only with another symbol of the same action connected to it "
        "through orthogonally adjacent ancestry markers")


def why_not_end_turn(st: FallState, arg: int) -> str:
    """Why ending the turn is refused (the rule of :func:`end_turn_legal`)."""
    return "each turn takes 1 or 2 weak actions or 1 strong action: you must act while you can"


def apply_weak(st: FallState, action: int, cell: int) -> None:
    """A weak action: cover the symbol; the boost by desperation tokens; then the action. A second weak
    action may follow (not after a second)."""
    seat = st.decider
    weak = st.pending.get("weak", 0)
    power = use_symbol(st, seat, cell)
    if weak == 0 and not st.pending.get("bonus"):
        push(st, ["second_weak", seat])
    _boost_then_act(st, seat, action, power, strong=False)


@task("second_weak")
def second_weak(st: FallState, seat: int) -> None:
    """After a first weak action: another weak action, or end the turn."""
    ask(st, Phase.TURN, seat, weak=1)


def apply_strong(st: FallState, action: int, cell: int) -> None:
    """The first symbol of a strong action; more connected symbols follow (GATHER)."""
    seat = st.decider
    power = use_symbol(st, seat, cell)
    ask(st, Phase.GATHER, seat, action=action, cells=[cell], power=power,
        numbered=int(power > 1))


def gather_candidates(st: FallState) -> list[int]:
    return connected_candidates(st, st.decider, Symbol(st.pending["action"]))


def gather_done_legal(st: FallState) -> bool:
    """"Cover 1 strong symbol or more than 1 connected symbols"."""
    return bool(st.pending["numbered"]) or len(st.pending["cells"]) > 1


def why_not_add(st: FallState, cell: int) -> str:
    """Why adding ``cell`` to the strong action under way is refused (the rules of :func:`gather_candidates`)."""
    return _symbol_fault(st, cell, st.pending["action"]) or (
        "that symbol is not connected through orthogonally adjacent ancestry markers to the symbols already "
        "covered for this strong action")


def why_not_gather_done(st: FallState) -> str:
    """Why closing the strong action now is refused (the rule of :func:`gather_done_legal`)."""
    return "a strong action covers 1 strong (numbered) symbol or more than 1 connected symbols: add another"


def apply_add(st: FallState, cell: int) -> None:
    seat = st.decider
    power = use_symbol(st, seat, cell)
    st.pending["cells"].append(cell)
    st.pending["power"] += power
    st.pending["numbered"] |= int(power > 1)


def apply_gather_done(st: FallState) -> None:
    seat, action, power = st.decider, st.pending["action"], st.pending["power"]
    champion_cards = [c - st.game.cells for c in st.pending["cells"] if c >= st.game.cells]
    _boost_then_act(st, seat, action, power, strong=True, champions=champion_cards)


def _boost_then_act(st: FallState, seat: int, action: int, power: int, strong: bool,
                    champions: list[int] | None = None) -> None:
    most = min(st.supply[seat] if strong else st.desperation[seat], st.game.pack.rules.max_boost)
    if most > 0:
        ask(st, Phase.BOOST, seat, action=action, power=power, strong=int(strong))
    else:
        st.pending = {}
        start_action(st, seat, action, power, strong)


def boost_purse(st: FallState) -> tuple[int, str]:
    """What a boost spends and how many ``st.decider`` has: supplies (strong) or desperation tokens (weak)."""
    seat = st.decider
    return (st.supply[seat], "supplies") if st.pending["strong"] else (st.desperation[seat], "desperation tokens")


def boost_options(st: FallState) -> list[int]:
    return list(range(min(boost_purse(st)[0], st.game.pack.rules.max_boost) + 1))


def why_not_boost(st: FallState, amount: int) -> str:
    """Why a boost of ``amount`` is refused (the rules of :func:`boost_options`)."""
    have, what = boost_purse(st)
    most = st.game.pack.rules.max_boost
    if amount > most:
        return f"an action is boosted by at most {most}"
    return f"a boost of {amount} spends {amount} {what}, and you have {have}"


def apply_boost(st: FallState, amount: int) -> None:
    """"You may spend any number of desperation tokens (weak) / supplies (strong) to boost the action
    power by 1" each."""
    seat, p = st.decider, st.pending
    if p["strong"]:
        st.supply[seat] -= amount
    else:
        st.desperation[seat] -= amount
    action, power, strong = p["action"], p["power"] + amount, bool(p["strong"])
    st.pending = {}
    start_action(st, seat, action, power, strong)


def start_action(st: FallState, seat: int, action: int, power: int, strong: bool) -> None:
    """Run the action at ``power``; afterwards, the votes for seized control."""
    push(st, [START[Symbol(action)], seat, power, int(strong)],
         ["seize_check", seat, uncontrolled_nonempty(st, seat)])
    run(st)


@task("seize_check")
def seize_check(st: FallState, seat: int, before: list[int]) -> None:
    """"If a cavern starts an action not empty and not controlled by you but ends controlled by you: you
    have seized control. Gain 1 vote in the cavern's clan." """
    clan_of = st.game.side.clan_of
    f = forces(st)
    for c in before:
        if controller(st, c, f[c]) == seat:
            gain_votes(st, seat, clan_of[c])
