"""The rules: setup, the legal decisions of each phase, and applying a decision.

A turn (rulebook, *On your turn*) is a sequence of small decisions, each one phase below:

* ``step1_spells_workshops``: cast one spell, activate one workshop (either order), trade, or pass to
  step 2. Casting may open a spell's own choices (``spell_*`` phases); a workshop opens ``workshop``
  (one use per open entrance; pass to stop).
* ``step2_recruit_or_dig``: recruit (horde troll x trollsmoot slot) or dig (tunnel placement), or trade;
  pass only when neither recruiting nor digging is possible. A recruit may ask for bribes paid in any
  resources (Golden Mask) and the Level-3 pedestal choice; a dig asks for the mineral (when more than
  one would pay), a pedestal (may decline) and a workshop for each newly touched empty site.
* ``step3_great_hall``: dedicate one great hall, trade, or pass.
* ``step4_move_statues``: select a statue, then its destination (one cart each), trade, or pass to end.

Trades with the supply are offered in every step and in the workshop phase (the rulebook: "at any
point on your turn"), not in the middle of a recruit, a dig or a spell's choices. A decision whose only
legal action is *pass* is taken automatically, so agents are only asked real questions.
"""

from __future__ import annotations

import numpy as np

from . import economy as eco
from .actions import HORDE_ROW, N_HORDE, N_SMOOT, TROLLSMOOT_ROWS
from .board import (legal_digs, legal_halls, movable_statues, place_tile, recompute_networks,  # noqa: F401
                    split_protrusions, statue_destinations, workshop_touch)
from .content import CART, CLAN_CART0, COIN, HAMMER, MINERALS, N_CLANS, N_RESOURCES, N_TIERS, RESOURCES, RUNE
from .explain import explain_illegal
from .hidden import determinize  # noqa: F401 (the engine surface: Game.rules.determinize)
from .legal import bribes_needed, legal_actions, legal_pedestal_clans, pass_is_forced, spell_effect
from .errors import IllegalActionError, StalledGameError, action_number
from .fields import blank_fields
from .state import GameState
from .vocabulary import NO_PENDING, PHASE_NAMES, Block, Pending, Phase, SquareKind

# the phases compared on every step, bound once (a global is cheaper than ``Phase.STEP1``)
(GATE, DRAFT, STEP1, WORKSHOP, SPELL_OPTION, SPELL_SMOOT, SPELL_HORDE, SPELL_PEDESTAL, SPELL_DIG, SPELL_STATUE,
 STEP2, BRIBE, RECRUIT_PEDESTAL, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, STEP3, STEP4, STATUE_DEST,
 GAME_OVER) = Phase


# ================================================================================================
# setup
# ================================================================================================
def setup(game, rng: np.random.Generator) -> GameState:
    """The rulebook's general setup, then the first player-setup decision (gate placement)."""
    pack, geo, n = game.pack, game.geo, game.num_players
    st = GameState(game)
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
        _refill(st, h)
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
    st.phase = GATE
    return st


def _reset_turn(st: GameState) -> None:
    st.spell_cast = False
    st.workshops_left = 1
    st.used_sites = []
    st.active_site = -1
    st.uses_left = 0
    st.bribe_any = False
    st.ignore_rubble = False
    st.free_moves = 0
    st.pending = NO_PENDING


# ================================================================================================
# chance: decks and the bag
# ================================================================================================
def _draw_troll(st: GameState, row: int) -> int:
    """Draw for a horde row: its level's deck, else the next-higher, else the next-lower."""
    order = list(range(row, 3)) + list(range(row - 1, -1, -1))
    for lvl in order:
        if st.decks[lvl]:
            if st.deck_unseen[lvl] > 0:
                st.deck_unseen[lvl] -= 1
            return st.decks[lvl].pop(0)
    return -1


def _draw_pedestal(st: GameState) -> int:
    total = int(st.bag.sum())
    if total == 0:
        return -1
    x = int(st.rng.integers(total))
    for clan in range(N_CLANS):
        x -= int(st.bag[clan])
        if x < 0:
            st.bag[clan] -= 1
            return clan
    raise AssertionError("unreachable")


def _refill(st: GameState, h: int) -> None:
    """Fill an empty horde slot; a fresh troll in the Level-2 row gets a pedestal from the bag."""
    st.horde[h] = _draw_troll(st, HORDE_ROW[h])
    if HORDE_ROW[h] == 1 and st.horde[h] >= 0 and st.horde_pedestal[h] < 0:
        st.horde_pedestal[h] = _draw_pedestal(st)


