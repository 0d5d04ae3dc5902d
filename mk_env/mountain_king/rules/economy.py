"""Resources: what a player owns, how a payment is taken, gains from the supply, troll activation.

Ownership (rulebook, *Spending resources*): everything in your storage and everything your trolls hold.

**Default payment order** (the rulebook advises spending what trolls hold first, "this frees up the
trolls to generate their resources again"): tokens are taken from trolls before storage, trolls in
slot order from the bottom row up (the bottom row is activated by the most cascades, so freeing it
regenerates the most), and among carts, clan carts before wild ones (a statue move of clan X takes an
X cart first; wild carts are the more flexible). Storage carts are always wild. This is the game option
``payment="auto"``, the dominant-choice shortcut; with ``payment="choose"`` the payer picks the tokens
(:mod:`mk_env.mountain_king.rules.payment`) and :func:`pay` spends the plan of their choice.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .actions import N_SMOOT, SMOOT_CONE, STORAGE_SOURCE
from .content import CART, CLAN_CART0, N_RESOURCES, N_TOKEN_KINDS, TOKEN_RESOURCE

if TYPE_CHECKING:
    from .state import GameState

#: token kinds to take, in order, when paying a resource (carts: clan carts first, then wild)
_PAY_KINDS = [[r] for r in range(N_RESOURCES)]
_PAY_KINDS[CART] = [CLAN_CART0, CLAN_CART0 + 1, CLAN_CART0 + 2, CART]
#: the key (in ``state._cache``) of the payer's plan while the decision it pays for is applied
#: (payment="choose"): resource -> the ``pay_token`` arguments of the tokens that pay it
PLAN = "payment_plan"


#: a troll's tokens (slot * token kinds + kind) -> the resource they count as (clan carts are carts)
_TOKEN_RESOURCE = np.zeros((N_SMOOT * N_TOKEN_KINDS, N_RESOURCES), np.int32)
for _slot in range(N_SMOOT):
    for _kind in range(N_TOKEN_KINDS):
        _TOKEN_RESOURCE[_slot * N_TOKEN_KINDS + _kind, TOKEN_RESOURCE[_kind]] = 1


def owned(state: GameState, p: int) -> np.ndarray:
    """Resource counts (length 7, int32, a fresh array) player ``p`` may spend: their storage plus
    their trolls' tokens."""
    return state.tokens[p].reshape(-1) @ _TOKEN_RESOURCE + state.storage[state.game.storage_of[p]]


def wild_carts(state: GameState, p: int) -> int:
    """Wild carts ``p`` owns (storage carts and wild carts on trolls)."""
    return int(state.storage[state.game.storage_of[p], CART] + state.tokens[p, :, CART].sum())


def carts_for_clan(state: GameState, p: int, clan: int) -> int:
    """Carts ``p`` may spend to move a statue of ``clan``: that clan's carts and wild ones."""
    return wild_carts(state, p) + int(state.tokens[p, :, CLAN_CART0 + clan].sum())


def pay(state: GameState, p: int, resource: int, n: int, *, kinds: list[int] | None = None,
        to_supply: bool = True) -> None:
    """Spend ``n`` of ``resource`` in the default payment order. Caller checked affordability.

    ``kinds`` overrides which troll token kinds may pay (e.g. a clan's carts then wild carts).
    Spent tokens return to the supply unless ``to_supply`` is False (a bribe or a rune on a spell).
    """
    if n <= 0:
        return
    if to_supply:
        state.supply[resource] += n
    if state.game.choose_payment and PLAN in state._cache:
        _pay_planned(state, p, resource, n)
        return
    tokens = state.tokens[p]
    for kind in kinds if kinds is not None else _PAY_KINDS[resource]:
        column = tokens[:, kind]
        held = column.tolist()  # one read; writes only where taken
        if not any(held):  # no troll holds this kind (often): nothing to walk
            continue
        for slot, have in enumerate(held):
            if have:
                take = min(have, n)
                column[slot] = have - take
                n -= take
                if n == 0:
                    return
    s = state.game.storage_of[p]
    if state.storage[s, resource] < n:
        raise AssertionError(f"payment of {resource} exceeds what player {p} owns")
    state.storage[s, resource] -= n


def _pay_planned(state: GameState, p: int, resource: int, n: int) -> None:
    """Spend the next ``n`` of the tokens of ``resource`` the payer chose (the plan's, see :data:`PLAN`; a
    recruit pays its coins one bribe at a time)."""
    plan = state._cache[PLAN]
    chosen = plan.get(resource, [])
    if len(chosen) < n:
        raise AssertionError(f"the payment plan holds {len(chosen)} tokens of resource {resource}, the mechanic "
                             f"pays {n} (the bill and the mechanic disagree; engine bug)")
    plan[resource] = chosen[n:]
    if not plan[resource]:
        del plan[resource]
    for a in chosen[:n]:
        source, kind = divmod(a, N_TOKEN_KINDS)
        if source == STORAGE_SOURCE:
            state.storage[state.game.storage_of[p], kind] -= 1
        else:
            state.tokens[p, source, kind] -= 1


