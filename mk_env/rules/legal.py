"""The legal decisions of each phase, as sorted action numbers of the flat action space."""

from __future__ import annotations

import numpy as np

from . import economy as eco
from .actions import HORDE_BENEATH, HORDE_ROW, N_HORDE, N_SMOOT, RECRUIT_SLOTS, SMOOT_SUPPORT, TROLLSMOOT_ROWS
from .board import legal_digs, legal_halls, movable_statues, statue_destinations, workshop_touch
from .content import CART, COIN, N_CLANS, N_RESOURCES, RUNE
from .state import GameState
from .vocabulary import EMPTY, PASS_PHASES, TRADE_PHASES, Block, Phase

# the phases compared on every step, bound once (a global is cheaper than ``Phase.STEP1``)
(GATE, DRAFT, STEP1, WORKSHOP, SPELL_OPTION, SPELL_SMOOT, SPELL_HORDE, SPELL_PEDESTAL, SPELL_DIG, SPELL_STATUE,
 STEP2, BRIBE, RECRUIT_PEDESTAL, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, STEP3, STEP4, STATUE_DEST,
 GAME_OVER) = Phase
# the blocks whose offsets step 1-4 read on every step, bound once
RECRUIT, DIG, HALL, SELECT_STATUE, WORKSHOP_USE, CAST, ACTIVATE_WORKSHOP = (
    Block.RECRUIT, Block.DIG, Block.HALL, Block.SELECT_STATUE, Block.WORKSHOP_USE, Block.CAST,
    Block.ACTIVATE_WORKSHOP)


def legal_actions(st: GameState) -> np.ndarray:
    hit = st._cache.get("legal")
    if hit is not None:
        return hit
    out = _legal(st)
    st._cache["legal"] = out
    return out


def _block(st: GameState, name: Block, args) -> np.ndarray:
    return np.asarray(args, dtype=np.int64) + st.game.layout.offset[name]


def _legal(st: GameState, have: np.ndarray | None = None) -> np.ndarray:
    """The legal actions, sorted: the blocks are gathered in the layout's block order, each one
    already sorted, so their concatenation is sorted (small blocks as Python lists: cheaper than
    numpy for a handful of numbers). ``have``: what the current player owns, if already known."""
    ph, p, game = st.phase, st.current, st.game
    if ph == GAME_OVER:
        return EMPTY
    off = game.layout.offset
    small: list[int] = [0] if ph in PASS_PHASES else []  # pass and small blocks, in block order
    pieces: list = []  # then arrays and lists, in block order
    if ph in TRADE_PHASES:
        if have is None:
            have = eco.owned(st, p)
        trades = _trade_actions(st, have)
    if ph == STEP1:
        pieces = [small + _step1_actions(st, p, have), trades]
    elif ph == STEP2:
        rec = _legal_recruits(st, p, have)
        digs = legal_digs(st, p, have)
        if len(rec) == 0 and len(digs) == 0:
            small = [0]
        o = off[RECRUIT]
        pieces = [small, trades, [o + r for r in rec], digs + off[DIG] if len(digs) else ()]
    elif ph == STEP3:
        halls = legal_halls(st, p)
        pieces = [small, trades, halls + off[HALL] if len(halls) else ()]
    elif ph == STEP4:
        o = off[SELECT_STATUE]
        pieces = [small, trades, [o + s for s in movable_statues(st, p, free=False)]]
    elif ph == WORKSHOP:
        o = off[WORKSHOP_USE]
        pieces = [small + [o + j for j in _legal_conversions(st, p, have)], trades]
    else:
        pieces = [small, _block(st, *_other_block(st, ph, p))]
    out = np.concatenate([x for x in pieces if len(x)] or [EMPTY], dtype=np.int64)
    return out


def _step1_actions(st: GameState, p: int, have: np.ndarray) -> list[int]:
    """Step 1's own actions (casts, then workshop activations), as action numbers."""
    off = st.game.layout.offset
    out: list[int] = []
    if not st.spell_cast and have[RUNE] >= 1:
        o = off[CAST]
        out += [o + i for i in range(len(st.spellbook)) if st.spellbook[i] >= 0 and _castable(st, p, i)]
    if st.workshops_left > 0:
        touch = workshop_touch(st, p)[0] & (st.workshop >= 0)
        touch[st.used_sites] = False
        o = off[ACTIVATE_WORKSHOP]
        out += [o + i for i in touch.nonzero()[0].tolist()]
    return out


def only_pass(st: GameState) -> bool:
    """Exactly ``list(legal_actions(st)) == [0]``, cheaper: the phase's blocks are tested one by one
    (trades first, by counting) and the first non-empty one answers; the legal set is not built."""
    ph = st.phase
    if ph not in PASS_PHASES and ph != STEP2:
        return False
    hit = st._cache.get("legal")
    if hit is not None:
        return len(hit) == 1 and hit[0] == 0
    return _only_pass(st, ph, st.current, eco.owned(st, st.current) if ph in TRADE_PHASES else None)