def _draw_spell(st: GameState) -> int:
    if not st.spell_deck:
        return -1
    if st.spell_unseen > 0:
        st.spell_unseen -= 1
    return st.spell_deck.pop(0)


# ================================================================================================
# applying a decision
# ================================================================================================
def apply_action(st: GameState, action) -> None:
    """Check and apply one decision, then take every forced pass that follows."""
    a = _as_action(st, action)
    if not st.is_legal(a):
        raise IllegalActionError(explain_illegal(st, a))
    st.history.append(a)
    _dispatch(st, a)
    _auto_advance(st)


def _as_action(st: GameState, action) -> int:
    a = action_number(action, st.game.layout.size)
    if st.phase == GAME_OVER:
        raise IllegalActionError(f"action {a}: the game is over; no decision is allowed")
    if not 0 <= a < st.game.layout.size:
        raise IllegalActionError(f"action {a} is outside the action space 0..{st.game.layout.size - 1}")
    return a


def _auto_advance(st: GameState) -> None:
    """Take every decision whose only legal action is pass (tested without building the legal set),
    then compute, once, the legal set of the decision the agent faces (it is cached).

    Guard: passes change nothing but the seat and the turn counter, so once every seat in a row has had
    a turn of forced passes before the end is triggered, the game would cycle forever; that raises
    :class:`StalledGameError` instead of looping."""
    first_turn = st.turn
    while st.phase != GAME_OVER:
        if pass_is_forced(st):
            before = (st.phase, st.current, st.turn, st.pending)
            _dispatch(st, 0)
            if (st.phase, st.current, st.turn, st.pending) == before:
                raise StalledGameError(f"a forced pass in phase {PHASE_NAMES[before[0]]} changed nothing "
                                       "(engine bug); the same pass would repeat forever")
            if st.turn - first_turn > st.num_players and st.final_turns_left < 0:
                raise StalledGameError(
                    f"the game cannot go on: from turn {first_turn} to {st.turn} every seat's turn was only "
                    f"forced passes and the end (the last coronation token) is not triggered, so no turn "
                    f"would ever change anything; data pack {st.game.pack.pack_id}")
            continue
        if len(legal_actions(st)) == 0:
            raise RuntimeError(f"no legal decision in phase {PHASE_NAMES[st.phase]} (engine bug)")
        return


def _dispatch(st: GameState, a: int) -> None:
    st._cache.pop("legal", None)
    block, arg = st.game.layout.decode(a)
    HANDLERS[block](st, st.current, arg)


def _on_pass(st: GameState, p: int, _arg: int) -> None:
    ph = st.phase
    if ph == STEP1:
        st.phase = STEP2
    elif ph == WORKSHOP:
        st.phase, st.active_site, st.uses_left = STEP1, -1, 0
    elif ph == STEP2:
        _enter_step3(st)
    elif ph == STEP3:
        st.phase = STEP4
    elif ph == STEP4:
        _end_turn(st)
    elif ph == DIG_PEDESTAL:
        _dig_workshops(st, p)
    elif ph == DIG_WORKSHOP:
        _next_site(st, p)
    elif ph == SPELL_STATUE:
        _finish_spell(st)


# -- setup decisions -------------------------------------------------------------------------------
def _on_gate(st: GameState, p: int, k: int) -> None:
    sq = st.game.geo.start_points[k][0]
    st.gate_sq[p] = sq
    place_tile(st, [sq], SquareKind.GATE, -1)
    if p + 1 < st.num_players:
        st.current = p + 1
    else:
        st.phase, st.current = DRAFT, 0


def _on_draft(st: GameState, p: int, arg: int) -> None:
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
    st.phase, st.current, st.turn = STEP1, 0, 0
    _reset_turn(st)


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


# -- step 1: spells and workshops ------------------------------------------------------------------
def _on_cast(st: GameState, p: int, i: int) -> None:
    eco.pay(st, p, RUNE, 1, to_supply=False)
    st.spell_runes[i] += 1
    st.spell_cast = True
    st.pending = Pending(spell=i)
    spell = st.game.pack.spells[st.spellbook[i]]
    effect = spell.effect
    if effect == "gain_choice":
        options = spell.params["options"]
        if len(options) == 1:
            _gain_bundle(st, p, options[0])
            _finish_spell(st)
        else:
            st.phase = SPELL_OPTION
    elif effect == "bribe_any":
        st.bribe_any = True
        _finish_spell(st)
    elif effect == "extra_workshop":
        st.workshops_left += 1
        _finish_spell(st)
    elif effect == "ignore_rubble":
        st.ignore_rubble = True
        _finish_spell(st)
    elif effect == "dig_now":
        st.phase = SPELL_DIG
    elif effect in ("ascension", "activate_troll"):
        st.phase = SPELL_SMOOT
    elif effect == "collect_bribes":
        st.phase = SPELL_HORDE
    elif effect == "take_pedestal":
        st.phase = SPELL_PEDESTAL
    elif effect == "free_statue_moves":
        st.free_moves = int(spell.params.get("moves", 1))
        st.phase = SPELL_STATUE
    else:
        raise AssertionError(f"unknown spell effect {effect}")


