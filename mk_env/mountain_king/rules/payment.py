"""The payer chooses which tokens pay (game option ``payment="choose"``).

The rulebook (*Spending resources*): "All resources owned by you (in your storage or on your trolls) are
free to be spent by you"; "You could spend any four of those five stone". Which troll is emptied decides
what the next cascade regenerates, and which clan cart is kept decides which statue can still move, so
the choice is a real one. With ``payment="auto"`` (the default) the engine pays in its fixed order
(:mod:`mk_env.mountain_king.rules.economy`), the dominant-choice shortcut.

With ``payment="choose"`` a decision that pays (a trade, a workshop use, a cast's rune, a recruit's coins,
a Golden Mask bribe, a dig's minerals and hammers, a statue move's cart) is first checked against its
**bill** (:func:`bill`: the resources it will pay, each with the token kinds that may pay it). When more
than one distinct set of tokens can pay the bill, the decision is held (``pending.pay_action``) and the
phase ``pay`` asks for the tokens one at a time (block ``pay_token``: a trollsmoot slot or the storage,
and the token kind); when only one set can pay, nothing is asked. Once the last choice is made (the rest
of each resource's tokens being forced) the held decision is applied with exactly the chosen tokens:
:func:`mk_env.mountain_king.rules.economy.pay` spends them from the plan (:data:`economy.PLAN`).

Each resource's tokens are chosen in the order of their ``pay_token`` arguments (a token's argument is
never below the one chosen before it for that resource), so every set of tokens is reached by exactly one
sequence of choices, and a choice is offered only if the rest of the bill can still be paid after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .actions import N_SMOOT, STORAGE_SOURCE, describe_token
from .content import CART, CLAN_CART0, COIN, HAMMER, N_RESOURCES, N_TOKEN_KINDS, RESOURCES, RUNE, TOKEN_RESOURCE
from .digging import minerals_paying
from .recruiting import bribes_needed
from .statues import move_is_free
from .vocabulary import Phase

if TYPE_CHECKING:
    from .state import GameState

PAY, SPELL_STATUE = int(Phase.PAY), int(Phase.SPELL_STATUE)
#: one resource of a bill: (resource, how many, the troll token kinds that may pay it, ascending)
Item = tuple[int, int, tuple[int, ...]]
#: the token kinds that count as each resource (carts: the clan carts and the wild cart)
RESOURCE_KINDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(N_TOKEN_KINDS) if TOKEN_RESOURCE[k] == r) for r in range(N_RESOURCES))


# -- the bill ------------------------------------------------------------------------------------------
def bill(st: GameState, p: int, action: int, phase: int) -> list[Item]:
    """What decision ``action`` (legal in ``phase``, with ``st.pending`` as it was) will pay, one item per
    resource in the order its mechanic pays them; empty if it pays nothing."""
    block, arg = st.game.layout.decode(action)
    reader = _BILLS.get(block)
    if reader is None:
        return []
    return [item for item in reader(st, p, arg, phase) if item[1] > 0]


def _vector(counts, kinds_of_cart: tuple[int, ...]) -> list[Item]:
    return [(r, int(n), kinds_of_cart if r == CART else RESOURCE_KINDS[r]) for r, n in enumerate(counts) if n]


def _trade(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    give, _gain = st.game.layout.trade_args(arg)
    return _vector(give.tolist(), RESOURCE_KINDS[CART])


def _workshop_use(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    conv = st.game.layout.conversions[arg]
    if conv.move is not None:  # the Quartermaster moves a token: nothing is paid
        return []
    wild_only = st.game.pack.workshops[conv.workshop].wild_carts_only
    return _vector(conv.give, (CART,) if wild_only else RESOURCE_KINDS[CART])


def _cast(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    return [(RUNE, 1, RESOURCE_KINDS[RUNE])]


def _recruit(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    if st.bribe_any:  # Golden Mask: each bribe is its own decision (and payment)
        return []
    h, _t = st.game.layout.recruit_args(arg)
    return [(COIN, len(bribes_needed(st, h)), RESOURCE_KINDS[COIN])]


def _bribe(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    return [(arg, 1, RESOURCE_KINDS[arg])]


def _tunnel(st: GameState, placement: int, mineral: int) -> list[Item]:
    table = st.game.geo.tunnel_placements
    out = [(mineral, int(table.size[placement]), RESOURCE_KINDS[mineral])]
    if not st.ignore_rubble:
        out.append((HAMMER, int(table.rubble[placement]), RESOURCE_KINDS[HAMMER]))
    return out


def _dig(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    minerals = minerals_paying(st, p, arg)
    if len(minerals) != 1:  # the mineral is asked first (dig_mineral), and paid then
        return []
    return _tunnel(st, arg, int(minerals[0]))


def _mineral(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    return _tunnel(st, st.pending.dig, arg)


def _move_statue(st: GameState, p: int, arg: int, phase: int) -> list[Item]:
    if st.pending.statue_from_phase == SPELL_STATUE or move_is_free(st):  # a spell's free move (this turn)
        return []
    clan = int(st.statue[st.pending.statue_square])
    return [(CART, 1, (CART, CLAN_CART0 + clan))]


#: the bill of each block that pays (the blocks' names, as ``layout.decode`` gives them)
_BILLS = {"trade": _trade, "workshop_use": _workshop_use, "cast": _cast, "recruit": _recruit, "bribe": _bribe,
          "dig": _dig, "mineral": _mineral, "move_statue": _move_statue}


# -- the choices -----------------------------------------------------------------------------------------
def _held(st: GameState, p: int, item: Item) -> list[tuple[int, int]]:
    """``(pay_token argument, tokens there)`` of every place holding a token that may pay ``item``,
    in argument order."""
    resource, _n, kinds = item
    tokens = st.tokens[p]
    out = [(slot * N_TOKEN_KINDS + k, int(tokens[slot, k])) for slot in range(N_SMOOT) for k in kinds
           if tokens[slot, k] > 0]
    stored = int(st.storage[st.game.storage_of[p], resource])
    if stored > 0:
        out.append((STORAGE_SOURCE * N_TOKEN_KINDS + resource, stored))
    return out


def _left(st: GameState, p: int, item: Item, chosen: list[int]) -> tuple[list[tuple[int, int]], int]:
    """The places still open to ``item`` after ``chosen`` (none below the last chosen), with what each has
    left, and how many tokens are still owed."""
    last = chosen[-1] if chosen else -1
    places = [(a, have - chosen.count(a)) for a, have in _held(st, p, item) if a >= last]
    return [(a, have) for a, have in places if have > 0], item[1] - len(chosen)


def _choices(places: list[tuple[int, int]], owed: int) -> list[int]:
    """The next token's legal places, or none when the rest is forced (one set left)."""
    if owed <= 0 or len(places) <= 1 or sum(h for _, h in places) == owed:
        return []
    out, after = [], sum(h for _, h in places)  # after: the tokens at this place and the ones above it
    for a, have in places:
        if after >= owed:
            out.append(a)
        after -= have
    return out


