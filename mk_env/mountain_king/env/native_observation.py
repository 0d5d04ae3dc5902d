"""The compiled observation writer (``mk_env/mountain_king/native/observe.cpp``): the same float32 vector as
:meth:`Observer.encode_flat <mk_env.mountain_king.env.observation.Observer.encode_flat>`, written in C++ straight
into a caller's buffer from a state of the compiled engine.

Its tables are read off a built Python :class:`~mk_env.mountain_king.env.observation.Observer` (the offsets of
each declared feature, the scales, the card and square lookup tables), so the layout stays the one
:mod:`~mk_env.mountain_king.env.features` declares. It serves only the features it was written for
(:data:`COMPILED_FEATURES`): an observer whose declarations differ (a feature added or removed, a feature
filled by a declared count, the payment features of ``payment="choose"``) keeps the Python encoder, and
:func:`compiled_writer` says why. ``tests/native/test_native_observation.py`` holds the two to the same bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from mk_env.mountain_king.rules import native as native_rules

from .features import PARTS, TURN_CAP

if TYPE_CHECKING:
    from .observation import Observer

#: per array, the features the compiled writer fills, in declaration order
COMPILED_FEATURES = {
    "board": ("on_board", "heart", "tier", "workshop_site", "rubble", "buried", "statue", "statue_buried",
              "pedestal", "gate", "tunnel", "great_hall", "altar", "network", "same_tunnel", "workshop",
              "pending_dig", "pending_statue", "pending_sites", "active_workshop", "used_workshop"),
    "horde": ("card", "bribes", "pedestal"),
    "trollsmoots": ("card", "tokens"),
    "players": ("storage", "pedestals", "owned", "scores", "trolls", "gate_placed", "teammate", "acting",
                "draft_placed"),
    "spellbook": ("spell", "present", "runes"),
    "supply": ("supply", "tunnels", "hall", "workshop", "bag", "deck", "spell_deck", "coronation_tokens"),
    "pedestal_track": ("value", "taken"),
    "turn": ("phase", "spell_cast", "workshops_left", "uses_left", "bribe_any", "ignore_rubble", "free_moves",
             "turn", "coronation_complete", "final_turns_left"),
    "pending": ("spell", "smoot_slot", "horde_slot", "bribes_left", "recruit_card", "dig", "dig_for_spell",
                "statue_move_free", "sites_left"),
    "draft": ("hand", "deck_left"),
}
#: features the writer knows are absent in the games it serves (present only with payment="choose")
_ABSENT = {"pending": ("pay_owed", "pay_chosen")}


def why_not_compiled(ob: Observer) -> str | None:
    """Why ``ob``'s states cannot be written by the compiled writer (None: they can)."""
    if native_rules.MISSING:
        return native_rules.MISSING
    if ob.game.choose_payment:
        return "payment='choose' is not compiled"
    if any(ob._counted.values()):
        return "a feature is filled by a declared count (a Python function)"
    for part in PARTS:
        present = tuple(f.name for f in part.features if f.entry_names(ob) and f.name not in _ABSENT.get(part.key, ()))
        if present != COMPILED_FEATURES.get(part.key):
            return f"the observation's {part.key!r} features are not the compiled writer's"
    if len(PARTS) != len(COMPILED_FEATURES):
        return "the observation's arrays are not the compiled writer's"
    return None


def compiled_writer(ob: Observer) -> Any | None:
    """The compiled writer of ``ob``'s layout (``_native.Observer``), or None where :func:`why_not_compiled`."""
    if why_not_compiled(ob) is not None:
        return None
    return native_rules._native.Observer(observer_tables(ob))


def _start(at: Any) -> int:
    return at.start if isinstance(at, slice) else int(at)


def _offsets(ob: Observer) -> dict[str, int]:
    """The start of each array in the flat vector, each row's width, and each feature's index in its row."""
    start = {key: a for key, (a, _, _) in ob.slices.items()}
    width = {key: shape[-1] for key, (_, _, shape) in ob.slices.items()}
    at = ob.at
    out = {"board": start["board"], "draft": start["draft"], "horde": start["horde"],
           "track": start["pedestal_track"], "pending": start["pending"], "players": start["players"],
           "spellbook": start["spellbook"], "supply": start["supply"], "smoots": start["trollsmoots"],
           "turn": start["turn"], "horde_w": width["horde"], "track_w": width["pedestal_track"],
           "players_w": width["players"], "spellbook_w": width["spellbook"], "smoot_w": width["trollsmoots"],
           "square_lo": ob.square_lo, "square_hi": ob.square_hi}
    prefixes = {"board": "ch_", "horde": "horde_", "trollsmoots": "smoot_", "players": "pl_", "spellbook": "sb_",
                "supply": "su_", "pedestal_track": "tr_", "turn": "tu_", "pending": "pe_", "draft": "dr_"}
    wanted = {"board": ("altar", "network", "same_tunnel", "workshop", "pending_dig", "pending_statue",
                        "pending_sites", "active_workshop", "used_workshop")}
    for key, names in COMPILED_FEATURES.items():
        for name in wanted.get(key, names):
            out[prefixes[key] + name] = _start(getattr(at[key], name))
    return out


def _ints(values: Any) -> list[int]:
    return np.asarray(values, np.int64).ravel().tolist()


def _floats(values: Any) -> np.ndarray:
    return np.ascontiguousarray(values, np.float32).ravel()


def observer_tables(ob: Observer) -> dict[str, Any]:
    """The compiled writer's tables, read off the Python observer ``ob``."""
    game, hw = ob.game, ob.hw
    nbr = np.asarray(ob.nbr_rows, np.int64)
    nbr = np.where(nbr < 0, hw + 1 + nbr, nbr)  # numpy's -1: the sentinel square at the end of a field
    parts = ob.code_parts
    return {
        "size": ob.size, "n": ob.n, "hw": hw, "n_channels": len(ob.channels), "at": _offsets(ob),
        "static_board": _floats(ob.static), "square_table": _floats(ob.square_table),
        "n_codes": int(ob.square_table.shape[1]), "code_kind": _ints(parts["kind"]),
        "code_statue": _ints(parts["statue"]), "code_pedestal": _ints(parts["pedestal"]),
        "code_buried": _ints(parts["buried"]), "rubble_code": _ints(ob.rubble_code), "nbr_rows": _ints(nbr),
        "site_squares": _ints(ob.site_squares), "dig_cells": _ints(ob.dig_cells), "dig_piece": _ints(ob.dig_piece),
        "dig_max_cells": int(np.asarray(ob.dig_cells).shape[1]), "card_features": _floats(ob.card_features),
        "cf_w": int(ob.card_features.shape[1]), "player_scale": _floats(ob.player_scale),
        "supply_scale": _floats(ob.supply_scale), "sym_max": _floats(ob.sym_max),
        "mate_flags": _floats(np.stack(ob.mate_flags)), "storage_of": _ints(game.storage_of),
        "bribe_scale": float(ob.bribe_scale), "runes_scale": float(ob._runes_scale),
        "track_scale": float(ob.track_scale), "max_free_moves": ob.max_free_moves,
        "final_turns_max": ob.final_turns_max, "max_bribes": ob.max_bribes, "max_sites": ob.max_sites,
        "n_starters": float(ob.n_starters), "turn_cap": TURN_CAP,
    }
