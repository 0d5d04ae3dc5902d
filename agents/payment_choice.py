"""Which tokens pay (game option ``payment="choose"``, phase ``pay``): a rule of thumb for the agents'
quick policies.

The rulebook's advice (*Spending resources*): spend what trolls hold first, "this frees up the trolls to
generate their resources again". So the set this picks prefers, in order:

1. tokens on the trolls the decision's own cascade activates next (a recruit's new troll, a Golden Mask
   bribe's: its cascade refills them at once);
2. tokens on other trolls, bottom row first (every cascade runs down to the bottom row);
3. storage last.

Among carts it keeps the clan carts that can still move one of the payer's statues: it spends first the
clan carts of clans with no statue the payer could move, then wild carts, then the other clan carts (a
statue move of clan X offers only X carts and wild ones; there the X cart goes first, keeping the wild).

The engine asks for the tokens of one resource in the order of their ``pay_token`` arguments, so the
whole wanted set is planned and its smallest place answered (:func:`mk_env.mountain_king.rules.payment.open_item`).
"""

from __future__ import annotations

from mk_env.mountain_king.rules.actions import SMOOT_CONE, SMOOT_ROW, STORAGE_SOURCE
from mk_env.mountain_king.rules.content import CART, CLAN_CART0, N_TOKEN_KINDS
from mk_env.mountain_king.rules.payment import legal_pay_tokens, open_item
from mk_env.mountain_king.rules.state import GameState
from mk_env.mountain_king.rules.statues import movable_statues

__all__ = ["choose_token", "fixed_order_token", "wanted_tokens"]

#: the engine's fixed order among the token kinds of carts (``payment="auto"``): clan carts, then wild
_FIXED_CART_ORDER = (CLAN_CART0, CLAN_CART0 + 1, CLAN_CART0 + 2, CART)


def _place_rank(st: GameState, p: int, arg: int, cascade: frozenset[int], moving: set[int]) -> tuple:
    """Sort key of a place (smaller: spend first)."""
    source, kind = divmod(arg, N_TOKEN_KINDS)
    if kind >= CLAN_CART0:  # a clan cart: spend it first only if no statue of its clan could move
        cart = 0 if (kind - CLAN_CART0) not in moving else 2
    else:
        cart = 1 if kind == CART else 0
    if source == STORAGE_SOURCE:
        return (cart, 2, 0, arg)
    return (cart, 0 if source in cascade else 1, SMOOT_ROW[source], arg)


def _fixed_rank(arg: int) -> tuple:
    """Sort key of a place in the engine's fixed order (:func:`mk_env.mountain_king.rules.economy.pay`):
    troll tokens kind by kind (clan carts before wild ones), each kind bottom slot first, storage last."""
    source, kind = divmod(arg, N_TOKEN_KINDS)
    return (source == STORAGE_SOURCE, _FIXED_CART_ORDER.index(kind) if kind in _FIXED_CART_ORDER else 0, source)


def _fill(places: list[tuple[int, int]], owed: int, key) -> list[int]:
    """The first ``owed`` tokens of ``places`` taken in the order of ``key``."""
    out: list[int] = []
    for arg, left in sorted(places, key=lambda x: key(x[0])):
        out += [arg] * min(left, owed - len(out))
        if len(out) == owed:
            break
    return out


def fixed_order_token(st: GameState, p: int) -> int:
    """Phase ``pay``: the next token of the set the engine's fixed order (``payment="auto"``) would spend,
    so a seat answering with it plays as if it had no choice (a baseline for what the choice is worth)."""
    item = open_item(st, p)
    if item is None:
        return int(legal_pay_tokens(st, p)[0])
    _resource, places, owed = item
    return min(_fill(places, owed, _fixed_rank))


def wanted_tokens(st: GameState, p: int) -> list[int]:
    """The set of tokens (``pay_token`` arguments, with repeats) ``p`` would spend on the resource now
    being chosen, by the rule of thumb of the module docstring; empty when nothing is asked."""
    item = open_item(st, p)
    if item is None:
        return []
    _resource, places, owed = item
    layout, pend = st.game.layout, st.pending
    held_for, arg = layout.decode(pend.pay_action)
    # the slot the recruited troll goes to: in the recruit held for payment, or in the recruit under way
    target = layout.recruit_args(arg)[1] if held_for == "recruit" else pend.smoot_slot if held_for == "bribe" else None
    cascade = frozenset(SMOOT_CONE[target]) if target is not None else frozenset()
    moving = {int(st.statue[sq]) for sq in movable_statues(st, p, True)}
    return _fill(places, owed, lambda arg: _place_rank(st, p, arg, cascade, moving))


def choose_token(st: GameState, p: int) -> int:
    """Phase ``pay``: the next token (a ``pay_token`` argument): the smallest place of the wanted set."""
    want = wanted_tokens(st, p)
    legal = legal_pay_tokens(st, p)
    pick = min(want) if want else legal[0]
    if pick not in legal:  # the wanted set is planned from the open places: an engine change broke that
        raise RuntimeError(f"payment choice {pick} is not among the legal tokens {legal}")
    return pick