def _gain_bundle(st: GameState, p: int, bundle: dict) -> None:
    for name, n in bundle.items():
        eco.gain(st, p, RESOURCES.index(name), int(n))


def _finish_spell(st: GameState) -> None:
    """After the effect: a third rune disintegrates the spell (runes to the supply, card to the
    bottom of the deck, a new one drawn into its place)."""
    i = st.pending.spell
    if st.spell_runes[i] >= st.game.runes_to_disintegrate:
        st.supply[RUNE] += st.spell_runes[i]
        st.spell_runes[i] = 0
        st.spell_deck = st.spell_deck + [int(st.spellbook[i])]
        st.spellbook[i] = _draw_spell(st)
    st.pending = NO_PENDING
    st.free_moves = 0
    st.phase = STEP1


def _on_spell_option(st: GameState, p: int, k: int) -> None:
    spell = st.game.pack.spells[st.spellbook[st.pending.spell]]
    _gain_bundle(st, p, spell.params["options"][k])
    _finish_spell(st)


def _on_smoot_slot(st: GameState, p: int, slot: int) -> None:
    effect = spell_effect(st)
    if effect == "ascension":
        st.pending = st.pending._replace(smoot_slot=slot)
        st.phase = SPELL_HORDE
        return
    spell = st.game.pack.spells[st.spellbook[st.pending.spell]]
    if spell.params.get("cascade"):
        eco.cascade(st, p, slot)
    else:
        eco.activate(st, p, slot)
    _finish_spell(st)


def _on_horde_slot(st: GameState, p: int, h: int) -> None:
    s = st.game.storage_of[p]
    if spell_effect(st) == "collect_bribes":
        st.storage[s] += st.horde_bribes[h]
        st.horde_bribes[h] = 0
        _finish_spell(st)
        return
    # Ceremony of Ascension: the Level-2 troll and what it holds are discarded (to the bottom of its
    # deck and the supply); the Level-3 troll takes its slot, without pedestal or activation, and its
    # bribes are discarded.
    slot = st.pending.smoot_slot
    old = int(st.smoot[p, slot])
    st.decks[st.game.card_level[old] - 1].append(old)
    _return_troll_tokens(st, p, slot)
    st.supply += st.horde_bribes[h]
    st.horde_bribes[h] = 0
    st.smoot[p, slot] = st.horde[h]
    st.horde[h] = -1
    _refill(st, h)
    _finish_spell(st)


def _return_troll_tokens(st: GameState, p: int, slot: int) -> None:
    held = st.tokens[p, slot]
    st.supply[:N_RESOURCES] += held[:N_RESOURCES]
    st.supply[CART] += held[CLAN_CART0:].sum()
    held[:] = 0


def _on_activate_workshop(st: GameState, p: int, site: int) -> None:
    st.workshops_left -= 1
    st.used_sites = st.used_sites + [site]
    st.active_site = site
    st.uses_left = int(workshop_touch(st, p)[1][site])
    st.phase = WORKSHOP


def _on_workshop_use(st: GameState, p: int, j: int) -> None:
    conv = st.game.layout.conversions[j]
    if conv.move is not None:
        slot, kind = conv.move
        st.tokens[p, slot, kind] -= 1
        st.storage[st.game.storage_of[p], CART if kind >= CLAN_CART0 else kind] += 1
    else:
        shop = st.game.pack.workshops[conv.workshop]
        eco.pay_vector(st, p, conv.give, wild_carts_only=shop.wild_carts_only)
        eco.gain_vector(st, p, conv.gain)
    st.uses_left -= 1
    if st.uses_left <= 0:
        st.phase, st.active_site = STEP1, -1


def _on_trade(st: GameState, p: int, arg: int) -> None:
    give, gain = st.game.layout.trade_args(arg)
    eco.pay_vector(st, p, give)
    eco.gain(st, p, gain, 1)