def _forced(places: list[tuple[int, int]], owed: int) -> list[int]:
    """The rest of an item once no choice is left: every token left, or ``owed`` from the one place."""
    if owed <= 0:
        return []
    if len(places) == 1:
        return [places[0][0]] * owed
    return [a for a, have in places for _ in range(have)]


def _by_resource(chosen: tuple[int, ...]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for a in chosen:
        source, kind = divmod(a, N_TOKEN_KINDS)
        out.setdefault(kind if source == STORAGE_SOURCE else TOKEN_RESOURCE[kind], []).append(a)
    return out


def _open_choices(st: GameState, p: int, items: list[Item], chosen: tuple[int, ...]) -> list[int]:
    """The legal next tokens: those of the first item that still has a choice (empty: all forced)."""
    by_resource = _by_resource(chosen)
    for item in items:
        choices = _choices(*_left(st, p, item, by_resource.get(item[0], [])))
        if choices:
            return choices
    return []


def open_item(st: GameState, p: int) -> tuple[int, list[tuple[int, int]], int] | None:
    """Phase ``pay``: the resource now being chosen, its places still open (``(pay_token argument, tokens
    left there)``, none below the last token chosen for it) and how many of its tokens are still owed;
    None when nothing is left to choose. For agents that plan the whole set: any place of a set they
    want that is the smallest of it is a legal next choice."""
    pend = st.pending
    by_resource = _by_resource(pend.paid)
    for item in bill(st, p, pend.pay_action, pend.pay_phase):
        places, owed = _left(st, p, item, by_resource.get(item[0], []))
        if _choices(places, owed):
            return item[0], places, owed
    return None


def legal_pay_tokens(st: GameState, p: int) -> list[int]:
    """``PAY``'s choices: the places the next token may come from (``pay_token`` arguments)."""
    pend = st.pending
    return _open_choices(st, p, bill(st, p, pend.pay_action, pend.pay_phase), pend.paid)


def pay_choices(st: GameState, p: int, action: int) -> list[int]:
    """The first ``pay_token`` choices decision ``action`` (legal now) would ask for (empty: its payment,
    if any, is forced)."""
    return _open_choices(st, p, bill(st, p, action, st.phase), ())


# -- application -----------------------------------------------------------------------------------------
def hold_for_payment(st: GameState, action: int) -> bool:
    """Before applying ``action`` (legal) in a ``payment="choose"`` game: if more than one set of tokens
    can pay it, hold it and ask for the tokens (phase ``pay``); True when held."""
    p = st.current
    if not pay_choices(st, p, action):
        return False
    counts = [0] * N_RESOURCES
    for resource, n, _kinds in bill(st, p, action, st.phase):
        counts[resource] = n
    st.pending = st.pending._replace(pay_action=action, pay_phase=st.phase, paid=(), pay_bill=tuple(counts))
    st.phase = PAY
    return True


def choose_token(st: GameState, p: int, arg: int) -> int | None:
    """``PAY``: record the token ``arg``. When no choice is left, restore the held decision's phase and
    pending, put the plan of its tokens in place and return its action number (the caller applies it);
    else None (the next token is asked)."""
    pend = st.pending
    chosen = pend.paid + (arg,)
    items = bill(st, p, pend.pay_action, pend.pay_phase)
    if _open_choices(st, p, items, chosen):
        st.pending = pend._replace(paid=chosen)
        return None
    by_resource = _by_resource(chosen)
    plan = {}
    for item in items:
        mine = by_resource.get(item[0], [])
        plan[item[0]] = mine + _forced(*_left(st, p, item, mine))
    st.phase, action = pend.pay_phase, pend.pay_action
    st.pending = pend._replace(pay_action=None, pay_phase=None, paid=None, pay_bill=None)
    st._cache[eco.PLAN] = plan
    return action


def payment_owed(st: GameState) -> np.ndarray:
    """Phase ``pay``: the count of each resource still to pay (owed by the held decision, not yet chosen)."""
    pend = st.pending
    owed = np.array(pend.pay_bill, np.float32)
    for a in pend.paid:
        source, kind = divmod(a, N_TOKEN_KINDS)
        owed[kind if source == STORAGE_SOURCE else TOKEN_RESOURCE[kind]] -= 1
    return owed


def payment_fault(st: GameState) -> str | None:
    """What is wrong with the payment under way (phase ``pay``), in words, or None: the held decision
    must pay something, and each token chosen must be owned, follow the order of choices and be owed."""
    pend = st.pending
    if st.phase != PAY:
        if (pend.pay_action, pend.pay_phase, pend.paid, pend.pay_bill) != (None,) * 4:
            return f"a payment is recorded in phase {st.phase}, not in phase pay"
        return "a payer's plan is left unspent" if eco.PLAN in st._cache else None
    if not st.game.choose_payment:
        return "phase pay in a game with payment=\"auto\""
    p = st.current
    items = {item[0]: item for item in bill(st, p, pend.pay_action, pend.pay_phase)}
    if not items:
        return f"the decision held for payment (action {pend.pay_action}) pays nothing"
    counts = tuple(items[r][1] if r in items else 0 for r in range(N_RESOURCES))
    if pend.pay_bill != counts:
        return f"the recorded bill {pend.pay_bill} is not what the held decision pays, {counts}"
    for resource, chosen in _by_resource(pend.paid).items():
        item = items.get(resource)
        if item is None or len(chosen) > item[1]:
            return f"tokens chosen {list(pend.paid)}: more of resource {resource} than the bill {list(items.values())}"
        held = dict(_held(st, p, item))
        if chosen != sorted(chosen) or any(chosen.count(a) > held.get(a, 0) for a in chosen):
            return f"tokens chosen {list(pend.paid)}: out of order, or not held (held: {held})"
    return None


def why_not_pay_token(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why paying with token ``arg`` is illegal now (phase ``pay``)."""
    item = open_item(st, p)
    if item is None:
        return "nothing is left to choose"
    resource, places, owed = item
    where = "; ".join(f"{describe_token(a)[2:]} ({left} there)" for a, left in places)
    return (f"it is not a token that can pay the {owed} {RESOURCES[resource]} still owed, in the order of "
            f"choices (each next token lies at the same place as the last chosen or after it); the places "
            f"open: {where}")


def settle(st: GameState) -> None:
    """After the held decision is applied: its plan must be spent to the last token (an engine check)."""
    plan = st._cache.pop(eco.PLAN, None)
    if plan:
        raise AssertionError(f"payment plan not spent: {plan} (the bill and the mechanic disagree; engine bug)")
