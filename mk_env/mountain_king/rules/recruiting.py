"""Recruiting (rulebook, *Step 2: Recruit*): a horde troll into a free trollsmoot slot that rests on two
trolls, one bribe to each troll still beneath it in the horde (coins; with Golden Mask any resources, one
decision per bribe), its bribes and pedestal taken along (a Level-3 troll: a pedestal chosen from the
bag, or none), the horde refilled, trolls holding enough bribes retired, and the cascade. Legal moves,
application and explanation side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .actions import HORDE_BENEATH, N_HORDE, RECRUIT_SLOTS, SMOOT_SUPPORT
from .chance import refill
from .content import COIN
from .the_end import crown
from .vocabulary import NO_PENDING, Pending, Phase

if TYPE_CHECKING:
    from .state import GameState

BRIBE, RECRUIT_PEDESTAL, STEP3 = int(Phase.BRIBE), int(Phase.RECRUIT_PEDESTAL), int(Phase.STEP3)
_RECRUIT_COLUMN = {t: i for i, t in enumerate(RECRUIT_SLOTS)}
#: [h, b] = 1 where horde slot b lies beneath slot h (a troll there is owed a bribe)
_BENEATH = np.array([[b in HORDE_BENEATH[h] for b in range(N_HORDE)] for h in range(N_HORDE)], np.int16)


# -- legal moves -------------------------------------------------------------------------------------
def bribes_needed(st: GameState, h: int, horde: list[int] | None = None) -> list[int]:
    """The horde slots beneath slot ``h`` that still hold a troll (each is owed a bribe);
    ``horde``: ``st.horde.tolist()`` when the caller already read it."""
    horde = st.horde.tolist() if horde is None else horde
    return [b for b in HORDE_BENEATH[h] if horde[b] >= 0]


def open_smoot_slots(st: GameState, p: int, smoot: list[int] | None = None) -> list[int]:
    """The trollsmoot slots p may recruit into: empty, with both supporting slots filled;
    ``smoot``: ``st.smoot[p].tolist()`` when the caller already read it."""
    smoot = st.smoot[p].tolist() if smoot is None else smoot
    return [t for t in RECRUIT_SLOTS if smoot[t] < 0 and all(smoot[b] >= 0 for b in SMOOT_SUPPORT[t])]


def bribe_purse(st: GameState, have: np.ndarray) -> int:
    """How many bribes the player can pay: their coins, or with Golden Mask every resource they own
    (the one count both the legal recruits and the illegal-recruit explanation use)."""
    return int(have.sum()) if st.bribe_any else int(have[COIN])


def legal_recruits(st: GameState, p: int, have: np.ndarray | None = None) -> list[int]:
    """Recruit arguments (horde slot x trollsmoot column) p may choose now."""
    smoot = st.smoot[p].tolist()
    if sum(c >= 0 for c in smoot) >= st.game.max_trolls:
        return []
    slots = open_smoot_slots(st, p, smoot)
    if not slots:
        return []
    purse = bribe_purse(st, eco.owned(st, p) if have is None else have)
    n_slots = len(RECRUIT_SLOTS)
    columns = [_RECRUIT_COLUMN[t] for t in slots]
    occupied = st.horde >= 0
    affordable = occupied & (_BENEATH @ occupied <= purse)  # one bribe per troll still beneath
    return [h * n_slots + c for h in affordable.nonzero()[0].tolist() for c in columns]


def bribe_resources(st: GameState, p: int) -> np.ndarray:
    """``BRIBE``'s choices: any resource p owns (Golden Mask)."""
    return (eco.owned(st, p) > 0).nonzero()[0]


def bag_clans(st: GameState, _p: int) -> np.ndarray:
    """Clans with a pedestal in the bag (the Level-3 recruit's choice, and a spell's)."""
    return (st.bag > 0).nonzero()[0]


# -- application ---------------------------------------------------------------------------------------
def apply_recruit(st: GameState, p: int, arg: int) -> None:
    """Recruit: pay a coin to each troll beneath (with Golden Mask, ask for each bribe's resource)."""
    h, t = st.game.layout.recruit_args(arg)
    targets = bribes_needed(st, h)
    st.pending = Pending(horde_slot=h, smoot_slot=t, bribes_owed=tuple(targets))
    if st.bribe_any and targets:
        st.phase = BRIBE
        return
    for b in targets:
        eco.pay(st, p, COIN, 1, to_supply=False)
        st.horde_bribes[b, COIN] += 1
    _take_troll(st, p)


