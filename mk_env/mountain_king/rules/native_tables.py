"""The fixed tables of a game, handed to the compiled engine (``mk_env/mountain_king/native/``) once per game:
the board geometry and placement tables, the content, the action layout, the pyramids and the state's field
shapes, all as the Python engine computes them, so both engines read the same data files and the same tables.

:func:`native_support` says why a game cannot run natively (an option or a spell effect the compiled engine
does not implement), or ``None``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .actions import HORDE_BENEATH, HORDE_ROW, RECRUIT_SLOTS, SMOOT_CONE, SMOOT_SUPPORT, TROLLSMOOT_ROWS
from .content import MINERALS, N_RESOURCES, RESOURCES, TOKEN_KINDS
from .fields import ARRAY, FIELDS
from .spells import SPELL_EFFECTS
from .vocabulary import PHASE_NAMES, Block

if TYPE_CHECKING:
    from .game import Game

#: the spell effects, numbered as the compiled engine's ``Effect`` enum
EFFECTS = ("gain_choice", "bribe_any", "dig_now", "ascension", "activate_troll", "collect_bribes", "take_pedestal",
           "free_statue_moves", "extra_workshop", "ignore_rubble")
#: numpy dtypes as the compiled engine names them
_DTYPES = {np.dtype(np.int8): "b", np.dtype(np.int16): "h", np.dtype(np.int32): "i", np.dtype(np.bool_): "?"}


def native_support(game: Game) -> str | None:
    """Why ``game`` cannot run on the compiled engine, or None when it can."""
    if game.choose_payment:
        return 'the payment option "choose" is not compiled yet'
    unknown = sorted({s.effect for s in game.pack.spells} - set(EFFECTS))
    if unknown or set(EFFECTS) != set(SPELL_EFFECTS):
        return f"spell effects {unknown or sorted(set(SPELL_EFFECTS) - set(EFFECTS))} are not compiled"
    if game.n_starters < 2 or len(TROLLSMOOT_ROWS) != 4:
        return "the compiled draft needs at least two starters and a trollsmoot of four rows"
    return None


def _ints(values: Any) -> list[int]:
    return [int(v) for v in np.asarray(values).reshape(-1)]


def _placements(table: Any, index: Any) -> dict[str, Any]:
    sites = [list(s) for s in table.sites]
    ptr = np.cumsum([0] + [len(s) for s in sites]).tolist()
    return {"count": len(table), "max_cells": int(table.cells.shape[1]), "max_nbrs": int(table.nbrs.shape[1]),
            "piece": _ints(table.piece), "size": _ints(table.size), "cells": _ints(table.cells),
            "anchor": _ints(table.anchor), "nbrs": _ints(table.nbrs), "rubble": _ints(table.rubble),
            "sites_ptr": ptr, "sites": [x for s in sites for x in s],
            "index_ptr": _ints(index.ptr), "index": _ints(index.idx)}


def _bundle(bundle: dict) -> list[int]:
    v = [0] * N_RESOURCES
    for name, n in bundle.items():
        v[RESOURCES.index(name)] += int(n)
    return v


def _list_caps(game: Game) -> list[int]:
    """The capacity of each list field the compiled state keeps in its pool (``ListField``'s order)."""
    levels = [sum(1 for c in game.cards if c.level == lvl) for lvl in (1, 2, 3)]
    pack, n = game.pack, game.num_players
    tiles = n + sum(t.count for t in pack.tunnels) + len(pack.great_halls)
    return (levels + [len(pack.spells), tiles, len(game.geo.site_squares) + 2, len(pack.coronation_tokens[n])]
            + [game.n_starters] * (2 * n))


def native_tables(game: Game) -> dict[str, Any]:
    """Every table the compiled engine reads, for ``game``."""
    pack, geo, layout = game.pack, game.geo, game.layout
    spells = pack.spells
    max_size = max(pack.tunnel_honour)
    honour = [[0, 0, 0] for _ in range(max_size + 1)]
    for size, by_mineral in pack.tunnel_honour.items():
        honour[size] = [int(by_mineral[m]) for m in MINERALS]
    conv = layout.conversions
    shapes = game.array_shapes()
    arrays = [f for f in FIELDS if f.kind == ARRAY]
    selection = game.workshop_selection
    names = [w.name for w in pack.workshops]
    return {
        "n_players": game.num_players, "team_mode": game.team_mode, "storage_of": list(game.storage_of),
        "n_storages": game.n_storages, "teammates": [list(m) for m in game.teammates],
        "n_squares": geo.n_squares, "tier": _ints(geo.tier), "neighbours": _ints(geo.neighbours),
        "site_squares": _ints(geo.site_squares), "buried_init": _ints(geo.side.buried),
        "statue_spots": [geo.sq(r, c) for r, c in geo.side.statue_spots],
        "start_sq": [sq for sq, _ in geo.start_points], "start_mark": [m for _, m in geo.start_points],
        "start_clockwise": list(geo.start_clockwise),
        "tunnels": _placements(geo.tunnel_placements, geo.tunnels_beside),
        "halls": _placements(geo.hall_placements, geo.halls_over),
        "tunnel_count": [t.count for t in pack.tunnels], "tunnel_honour": [x for row in honour for x in row],
        "statue_values": list(pack.statue_values), "hall_low": [h.low for h in pack.great_halls],
        "hall_high": [h.high for h in pack.great_halls], "pedestal_tokens": list(pack.pedestal_tokens),
        "coronation_tokens": list(pack.coronation_tokens[game.num_players]),
        "pedestal_multiplier": pack.pedestal_multiplier, "statues_per_clan": pack.statues_per_clan,
        "pedestals_per_clan": pack.pedestals_per_clan, "supply_init": [pack.supply[r] for r in RESOURCES],
        "workshop_count": [w.count for w in pack.workshops],
        "wild_carts_only": [int(w.wild_carts_only) for w in pack.workshops],
        "workshop_selection": {"random": 0, "no_duplicates": 1}.get(selection, 2) if isinstance(selection, str) else 2,
        "chosen_workshops": [] if isinstance(selection, str) else [names.index(x) for x in selection],
        "spell_effect": [EFFECTS.index(s.effect) for s in spells],
        "spell_cascade": [int(bool(s.params.get("cascade"))) for s in spells],
        "spell_moves": [int(s.params.get("moves", 1)) for s in spells],
        "spell_options": [[_bundle(b) for b in s.params.get("options", ())] for s in spells],
        "n_cards": len(game.cards), "n_starters": game.n_starters, "card_level": _ints(game.card_level),
        "card_symbols": _ints(game.card_symbols),
        "card_starting": [[RESOURCES.index(r) for r in c.starting] for c in game.cards],
        "trade_rate": game.trade_rate, "set_size": game.set_size, "retire_bribes": game.retire_bribes,
        "max_trolls": game.max_trolls, "runes_to_disintegrate": game.runes_to_disintegrate,
        "spellbook_size": int(pack.rules.get("spellbook_size", 3)),
        "action_size": layout.size,
        "offset": [layout.offset[b.value] for b in Block if b != Block.PAY_TOKEN],
        "block_size": [layout.sizes[b.value] for b in Block if b != Block.PAY_TOKEN],
        "n_trade_gives": len(layout.trade_gives), "trade_gives": _ints(layout.trade_gives),
        "conv_workshop": [c.workshop for c in conv],
        "conv_give": [x for c in conv for x in (c.give or (0,) * N_RESOURCES)],
        "conv_gain": [x for c in conv for x in c.gain],
        "conv_move_slot": [c.move[0] if c.move else -1 for c in conv],
        "conv_move_kind": [c.move[1] if c.move else -1 for c in conv],
        "smoot_support": [list(s) for s in SMOOT_SUPPORT], "smoot_cone": [list(s) for s in SMOOT_CONE],
        "horde_beneath": [list(s) for s in HORDE_BENEATH], "horde_row": list(HORDE_ROW),
        "recruit_slots": list(RECRUIT_SLOTS),
        "array_names": [f.name for f in arrays], "array_dtypes": [_DTYPES[np.dtype(f.dtype)] for f in arrays],
        "array_shapes": [list(shapes[f.name]) for f in arrays],
        "list_caps": _list_caps(game), "phase_names": list(PHASE_NAMES),
        "token_kinds": len(TOKEN_KINDS),
    }