def pass_is_forced(st: GameState) -> bool:
    """:func:`only_pass`, for the engine's automatic passes: when the answer is no, the legal set is
    built right away (reusing what the test computed) and cached for the decision that is faced."""
    ph = st.phase
    if st._cache.get("legal") is not None or ph == STEP2 or (ph not in PASS_PHASES):
        legal = legal_actions(st)  # step 2 is rarely a forced pass: the full set answers at once
        return len(legal) == 1 and legal[0] == 0
    have = eco.owned(st, st.current) if ph in TRADE_PHASES else None
    if _only_pass(st, ph, st.current, have):
        return True
    st._cache["legal"] = _legal(st, have)
    return False


def _only_pass(st: GameState, ph: int, p: int, have: np.ndarray | None) -> bool:
    """The test of :func:`only_pass` in a phase where pass is legal (step 2: when alone)."""
    if ph in TRADE_PHASES:
        if any_trade(st, have):
            return False
        if ph == STEP1:
            return not _step1_actions(st, p, have)
        if ph == STEP2:
            return not _legal_recruits(st, p, have) and len(legal_digs(st, p, have)) == 0
        if ph == STEP3:
            return len(legal_halls(st, p)) == 0
        if ph == STEP4:
            return not movable_statues(st, p, free=False)
        return not _legal_conversions(st, p, have)  # WORKSHOP
    if ph == DIG_PEDESTAL:
        return not legal_pedestal_clans(st, p)
    if ph == DIG_WORKSHOP:
        return not bool((st.workshop_supply > 0).any())
    return not movable_statues(st, p, free=True)  # SPELL_STATUE


def any_trade(st: GameState, have: np.ndarray) -> bool:
    """Is some trade legal: ``trade_rate`` tokens of any kinds owned, and a supply pile not empty
    (exactly whether :func:`_trade_actions` is non-empty: the trades give every multiset of that size)."""
    return sum(have.tolist()) >= st.game.trade_rate and bool(st.supply.any())


def _other_block(st: GameState, ph: int, p: int) -> tuple[Block, object]:
    """The one block of legal actions of a phase without trades (besides pass): its name and args."""
    game = st.game
    if ph == GATE:
        return Block.GATE, _legal_gates(st)
    if ph == DRAFT:
        free_slots = [s for s in range(TROLLSMOOT_ROWS[0]) if st.smoot[p, s] < 0]
        return Block.DRAFT, sorted({t * TROLLSMOOT_ROWS[0] + s for t in st.draft_hand[p] for s in free_slots})
    if ph == SPELL_DIG:
        return Block.DIG, legal_digs(st, p)
    if ph == SPELL_STATUE:
        return Block.SELECT_STATUE, movable_statues(st, p, free=True)
    if ph == STATUE_DEST:
        return Block.MOVE_STATUE, statue_destinations(st, p, st.pending.statue_square)
    if ph == SPELL_OPTION:
        spell = game.pack.spells[st.spellbook[st.pending.spell]]
        return Block.SPELL_OPTION, range(len(spell.params["options"]))
    if ph == SPELL_SMOOT:
        return Block.SMOOT_SLOT, _spell_smoot_slots(st, p)
    if ph == SPELL_HORDE:
        return Block.HORDE_SLOT, _spell_horde_slots(st)
    if ph in (SPELL_PEDESTAL, RECRUIT_PEDESTAL):
        return Block.PEDESTAL, (st.bag > 0).nonzero()[0]
    if ph == BRIBE:
        return Block.BRIBE, (eco.owned(st, p) > 0).nonzero()[0]
    if ph == DIG_MINERAL:
        size = int(game.geo.tunnel_placements.size[st.pending.dig])
        return Block.MINERAL, (eco.owned(st, p)[:3] >= size).nonzero()[0]
    if ph == DIG_PEDESTAL:
        return Block.PEDESTAL, legal_pedestal_clans(st, p)
    if ph == DIG_WORKSHOP:
        return Block.ESTABLISH, (st.workshop_supply > 0).nonzero()[0]
    raise AssertionError(f"phase {ph} has no legal-action rule")


def _legal_gates(st: GameState) -> list[int]:
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


#: most entries of a layout's trade memo (~1 KB each in random play: 4.2 MB when full)
TRADE_MEMO_LIMIT = 4096