def apply_bribe(st: GameState, p: int, res: int) -> None:
    """Pay the next bribe with resource ``res``; the last one takes the troll."""
    targets = st.pending.bribes_owed
    eco.pay(st, p, res, 1, to_supply=False)
    st.horde_bribes[targets[0], res] += 1
    st.pending = st.pending._replace(bribes_owed=targets[1:])
    if len(targets) == 1:
        _take_troll(st, p)


def _take_troll(st: GameState, p: int) -> None:
    """Step two of recruiting: take the troll and its bribes, then the pedestal by the card's printed level,
    whatever horde row it sits in (rulebook, *Recruit a troll*): "If it was a Level-2 troll it will have a
    pedestal on it ... Collect it"; "If it was a Level-3 troll you may look through the draw bag and take a
    remaining pedestal of your choice (if there are any)": a clan in the bag, or pass to take none."""
    h = st.pending.horde_slot
    s = st.game.storage_of[p]
    card = int(st.horde[h])
    st.pending = st.pending._replace(recruit_card=card)
    st.horde[h] = -1
    st.storage[s] += st.horde_bribes[h]
    st.horde_bribes[h] = 0
    level = int(st.game.card_level[card])
    _lift_horde_pedestal(st, h, s, level)
    if level == 3 and st.bag.sum() > 0:  # "you may ... take a remaining pedestal": a choice, even of one clan
        st.phase = RECRUIT_PEDESTAL
        return
    _finish_recruit(st, p)


def _lift_horde_pedestal(st: GameState, h: int, s: int, level: int) -> None:
    """The pedestal on horde slot ``h`` as its troll of ``level`` leaves: a Level-2 troll's goes into storage
    ``s``; under any other troll it goes back to the bag, before a Level-3 troll's choice. The refill deals
    the Level-2 row's slots a pedestal whatever troll it draws, but the book gives one only to "a fresh
    Level-2 troll" (*Step two*), so a troll of another level that moved into the row when a deck ran out
    holds one the book leaves in the bag."""
    clan = int(st.horde_pedestal[h])
    if clan < 0:
        return
    if level == 2:
        st.storage_pedestals[s, clan] += 1
    else:
        st.bag[clan] += 1
    st.horde_pedestal[h] = -1


def choose_pedestal(st: GameState, p: int, clan: int) -> None:
    """``RECRUIT_PEDESTAL``: the Level-3 troll's pedestal, from the bag to storage."""
    st.bag[clan] -= 1
    st.storage_pedestals[st.game.storage_of[p], clan] += 1
    _finish_recruit(st, p)


def decline_pedestal(st: GameState, p: int) -> None:
    """Pass in ``RECRUIT_PEDESTAL``: take no pedestal (the rulebook's "you may"); the bag keeps them."""
    _finish_recruit(st, p)


def _finish_recruit(st: GameState, p: int) -> None:
    """Refill the horde, retire trolls holding 4 bribes, then add the troll to the trollsmoot and
    trigger the cascade; a 10th troll takes a coronation token."""
    h, t, card = st.pending.horde_slot, st.pending.smoot_slot, st.pending.recruit_card
    refill(st, h)
    full = st.horde_bribes.sum(axis=1) >= st.game.retire_bribes  # refills bring no bribes
    for r in full.nonzero()[0].tolist():  # retiring trolls
        if st.horde[r] >= 0:
            st.decks[st.game.card_level[st.horde[r]] - 1].append(int(st.horde[r]))
            st.supply += st.horde_bribes[r]
            st.horde_bribes[r] = 0
            st.horde[r] = -1
            refill(st, r)
    st.smoot[p, t] = card
    eco.cascade(st, p, t)
    crown(st, p)
    st.pending = NO_PENDING
    st.phase = STEP3


# -- explanation ---------------------------------------------------------------------------------------
def why_not_recruit(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why recruit ``arg`` is illegal now."""
    game = st.game
    h, t = game.layout.recruit_args(arg)
    if int((st.smoot[p] >= 0).sum()) >= game.max_trolls:
        return f"your trollsmoot already has {game.max_trolls} trolls: you must dig"
    if t not in open_smoot_slots(st, p):
        return f"trollsmoot slot {t} is not free or does not rest on two trolls"
    if st.horde[h] < 0:
        return f"horde slot {h} is empty"
    need, purse = len(bribes_needed(st, h)), bribe_purse(st, have)
    if st.bribe_any:
        return f"it needs {need} bribes and you own {purse} resources (Golden Mask: bribes in any resources)"
    return f"it needs {need} bribes and you own {purse} coins"