def pay_vector(state: GameState, p: int, counts, *, wild_carts_only: bool = False) -> None:
    """Spend a count vector of resources (trades, workshops)."""
    for r, n in enumerate(counts.tolist() if isinstance(counts, np.ndarray) else counts):
        if n:
            kinds = [CART] if (r == CART and wild_carts_only) else None
            pay(state, p, r, int(n), kinds=kinds)


def gain(state: GameState, p: int, resource: int, n: int) -> int:
    """Take up to ``n`` of ``resource`` from the supply into p's storage; returns how many came.

    Resources are limited to the component counts: when the supply runs dry you gain what is left.
    """
    n = min(n, int(state.supply[resource]))
    if n > 0:
        state.supply[resource] -= n
        state.storage[state.game.storage_of[p], resource] += n
    return max(n, 0)


def gain_vector(state: GameState, p: int, counts) -> None:
    """Take a count vector of resources from the supply (each up to what is left), into p's storage."""
    for r in range(N_RESOURCES):
        if counts[r]:
            gain(state, p, r, int(counts[r]))


def activate(state: GameState, p: int, slot: int) -> None:
    """Activate one troll: it gains each resource shown on its card that it is not already holding
    (a symbol that already holds a token gains nothing). Clan cart symbols gain clan carts."""
    activate_slots(state, p, (slot,))


def cascade(state: GameState, p: int, slot: int) -> None:
    """Activate the troll in ``slot`` and every troll beneath it, down the pyramid."""
    activate_slots(state, p, SMOOT_CONE[slot])


def activate_slots(state: GameState, p: int, slots) -> None:
    """Activate the trolls of ``slots`` in that order (see :func:`activate`); each takes from what
    the supply has left after the ones before it. Read once as lists, written back where changed."""
    cards = state.smoot[p].tolist()
    symbol_rows = state.game.card_symbol_rows
    tokens = state.tokens[p]
    rows = tokens.tolist()
    supply = state.supply.tolist()
    changed = []
    for s in slots:
        card = cards[s]
        if card < 0:
            continue
        held = rows[s]
        for kind, shown in enumerate(symbol_rows[card]):
            missing = shown - held[kind]
            if missing > 0:
                res = TOKEN_RESOURCE[kind]
                got = min(missing, supply[res])
                if got > 0:
                    supply[res] -= got
                    held[kind] += got
                    changed.append(s)
    if changed:
        state.supply[:] = supply
        for s in set(changed):
            tokens[s] = rows[s]


def as_resources(held: np.ndarray) -> np.ndarray:
    """Token counts by kind (the last axis) as resource counts: clan carts count as carts."""
    out = held[..., :N_RESOURCES].astype(np.int64)
    out[..., CART] += held[..., CLAN_CART0:].sum(axis=-1)
    return out


def return_troll_tokens(state: GameState, p: int, slot: int) -> None:
    """Every token p's troll in ``slot`` holds back to the supply (clan carts as carts)."""
    held = state.tokens[p, slot]
    state.supply += as_resources(held).astype(state.supply.dtype)
    held[:] = 0


def best_leftover_sets(counts, set_size: int = 3, rate: int = 4) -> int:
    """Most sets of ``set_size`` identical resources after any number of ``rate``:1 trades.

    Exact: breaking a complete set never helps (it frees ``set_size`` tokens, fewer than the ``rate``
    that a new token costs, and loses a set), so only the remainders are traded. Choose which kinds to
    complete (each needs ``set_size - r`` bought tokens and absorbs its ``r`` remainder), then buy whole
    new sets with what spare tokens remain. The complete sets are counted here; what the remainders add
    depends on them alone (in any order) and is memoised (:func:`_remainder_sets`).
    """
    counts = counts.tolist() if isinstance(counts, np.ndarray) else [int(c) for c in counts]
    base = sum(c // set_size for c in counts)
    rems = tuple(sorted(c % set_size for c in counts if c % set_size))
    return base + _remainder_sets(rems, set_size, rate)


@lru_cache(maxsize=4096)
def _remainder_sets(rems: tuple[int, ...], set_size: int, rate: int) -> int:
    """The sets the remainders ``rems`` (each below ``set_size``) can still make by ``rate``:1 trades."""
    waste = sum(rems)
    best = 0
    for mask in range(1 << len(rems)):
        chosen = [rems[i] for i in range(len(rems)) if mask >> i & 1]
        deficit = sum(set_size - r for r in chosen)
        spare = waste - sum(chosen)
        if spare < rate * deficit:
            continue
        extra = (spare - rate * deficit) // (rate * set_size)
        best = max(best, len(chosen) + extra)
    return best
