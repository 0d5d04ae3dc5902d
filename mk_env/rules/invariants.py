"""Invariants of a game state: facts that hold after every decision of every legal game.

Used by the soak test (``mk-env soak``), the property tests and :meth:`Game.state_from_json` (a loaded
state must satisfy them). Part of the rules engine: imports numpy only (``mk_env.invariants`` re-exports
it). Every check asks the state and the pack for the facts; none of them re-implements a rule, except
the network reach, which is recomputed by a plain breadth-first search to cross-check the engine's.

>>> from mk_env.rules import Game
>>> state = Game(num_players=3).new_initial_state(seed=1)
>>> check_invariants(state)            # raises InvariantError naming the broken invariant
>>> totals = component_totals(state)   # where every component is, by place
>>> check_invariants(state, baseline=totals)

Two kinds of checks:

* :func:`check_invariants` looks at one state: every token is somewhere, no tile overlaps another,
  networks are what the tiles say, the trollsmoot is a pyramid, scores add up, and so on.
* :func:`check_step` compares a state with the one before the last decision: honour never falls, the
  tunnel honour gained equals the honour chart's value for the tunnel just dug, statues never appear
  or vanish.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from .actions import HORDE_ROW, N_HORDE, SMOOT_SUPPORT, TROLLSMOOT_ROWS
from .content import CLANS, MINERALS, N_RESOURCES, RESOURCES, RUNE
from .economy import as_resources
from .scoring import CATEGORIES
from .state import GameState
from .vocabulary import Phase, SquareKind

#: kinds of board squares (``state.kind``), as plain ints for numpy
EMPTY, GATE, TUNNEL, GREAT_HALL = (int(k) for k in SquareKind)
#: phases in the middle of a recruit: bribes are on the horde but trolls have not retired yet
_MID_RECRUIT = ("bribe", "recruit_pedestal")
#: count fields that are never negative
_COUNT_FIELDS = ("supply", "tunnel_supply", "workshop_supply", "horde_bribes", "bag", "spell_runes",
                 "coronation", "storage", "storage_pedestals", "tokens", "honour", "pedestal_points",
                 "pedestal_tokens")
_SCALAR_COUNTS = ("turn", "workshops_left", "uses_left", "free_moves", "next_tile", "next_region")


#: trollsmoot slots that rest on two others, and those two
_RESTING = [s for s, support in enumerate(SMOOT_SUPPORT) if support]
_BENEATH_A = [SMOOT_SUPPORT[s][0] for s in _RESTING]
_BENEATH_B = [SMOOT_SUPPORT[s][1] for s in _RESTING]


class InvariantError(AssertionError):
    """A state breaks an invariant of the game; the message names it and the numbers involved."""


@dataclass(frozen=True)
class ComponentTotals:
    """How many of each component a state holds, by kind (the places are summed)."""

    tokens: tuple[int, ...]  # per resource: supply + storages + trolls + horde bribes + runes on spells
    statues: tuple[int, ...]  # per clan: statues on the board
    pedestals: tuple[int, ...]  # per clan: bag + storages + horde + taken on the track
    tunnel_tiles: tuple[int, ...]  # per tunnel shape: supply + dug
    workshops: int  # revealed: in the supply + established
    horde_trolls: int  # horde cards in decks, the horde and every trollsmoot
    spells: int  # spellbook + spell deck


# ================================================================================================
# totals
# ================================================================================================
def token_places(state: GameState) -> dict[str, np.ndarray]:
    """Resource tokens by place (each a length-7 vector; clan carts count as carts)."""
    trolls = as_resources(state.tokens.sum(axis=(0, 1)))
    runes = np.zeros(N_RESOURCES, np.int64)
    runes[RUNE] = int(state.spell_runes.sum())
    return {"supply": state.supply.astype(np.int64), "storages": state.storage.sum(axis=0).astype(np.int64),
            "trolls": trolls, "horde bribes": state.horde_bribes.sum(axis=0).astype(np.int64),
            "runes on spells": runes}


def pedestal_places(state: GameState) -> dict[str, np.ndarray]:
    """Pedestals by place, per clan. "taken" counts pedestals placed on the board (each took a point
    token off the track); those later covered by a great hall have left the game but stay counted."""
    horde = np.bincount(state.horde_pedestal[state.horde_pedestal >= 0], minlength=len(CLANS))
    return {"bag": state.bag.astype(np.int64),
            "storages": state.storage_pedestals.sum(axis=0).astype(np.int64),
            "horde": horde.astype(np.int64),
            "taken": (state.track_taken >= 0).sum(axis=0).astype(np.int64)}


def _tunnels_dug(state: GameState) -> np.ndarray:
    shapes = np.array([s for s in state.tile_shape if s >= 0], dtype=np.int64)
    return np.bincount(shapes, minlength=len(state.game.pack.tunnels))


def _horde_cards(state: GameState) -> list[int]:
    n0 = state.game.n_starters
    cards = [c for deck in state.decks for c in deck]
    cards += [int(c) for c in state.horde if c >= 0]
    cards += [int(c) for c in state.smoot.reshape(-1) if c >= n0]
    if state.pending.recruit_card is not None:  # taken from the horde, not yet in the trollsmoot
        cards.append(int(state.pending.recruit_card))
    return cards


def component_totals(state: GameState) -> ComponentTotals:
    """Totals of every component kind in ``state`` (compare two states' totals to find a leak)."""
    tokens = sum(token_places(state).values())
    peds = sum(pedestal_places(state).values())
    statues = np.bincount(state.statue[state.statue >= 0], minlength=len(CLANS))
    tiles = state.tunnel_supply.astype(np.int64) + _tunnels_dug(state)
    return ComponentTotals(
        tokens=tuple(int(x) for x in tokens), statues=tuple(int(x) for x in statues),
        pedestals=tuple(int(x) for x in peds), tunnel_tiles=tuple(int(x) for x in tiles),
        workshops=int(state.workshop_supply.sum() + (state.workshop >= 0).sum()),
        horde_trolls=len(_horde_cards(state)),
        spells=int((state.spellbook >= 0).sum()) + len(state.spell_deck))


# ================================================================================================
# one state
# ================================================================================================
def check_invariants(state: GameState, baseline: ComponentTotals | None = None) -> None:
    """Raise :class:`InvariantError` if ``state`` breaks any invariant of the game.

    ``baseline`` (the :func:`component_totals` of the game's initial state) adds the exact checks that
    need the setup: statues by clan and the number of workshops revealed.
    """
    for check in _CHECKS:
        check(state)
    if baseline is not None:
        _check_baseline(state, baseline)


def _fail(what: str, detail: str) -> None:
    raise InvariantError(f"{what}: {detail}")


def _check_counts(state: GameState) -> None:
    """No negative count anywhere."""
    for name in _COUNT_FIELDS:
        arr = getattr(state, name)
        if (arr < 0).any():
            where = [tuple(int(i) for i in ix) for ix in np.argwhere(arr < 0)[:3]]
            _fail("negative count", f"state.{name} is negative at {where}: {arr[tuple(np.argwhere(arr < 0)[0])]}")
    for name in _SCALAR_COUNTS:
        if getattr(state, name) < 0:
            _fail("negative count", f"state.{name} = {getattr(state, name)}")


def _check_tokens(state: GameState) -> None:
    """Every token is somewhere: supply + storages + trolls + horde bribes + runes on spells = the
    component count of the pack (buried resources are printed on the board, not tokens)."""
    pack = state.game.pack
    places = token_places(state)
    total = sum(places.values())
    for r, name in enumerate(RESOURCES):
        want = pack.supply[name]
        if total[r] != want:
            parts = " + ".join(f"{place} {int(v[r])}" for place, v in places.items())
            _fail("token conservation", f"{name}: {parts} = {int(total[r])}, but the pack has {want}")


def _check_statues(state: GameState) -> None:
    """Statues: valid clans, at most ``statues_per_clan`` each, only on a tile or on a statue spot
    (still buried there), none on the sentinel; as many as setup dealt (one per spot, clans in turn)."""
    game = state.game
    geo, pack = game.geo, game.pack
    statue = state.statue
    if statue[-1] != -1:
        _fail("statues", "a statue is on the sentinel square")
    bad = (statue < -1) | (statue >= len(CLANS))
    if bad.any():
        _fail("statues", f"invalid statue clan {int(statue[bad][0])} at square {int(np.flatnonzero(bad)[0])}")
    counts = np.bincount(statue[statue >= 0], minlength=len(CLANS))
    if (counts > pack.statues_per_clan).any():
        _fail("statues", f"counts by clan {counts.tolist()} exceed statues_per_clan={pack.statues_per_clan}")
    spots = np.zeros(geo.n_squares + 1, bool)
    spots[[geo.sq(r, c) for r, c in geo.side.statue_spots]] = True
    stray = (statue >= 0) & (state.kind == EMPTY) & ~spots
    if stray.any():
        _fail("statues", f"statue on empty square {geo.rc(int(np.flatnonzero(stray)[0]))} that is no statue spot")
    # setup puts one statue on each spot, the clans in turn (the loader keeps spots below the statues), and
    # statues never leave the board: the clans' counts differ by at most one and add up to the spots
    n_spots = len(geo.side.statue_spots)
    dealt = sorted(n_spots // len(CLANS) + (c < n_spots % len(CLANS)) for c in range(len(CLANS)))
    if sorted(counts.tolist()) != dealt:
        _fail("statues", f"statues by clan {counts.tolist()} on the board; setup deals {n_spots} spots as {dealt} "
                         f"(in some clan order) and statues never leave the board")


def _check_tiles(state: GameState) -> None:
    """Tiles: only on placeable squares (on the board, not the heart, not a workshop site); gates one
    square each; each tunnel tile covers its shape's size unless a hall covers part of it; great
    halls cover their size, only over former tunnel squares; tile ids and the tile supply agree."""
    game = state.game
    geo, pack = game.geo, game.pack
    kind, tile = state.kind, state.tile
    if kind[-1] != EMPTY or tile[-1] != -1 or state.region[-1] != -1 or state.hall_at[-1] != -1:
        _fail("tiles", "the sentinel square holds a tile")
    if ((kind < EMPTY) | (kind > GREAT_HALL)).any():
        _fail("tiles", f"unknown square kinds {sorted(set(kind.tolist()) - {0, 1, 2, 3})}")
    occupied = kind > EMPTY
    if (occupied != (tile >= 0)).any():
        sq = int(np.flatnonzero(occupied != (tile >= 0))[0])
        _fail("tiles", f"square {geo.rc(sq)} has kind {int(kind[sq])} but tile id {int(tile[sq])}")
    if (occupied != (state.region >= 0)).any():
        sq = int(np.flatnonzero(occupied != (state.region >= 0))[0])
        _fail("tiles", f"square {geo.rc(sq)} has kind {int(kind[sq])} but region {int(state.region[sq])}")
    off = occupied & ~geo.placeable
    if off.any():
        sq = int(np.flatnonzero(off)[0])
        _fail("tiles", f"a tile lies on unplaceable square {geo.rc(sq)} (off the board, the heart or a "
                       f"workshop site)")
    if len(state.tile_shape) != state.next_tile or (tile >= state.next_tile).any():
        _fail("tiles", f"{len(state.tile_shape)} tile shapes recorded, next_tile={state.next_tile}, "
                       f"largest tile id on the board {int(tile.max())}")
    # gates: one square each, exactly the players' gate squares
    gates = sorted(int(s) for s in state.gate_sq if s >= 0)
    if sorted(np.flatnonzero(kind == GATE).tolist()) != gates:
        _fail("tiles", f"gate squares on the board {np.flatnonzero(kind == GATE).tolist()} differ from "
                       f"the players' gates {gates}")
    # tunnels: size of the shape, less what halls cover; halls are laid over tunnels only
    sizes = [t.size for t in pack.tunnels]
    per_tile = np.bincount(tile[(kind == TUNNEL)], minlength=state.next_tile)
    for t, shape in enumerate(state.tile_shape):
        if shape >= 0 and per_tile[t] > sizes[shape]:
            _fail("tiles", f"tunnel tile {t} ({pack.tunnels[shape].name}) covers {int(per_tile[t])} "
                           f"squares, more than its size {sizes[shape]}")
        if shape < 0 and per_tile[t] > 0:
            _fail("tiles", f"tile {t} is no tunnel but {int(per_tile[t])} squares call it a tunnel")
    halls_sq = int((kind == GREAT_HALL).sum())
    dug = sum(sizes[s] for s in state.tile_shape if s >= 0)
    if dug != int((kind == TUNNEL).sum()) + halls_sq:
        _fail("tiles", f"tunnels dug cover {dug} squares but the board has {int((kind == TUNNEL).sum())} "
                       f"tunnel squares + {halls_sq} great-hall squares (overlap or lost squares)")
    if halls_sq == 0:
        for t, shape in enumerate(state.tile_shape):
            if shape >= 0 and per_tile[t] != sizes[shape]:
                _fail("tiles", f"tunnel tile {t} covers {int(per_tile[t])} squares, its shape has {sizes[shape]}")
    _check_halls(state)
    dug_by_shape = _tunnels_dug(state)
    for s, shape in enumerate(pack.tunnels):
        if int(state.tunnel_supply[s]) + int(dug_by_shape[s]) != shape.count:
            _fail("tiles", f"{shape.name}: {int(state.tunnel_supply[s])} in the supply + "
                           f"{int(dug_by_shape[s])} dug != {shape.count} tiles")


def _check_halls(state: GameState) -> None:
    geo, pack = state.game.geo, state.game.pack
    kind, hall_at = state.kind, state.hall_at
    if ((kind == GREAT_HALL) != (hall_at >= 0)).any():
        sq = int(np.flatnonzero((kind == GREAT_HALL) != (hall_at >= 0))[0])
        _fail("great halls", f"square {geo.rc(sq)} has kind {int(kind[sq])} but hall_at {int(hall_at[sq])}")
    for h, hall in enumerate(pack.great_halls):
        squares = np.flatnonzero(hall_at == h)
        altar = int(state.hall_altar[h])
        if altar < 0:
            if len(squares):
                _fail("great halls", f"{hall.name} is in the supply but covers {len(squares)} squares")
            continue
        if len(squares) != len(hall.cells):
            _fail("great halls", f"{hall.name} covers {len(squares)} squares, its size is {len(hall.cells)}")
        if hall_at[altar] != h:
            _fail("great halls", f"{hall.name}'s altar {geo.rc(altar)} is not under the hall")
        if len(set(state.tile[squares].tolist())) != 1:
            _fail("great halls", f"{hall.name} is made of several tiles {sorted(set(state.tile[squares].tolist()))}")


def _check_pedestals(state: GameState) -> None:
    """Pedestals: bag + storages + horde + taken (on the board or removed by halls) = pedestals_per_clan;
    each pedestal on the board lies on a tunnel and took its tier's point token; the track's tokens
    taken add up to each player's pedestal points."""
    game = state.game
    geo, pack = game.geo, game.pack
    places = pedestal_places(state)
    total = sum(places.values())
    for c, clan in enumerate(CLANS):
        if total[c] != pack.pedestals_per_clan:
            parts = " + ".join(f"{place} {int(v[c])}" for place, v in places.items())
            _fail("pedestals", f"{clan}: {parts} = {int(total[c])}, but the pack has {pack.pedestals_per_clan}")
    board = np.flatnonzero(state.pedestal[:-1] >= 0)
    on_board = np.zeros((len(game.pack.statue_values), len(CLANS)), np.int64)
    for sq in board:
        clan, tier = int(state.pedestal[sq]), int(geo.tier[sq]) - 1
        if state.kind[sq] != TUNNEL:
            _fail("pedestals", f"{CLANS[clan]} pedestal on {geo.rc(int(sq))}, a square of kind {int(state.kind[sq])}")
        if state.track_taken[tier, clan] < 0:
            _fail("pedestals", f"{CLANS[clan]} pedestal on {geo.rc(int(sq))} (tier {tier + 1}) but its track "
                               f"token was not taken")
        on_board[tier, clan] += 1
    if (on_board > 1).any():
        _fail("pedestals", f"two pedestals of one clan on one tier: {np.argwhere(on_board > 1).tolist()}")
    if state.pedestal[-1] != -1:
        _fail("pedestals", "a pedestal is on the sentinel square")
    outside_row2 = [h for h in range(N_HORDE) if HORDE_ROW[h] != 1 and state.horde_pedestal[h] >= 0]
    if outside_row2:
        _fail("pedestals", f"horde slots {outside_row2} hold pedestals but are not in the Level-2 row")
    for p in range(state.num_players):
        mine = state.track_taken == p
        points = int(state.track_value[mine].sum())
        if points != state.pedestal_points[p] or int(mine.sum()) != state.pedestal_tokens[p]:
            _fail("pedestal track", f"player {p} took {int(mine.sum())} track tokens worth {points}, but has "
                                    f"pedestal_tokens={int(state.pedestal_tokens[p])}, "
                                    f"pedestal_points={int(state.pedestal_points[p])}")
    if (state.track_taken >= state.num_players).any():
        _fail("pedestal track", f"track taken by unknown players {state.track_taken.tolist()}")
    if sorted(state.track_value.reshape(-1).tolist()) != sorted(pack.pedestal_tokens):
        _fail("pedestal track", f"point tokens {sorted(state.track_value.reshape(-1).tolist())} are not the "
                                f"pack's {sorted(pack.pedestal_tokens)}")


def _bfs_reach(state: GameState) -> np.ndarray:
    """Each player's network recomputed: tile squares connected to the gate by shared sides."""
    nb = state.game.geo.neighbours
    occupied = state.kind > EMPTY
    occupied[-1] = False
    reach = np.zeros_like(state.reach)
    for p, gate in enumerate(state.gate_sq):
        if gate < 0:
            continue
        seen = reach[p]
        seen[gate] = True
        todo = deque([int(gate)])
        while todo:
            s = todo.popleft()
            for t in nb[s]:
                if occupied[t] and not seen[t]:
                    seen[t] = True
                    todo.append(int(t))
    return reach


def _check_networks(state: GameState) -> None:
    """Networks: the engine's reach equals a fresh BFS from each gate over tile squares; no square is
    in two players' networks unless they are teammates."""
    geo, game = state.game.geo, state.game
    reach = _bfs_reach(state)
    for p in range(state.num_players):
        diff = np.flatnonzero(reach[p] != state.reach[p])
        if len(diff):
            sq = int(diff[0])
            _fail("networks", f"player {p}'s reach at {geo.rc(sq)} is {bool(state.reach[p, sq])}, a BFS from "
                              f"the gate says {bool(reach[p, sq])} ({len(diff)} squares differ)")
    for p in range(state.num_players):
        for q in range(p + 1, state.num_players):
            if q in game.teammates[p]:
                continue
            both = np.flatnonzero(state.reach[p] & state.reach[q])
            if len(both):
                _fail("networks", f"square {geo.rc(int(both[0]))} is in the networks of players {p} and {q}")


def _check_trollsmoot(state: GameState) -> None:
    """Trollsmoot: a slot is filled only if the two beneath are; tokens on a troll never exceed its
    card's symbols; an empty slot holds nothing; no card twice."""
    game = state.game
    filled = state.smoot >= 0
    symbols = game.card_symbols[np.maximum(state.smoot, 0)] * filled[:, :, None]
    over = state.tokens > symbols
    unsupported = filled[:, _RESTING] & ~(filled[:, _BENEATH_A] & filled[:, _BENEATH_B])
    for p in range(state.num_players):
        smoot = state.smoot[p]
        if unsupported[p].any():
            s = _RESTING[int(np.argmax(unsupported[p]))]
            support = SMOOT_SUPPORT[s]
            _fail("trollsmoot shape", f"player {p}'s slot {s} is filled but slots {support} beneath hold "
                                      f"{[int(smoot[b]) for b in support]}")
        if over[p].any():
            s = int(np.flatnonzero(over[p].any(axis=1))[0])
            what = f"troll {game.cards[smoot[s]].name}" if smoot[s] >= 0 else "empty slot"
            _fail("troll tokens", f"player {p}'s {what} in slot {s} holds {state.tokens[p, s].tolist()}, "
                                  f"more than its symbols {symbols[p, s].tolist()}")
        cards = smoot[filled[p]].tolist()
        if len(cards) != len(set(cards)):
            _fail("trollsmoot", f"player {p} holds a card twice: {cards}")


def _check_draft(state: GameState) -> None:
    """Starter trolls: each player's six are in the starting row, the draft hand or the draft deck, each
    once; the starting row holds only starters and the rows above only horde trolls; once the draft is
    over the hands and decks are empty and every starting row is full."""
    game = state.game
    n0, row0 = game.n_starters, TROLLSMOOT_ROWS[0]
    drafting = state.phase in (Phase.GATE, Phase.DRAFT)
    for p in range(state.num_players):
        smoot = state.smoot[p].tolist()
        placed = [c for c in smoot[:row0] if c >= 0]
        if any(c >= n0 for c in placed) or any(0 <= c < n0 for c in smoot[row0:]):
            _fail("trollsmoot", f"player {p}'s trollsmoot {smoot}: starters (cards 0..{n0 - 1}) belong in the "
                                f"starting row (slots 0..{row0 - 1}) and only there")
        if len(placed) != state.draft_placed[p]:
            _fail("draft", f"player {p} placed {len(placed)} starters but draft_placed is {state.draft_placed[p]}")
        held = placed + list(state.draft_hand[p]) + list(state.draft_deck[p])
        if drafting and sorted(held) != list(range(n0)):
            _fail("draft", f"player {p}'s starters placed {placed} + hand {state.draft_hand[p]} + deck "
                           f"{state.draft_deck[p]} are not each of the {n0} starters once")
        if not drafting and (len(placed) != row0 or state.draft_hand[p] or state.draft_deck[p]):
            _fail("draft", f"after the draft player {p} has starters {placed}, hand {state.draft_hand[p]}, deck "
                           f"{state.draft_deck[p]} (expected {row0} placed, an empty hand and deck)")


def _check_horde(state: GameState) -> None:
    """Horde: each horde troll is in exactly one place (decks, horde, a trollsmoot, or in the hand of
    the recruiting player while they choose a pedestal); bribes lie only on
    trolls, and below the retire threshold except in the middle of a recruit."""
    game = state.game
    cards = _horde_cards(state)
    want = len(game.pack.horde_trolls)
    if len(cards) != want or len(set(cards)) != want:
        dup = sorted({c for c in cards if cards.count(c) > 1})
        _fail("horde trolls", f"{len(cards)} horde cards in decks + horde + trollsmoots (duplicates {dup}), "
                              f"the pack has {want}")
    bribes = state.horde_bribes.sum(axis=1)
    stray = (bribes > 0) & (state.horde < 0)
    if stray.any():
        _fail("horde bribes", f"bribes on empty horde slots {np.flatnonzero(stray).tolist()}")
    if state.decision_kind() not in _MID_RECRUIT and (bribes >= game.retire_bribes).any():
        h = int(np.flatnonzero(bribes >= game.retire_bribes)[0])
        _fail("horde bribes", f"horde slot {h} holds {int(bribes[h])} bribes, the retire threshold is "
                              f"{game.retire_bribes} (phase {state.decision_kind()})")
    for lvl in range(3):
        wrong = [c for c in state.decks[lvl] if game.card_level[c] != lvl + 1]
        if wrong:
            _fail("horde decks", f"deck {lvl + 1} holds cards {wrong[:3]} of another level")
        if not 0 <= state.deck_unseen[lvl] <= len(state.decks[lvl]):
            _fail("horde decks", f"deck {lvl + 1}: {state.deck_unseen[lvl]} unseen of {len(state.decks[lvl])}")


def _check_spells(state: GameState) -> None:
    """Spells: spellbook + spell deck hold each spell once; runes only on spells, never past the
    disintegration count (and below it once a spell has finished)."""
    game = state.game
    spells = [int(s) for s in state.spellbook if s >= 0] + list(state.spell_deck)
    if sorted(spells) != list(range(len(game.pack.spells))):
        _fail("spells", f"spellbook {state.spellbook.tolist()} + deck {state.spell_deck} is not each of the "
                        f"{len(game.pack.spells)} spells once")
    if ((state.spellbook < 0) & (state.spell_runes > 0)).any():
        _fail("spells", f"runes on an empty spellbook position: {state.spell_runes.tolist()}")
    limit = game.runes_to_disintegrate
    casting = -1 if state.pending.spell is None else state.pending.spell
    for i, runes in enumerate(state.spell_runes):
        if runes > limit or (runes == limit and i != casting):
            _fail("spells", f"spellbook position {i} holds {int(runes)} runes (disintegrates at {limit})")
    if not 0 <= state.spell_unseen <= len(state.spell_deck):
        _fail("spells", f"{state.spell_unseen} unseen spells of {len(state.spell_deck)}")


def _check_workshops(state: GameState) -> None:
    """Workshops: established ones only on sites, no more of a kind than the pack has."""
    pack = state.game.pack
    established = np.bincount(state.workshop[state.workshop >= 0], minlength=len(pack.workshops))
    for w, shop in enumerate(pack.workshops):
        if established[w] + state.workshop_supply[w] > shop.count:
            _fail("workshops", f"{shop.name}: {int(established[w])} established + {int(state.workshop_supply[w])} "
                               f"in the supply > {shop.count} tiles")
    if state.active_site >= 0 and state.workshop[state.active_site] < 0:
        _fail("workshops", f"active site {state.active_site} has no workshop")


def _check_buried(state: GameState) -> None:
    """Buried resources: printed on the board; gone once a tunnel or hall covers the square."""
    geo = state.game.geo
    printed = np.full(geo.n_squares + 1, -1, np.int8)
    printed[:-1] = geo.side.buried.reshape(-1)
    buried = state.buried
    if ((buried >= 0) & (buried != printed)).any():
        sq = int(np.flatnonzero((buried >= 0) & (buried != printed))[0])
        _fail("buried resources", f"{geo.rc(sq)} holds buried {int(buried[sq])}, the board prints {int(printed[sq])}")
    dug = (buried >= 0) & (state.kind >= TUNNEL)
    if dug.any():
        sq = int(np.flatnonzero(dug)[0])
        _fail("buried resources", f"{geo.rc(sq)} is dug but still holds buried {RESOURCES[int(buried[sq])]}")


def _check_coronation(state: GameState) -> None:
    """Coronation tokens: those taken plus those left are the pack's tokens for this player count."""
    tokens = state.game.pack.coronation_tokens[state.num_players]
    left = list(state.coronation_left)
    if left != list(tokens[len(tokens) - len(left):]):
        _fail("coronation", f"tokens left {left} are not the last of {list(tokens)}")
    if int(state.coronation.sum()) + sum(left) != sum(tokens):
        _fail("coronation", f"taken {state.coronation.tolist()} + left {left} != tokens {list(tokens)}")
    if (state.final_turns_left >= 0) != (not left):
        _fail("coronation", f"final_turns_left={state.final_turns_left} with tokens left {left}")


def _check_decision(state: GameState) -> None:
    """The decision: a terminal state has no legal action; otherwise the legal actions are sorted,
    unique, in range, never the lone forced pass (taken automatically), and the mask agrees."""
    legal = state.legal_actions()
    size = state.game.layout.size
    if state.is_terminal():
        if len(legal) or state.current_player() != -1:
            _fail("decision", f"terminal state with legal actions {legal[:5].tolist()} / player "
                              f"{state.current_player()}")
        return
    if not 0 <= state.current < state.num_players:
        _fail("decision", f"current player {state.current} out of range")
    if len(legal) == 0:
        _fail("decision", f"no legal action in phase {state.decision_kind()}")
    if len(legal) == 1 and legal[0] == 0:
        _fail("decision", f"the only legal action is pass in phase {state.decision_kind()} (should be automatic)")
    if (np.diff(legal) <= 0).any() or legal[0] < 0 or legal[-1] >= size:
        _fail("decision", f"legal actions not sorted, unique and in 0..{size - 1}")
    mask = state.legal_mask()
    if int(mask.sum()) != len(legal) or not mask[legal].all():
        _fail("decision", "legal_mask disagrees with legal_actions")


def _check_score(state: GameState) -> None:
    """The score breakdown adds up: the categories sum to ``total``."""
    for p in range(state.num_players):
        parts = state.score_breakdown(p)
        if sum(parts[c] for c in CATEGORIES) != parts["total"]:
            _fail("score", f"player {p}'s categories {parts} do not add up to the total")
        if any(parts[c] < 0 for c in CATEGORIES):
            _fail("score", f"player {p} has a negative category: {parts}")


def _check_baseline(state: GameState, baseline: ComponentTotals) -> None:
    now = component_totals(state)
    if now.statues != baseline.statues:
        _fail("statues", f"statues by clan {list(now.statues)}, setup placed {list(baseline.statues)}")
    if now.workshops != baseline.workshops:
        _fail("workshops", f"{now.workshops} workshops revealed now, {baseline.workshops} at setup")
    for field in ("tokens", "pedestals", "tunnel_tiles", "horde_trolls", "spells"):
        if getattr(now, field) != getattr(baseline, field):
            _fail("component totals", f"{field} {getattr(now, field)} != at setup {getattr(baseline, field)}")


_CHECKS = (_check_counts, _check_tokens, _check_statues, _check_tiles, _check_pedestals, _check_networks,
           _check_trollsmoot, _check_draft, _check_horde, _check_spells, _check_workshops, _check_buried,
           _check_coronation, _check_decision, _check_score)


# ================================================================================================
# one step
# ================================================================================================
def check_step(before: GameState, after: GameState) -> None:
    """Raise :class:`InvariantError` if the change from ``before`` to ``after`` (one decision and the
    forced passes after it) breaks an invariant: honour, coronation and pedestal points never fall;
    tunnel honour rises only by digging, by the honour chart's value for the tunnel dug (size x one
    mineral); statues never appear or vanish."""
    pack = before.game.pack
    for name in ("honour", "coronation", "pedestal_points", "pedestal_tokens"):
        old, new = getattr(before, name), getattr(after, name)
        if (new < old).any():
            _fail(f"{name} fell", f"{old.tolist()} -> {new.tolist()}")
    new_tiles = after.tile_shape[len(before.tile_shape):]
    tunnels = [s for s in new_tiles if s >= 0]
    gained = after.honour.astype(np.int64) - before.honour
    if len(tunnels) > 1:
        _fail("tunnel honour", f"{len(tunnels)} tunnels dug by one decision")
    if not tunnels:
        if gained.any():
            _fail("tunnel honour", f"honour {before.honour.tolist()} -> {after.honour.tolist()} without a dig")
    else:
        size = pack.tunnels[tunnels[0]].size
        values = {pack.tunnel_honour[size][m] for m in MINERALS}
        p = before.current
        others = np.delete(gained, p)
        if others.any() or int(gained[p]) not in values:
            _fail("tunnel honour", f"player {p} dug a size-{size} tunnel (chart {sorted(values)}) and honour "
                                   f"went {before.honour.tolist()} -> {after.honour.tolist()}")
    statues = np.bincount(after.statue[after.statue >= 0], minlength=len(CLANS))
    statues0 = np.bincount(before.statue[before.statue >= 0], minlength=len(CLANS))
    if (statues != statues0).any():
        _fail("statues", f"statues by clan {statues0.tolist()} -> {statues.tolist()}")


# ================================================================================================
# the end
# ================================================================================================
def check_end(state: GameState) -> None:
    """Raise :class:`InvariantError` if a finished game's ranks and returns disagree with the scores:
    someone ranks first; more honour never ranks worse; the best return goes exactly to the players
    ranked first (all equal when everyone ties: a drawn team game pays 0); teammates share both."""
    if not state.is_terminal():
        _fail("game end", "the game is not over")
    n, game = state.num_players, state.game
    ranks, returns = state.ranks(), state.returns()
    totals = [state.score_breakdown(p)["total"] for p in range(n)]
    if min(ranks) != 0 or not all(0 <= r < n for r in ranks):
        _fail("game end", f"ranks {ranks} (totals {totals})")
    for p in range(n):
        for q in range(n):
            if totals[p] > totals[q] and ranks[p] > ranks[q]:
                _fail("game end", f"player {p} has more honour than {q} ({totals}) but ranks worse ({ranks})")
    best = max(returns)
    first = [p for p in range(n) if ranks[p] == 0]
    if len(first) < n and [p for p in range(n) if returns[p] == best] != first:
        _fail("game end", f"returns {returns} do not favour the winners {first} (ranks {ranks})")
    if len(first) == n and len(set(returns)) != 1:
        _fail("game end", f"everyone ties but returns differ: {returns}")
    for p in range(n):
        for q in game.teammates[p]:
            if ranks[p] != ranks[q] or returns[p] != returns[q]:
                _fail("game end", f"teammates {p} and {q}: ranks {ranks}, returns {returns}")