def _on_spell_pedestal_or_other(st: GameState, p: int, clan: int) -> None:
    s = st.game.storage_of[p]
    if st.phase in (SPELL_PEDESTAL, RECRUIT_PEDESTAL):
        st.bag[clan] -= 1
        st.storage_pedestals[s, clan] += 1
        if st.phase == SPELL_PEDESTAL:
            _finish_spell(st)
        else:
            _finish_recruit(st, p)
        return
    # DIG_PEDESTAL: place it on the new tunnel's anchor and take the track's point token
    geo = st.game.geo
    anchor = int(geo.tunnel_placements.anchor[st.pending.dig])
    tier = int(geo.tier[anchor]) - 1
    st.pedestal[anchor] = clan
    st.storage_pedestals[s, clan] -= 1
    st.track_taken[tier, clan] = p
    st.pedestal_points[p] += st.track_value[tier, clan]
    st.pedestal_tokens[p] += 1
    _dig_workshops(st, p)


# -- step 2: recruit ------------------------------------------------------------------------------
def _on_recruit(st: GameState, p: int, arg: int) -> None:
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


def _on_bribe(st: GameState, p: int, res: int) -> None:
    targets = st.pending.bribes_owed
    eco.pay(st, p, res, 1, to_supply=False)
    st.horde_bribes[targets[0], res] += 1
    st.pending = st.pending._replace(bribes_owed=targets[1:])
    if len(targets) == 1:
        _take_troll(st, p)


def _take_troll(st: GameState, p: int) -> None:
    """Step two of recruiting: take the troll, its bribes and its pedestal (Level-2 row), or choose a
    pedestal from the bag (Level-3 row)."""
    h = st.pending.horde_slot
    s = st.game.storage_of[p]
    st.pending = st.pending._replace(recruit_card=int(st.horde[h]))
    st.horde[h] = -1
    st.storage[s] += st.horde_bribes[h]
    st.horde_bribes[h] = 0
    row = HORDE_ROW[h]
    if row == 1 and st.horde_pedestal[h] >= 0:
        st.storage_pedestals[s, st.horde_pedestal[h]] += 1
        st.horde_pedestal[h] = -1
    if row == 2 and st.bag.sum() > 0:
        clans = (st.bag > 0).nonzero()[0]
        if len(clans) > 1:
            st.phase = RECRUIT_PEDESTAL
            return
        st.bag[clans[0]] -= 1
        st.storage_pedestals[s, clans[0]] += 1
    _finish_recruit(st, p)


def _finish_recruit(st: GameState, p: int) -> None:
    """Refill the horde, retire trolls holding 4 bribes, then add the troll to the trollsmoot and
    trigger the cascade; a 10th troll takes a coronation token."""
    h, t, card = st.pending.horde_slot, st.pending.smoot_slot, st.pending.recruit_card
    _refill(st, h)
    full = st.horde_bribes.sum(axis=1) >= st.game.retire_bribes  # refills bring no bribes
    for r in full.nonzero()[0].tolist():  # retiring trolls
        if st.horde[r] >= 0:
            st.decks[st.game.card_level[st.horde[r]] - 1].append(int(st.horde[r]))
            st.supply += st.horde_bribes[r]
            st.horde_bribes[r] = 0
            st.horde[r] = -1
            _refill(st, r)
    st.smoot[p, t] = card
    eco.cascade(st, p, t)
    if int((st.smoot[p] >= 0).sum()) >= st.game.max_trolls and st.coronation_left:
        st.coronation[p] += st.coronation_left[0]
        st.coronation_left = st.coronation_left[1:]
        if not st.coronation_left:  # the coronation: finish the round, then 2 more turns each
            n = st.num_players
            st.final_turns_left = (n - 1 - p) + 2 * n
    st.pending = NO_PENDING
    _enter_step3(st)


# -- step 2: dig ------------------------------------------------------------------------------------
def _on_dig(st: GameState, p: int, i: int) -> None:
    size = int(st.game.geo.tunnel_placements.size[i])
    st.pending = st.pending._replace(dig=i, dig_for_spell=st.phase == SPELL_DIG)
    minerals = (eco.owned(st, p)[:3] >= size).nonzero()[0]
    if len(minerals) == 1:
        _dig(st, p, int(minerals[0]))
    else:
        st.phase = DIG_MINERAL


def _on_mineral(st: GameState, p: int, m: int) -> None:
    _dig(st, p, m)