def _trade_actions(st: GameState, have: np.ndarray) -> np.ndarray:
    """The legal trades as action numbers (int32; the caller must not change the array): the gives
    within what the player owns, each with every gain whose supply pile is not empty.

    The gives depend only on the owned counts capped at the trade rate; their action numbers are
    memoised on the action layout (shared by every game of that pack and board side) in an ordered
    dict kept in least-recently-used order and bounded by :data:`TRADE_MEMO_LIMIT` entries."""
    layout = st.game.layout
    rate = st.game.trade_rate
    key = np.minimum(have, rate).tobytes()
    memo = layout.trade_memo
    actions = memo.get(key)
    if actions is None:
        within = (layout.trade_gives_by_kind <= have[:, None]).all(axis=0)
        actions = memo[key] = layout.trade_rows[within].reshape(-1)
        if len(memo) > TRADE_MEMO_LIMIT:
            try:
                memo.popitem(last=False)  # the least recently used
            except KeyError:  # emptied meanwhile by another thread
                pass
    else:
        try:
            memo.move_to_end(key)
        except KeyError:  # evicted meanwhile by another thread
            pass
    supply = st.supply
    if supply.all():
        return actions
    return actions.reshape(-1, N_RESOURCES)[:, supply > 0].reshape(-1)


def _legal_conversions(st: GameState, p: int, have: np.ndarray | None = None) -> list[int]:
    layout = st.game.layout
    w = int(st.workshop[st.active_site])
    if st.uses_left <= 0:
        return []
    shop = st.game.pack.workshops[w]
    have = eco.owned(st, p) if have is None else have
    if shop.wild_carts_only:
        have = have.copy()
        have[CART] = eco.wild_carts(st, p)
    ok = (layout.conv_workshop == w) & (layout.conv_give <= have).all(axis=1)
    out = []
    for j in ok.nonzero()[0].tolist():
        conv = layout.conversions[j]
        if conv.move is not None:
            if st.tokens[p, conv.move[0], conv.move[1]] > 0:
                out.append(int(j))
        elif all(st.supply[r] >= conv.gain[r] for r in range(N_RESOURCES)):
            out.append(int(j))
    return out


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


_RECRUIT_COLUMN = {t: i for i, t in enumerate(RECRUIT_SLOTS)}
#: [h, b] = 1 where horde slot b lies beneath slot h (a troll there is owed a bribe)
_BENEATH = np.array([[b in HORDE_BENEATH[h] for b in range(N_HORDE)] for h in range(N_HORDE)], np.int16)


def _legal_recruits(st: GameState, p: int, have: np.ndarray | None = None) -> list[int]:
    smoot = st.smoot[p].tolist()
    if sum(c >= 0 for c in smoot) >= st.game.max_trolls:
        return []
    slots = open_smoot_slots(st, p, smoot)
    if not slots:
        return []
    have = eco.owned(st, p) if have is None else have
    purse = int(have.sum()) if st.bribe_any else int(have[COIN])
    n_slots = len(RECRUIT_SLOTS)
    columns = [_RECRUIT_COLUMN[t] for t in slots]
    occupied = st.horde >= 0
    affordable = occupied & (_BENEATH @ occupied <= purse)  # one bribe per troll still beneath
    return [h * n_slots + c for h in affordable.nonzero()[0].tolist() for c in columns]


def legal_pedestal_clans(st: GameState, p: int) -> list[int]:
    anchor = int(st.game.geo.tunnel_placements.anchor[st.pending.dig])
    tier = int(st.game.geo.tier[anchor]) - 1
    s = st.game.storage_of[p]
    return [c for c in range(N_CLANS) if st.storage_pedestals[s, c] > 0 and st.track_taken[tier, c] < 0]


def _castable(st: GameState, p: int, i: int) -> bool:
    """A spell may be cast only if its effect can be carried out now."""
    spell = st.game.pack.spells[st.spellbook[i]]
    effect = spell.effect
    if effect == "dig_now":
        return len(legal_digs(st, p)) > 0  # the rune paid is neither a mineral nor a hammer
    if effect == "ascension":
        return bool(_spell_smoot_slots(st, p, "ascension")) and bool(_spell_horde_slots(st, "ascension"))
    if effect == "collect_bribes":
        return bool(_spell_horde_slots(st, "collect_bribes"))
    if effect == "take_pedestal":
        return bool(st.bag.sum() > 0)
    if effect == "free_statue_moves":
        return bool(movable_statues(st, p, free=True))
    return True  # gains, Golden Mask, Master's Key, Clear Passage, trollsmoot activation: always possible


def spell_effect(st: GameState) -> str:
    return st.game.pack.spells[st.spellbook[st.pending.spell]].effect


def _spell_smoot_slots(st: GameState, p: int, effect: str | None = None) -> list[int]:
    effect = effect or spell_effect(st)
    cards = st.smoot[p]
    if effect == "ascension":
        return [s for s in range(N_SMOOT) if cards[s] >= 0 and st.game.card_level[cards[s]] == 2]
    return [s for s in range(N_SMOOT) if cards[s] >= 0]


def _spell_horde_slots(st: GameState, effect: str | None = None) -> list[int]:
    effect = effect or spell_effect(st)
    if effect == "ascension":
        return [h for h in range(N_HORDE) if HORDE_ROW[h] == 2 and st.horde[h] >= 0]
    return [h for h in range(N_HORDE) if st.horde[h] >= 0 and st.horde_bribes[h].sum() > 0]