def _dig(st: GameState, p: int, mineral: int) -> None:
    """Pay, place the tunnel, score it, gain buried resources (statues are unearthed in place)."""
    game = st.game
    table = game.geo.tunnel_placements
    i = st.pending.dig
    size = int(table.size[i])
    cells = table.cells[i, :size]
    piece = int(table.piece[i])
    eco.pay(st, p, mineral, size)
    if not st.ignore_rubble:
        eco.pay(st, p, HAMMER, int(table.rubble[i]))
    st.tunnel_supply[piece] -= 1
    place_tile(st, cells, SquareKind.TUNNEL, piece)
    st.honour[p] += game.pack.tunnel_honour[size][MINERALS[mineral]]
    for sq in cells.tolist():
        if st.buried[sq] >= 0:
            eco.gain(st, p, int(st.buried[sq]), 1)
            st.buried[sq] = -1
    if table.anchor[i] >= 0 and legal_pedestal_clans(st, p):
        st.phase = DIG_PEDESTAL
        return
    _dig_workshops(st, p)


def _dig_workshops(st: GameState, p: int) -> None:
    table = st.game.geo.tunnel_placements
    sites = tuple(s for s in table.sites[st.pending.dig] if st.workshop[s] < 0)
    st.pending = st.pending._replace(sites_left=sites)
    if sites and st.workshop_supply.sum() > 0:
        st.phase = DIG_WORKSHOP
    else:
        _end_dig(st)


def _on_establish(st: GameState, p: int, w: int) -> None:
    site = st.pending.sites_left[0]
    st.workshop[site] = w
    st.workshop_supply[w] -= 1
    _next_site(st, p)


def _next_site(st: GameState, p: int) -> None:
    rest = st.pending.sites_left[1:]
    st.pending = st.pending._replace(sites_left=rest)
    if rest and st.workshop_supply.sum() > 0:
        st.phase = DIG_WORKSHOP
    else:
        _end_dig(st)


def _end_dig(st: GameState) -> None:
    if st.pending.dig_for_spell:
        _finish_spell(st)
    else:
        st.pending = NO_PENDING
        _enter_step3(st)


def _enter_step3(st: GameState) -> None:
    st.phase = STEP3


# -- step 3: great hall -----------------------------------------------------------------------------
def _on_hall(st: GameState, p: int, i: int) -> None:
    """Lay the hall over the tunnels: covered pedestals leave the game (their tokens and the track
    stay), statues stay in place, protruding parts of covered tunnels become tunnels of their own."""
    table = st.game.geo.hall_placements
    size = int(table.size[i])
    cells = table.cells[i, :size]
    hall = int(table.piece[i])
    covered_tiles = {int(t) for t in st.tile[cells]}
    st.pedestal[cells] = -1
    st.hall_at[cells] = hall
    st.hall_altar[hall] = table.anchor[i]
    place_tile(st, cells, SquareKind.GREAT_HALL, -1)
    for t in covered_tiles:
        split_protrusions(st, t)
    st.phase = STEP4


def _on_select_statue(st: GameState, p: int, sq: int) -> None:
    st.pending = st.pending._replace(statue_square=sq, statue_from_phase=st.phase)
    st.phase = STATUE_DEST


def _on_move_statue(st: GameState, p: int, dest: int) -> None:
    src = st.pending.statue_square
    clan = int(st.statue[src])
    st.statue[dest] = clan
    st.statue[src] = -1
    back = st.pending.statue_from_phase
    st.pending = st.pending._replace(statue_square=None, statue_from_phase=None)
    if back == SPELL_STATUE:
        st.free_moves -= 1
        if st.free_moves <= 0:
            _finish_spell(st)
        else:
            st.phase = SPELL_STATUE
        return
    eco.pay(st, p, CART, 1, kinds=[CLAN_CART0 + clan, CART])
    st.phase = STEP4


def _end_turn(st: GameState) -> None:
    if st.final_turns_left == 0:
        st.phase = GAME_OVER
        st.pending = NO_PENDING
        return
    if st.final_turns_left > 0:
        st.final_turns_left -= 1
    st.current = (st.current + 1) % st.num_players
    st.turn += 1
    _reset_turn(st)
    st.phase = STEP1


HANDLERS = {
    Block.PASS: _on_pass, Block.GATE: _on_gate, Block.DRAFT: _on_draft, Block.CAST: _on_cast,
    Block.SPELL_OPTION: _on_spell_option, Block.ACTIVATE_WORKSHOP: _on_activate_workshop,
    Block.WORKSHOP_USE: _on_workshop_use, Block.TRADE: _on_trade, Block.RECRUIT: _on_recruit,
    Block.BRIBE: _on_bribe, Block.PEDESTAL: _on_spell_pedestal_or_other, Block.DIG: _on_dig,
    Block.MINERAL: _on_mineral, Block.ESTABLISH: _on_establish, Block.HALL: _on_hall,
    Block.SELECT_STATUE: _on_select_statue, Block.MOVE_STATUE: _on_move_statue,
    Block.SMOOT_SLOT: _on_smoot_slot, Block.HORDE_SLOT: _on_horde_slot,
}
