"""The rule numbers of ``pack.json``: the editable ones with their ranges, the ones the engine's geometry
fixes, the coronation tokens, and the bound on the flat action space a pack may produce."""

from __future__ import annotations

import json
import math
from typing import Any

from mk_env.mountain_king.rules.actions import HORDE_BENEATH, HORDE_ROW, HORDE_ROWS, TROLLSMOOT_ROWS
from mk_env.mountain_king.rules.content import (MINERALS, PLAYER_COUNTS, RESOURCES, TOKEN_KINDS, BoardSide, GreatHall,
                                                Spell, TunnelShape, Workshop)
from mk_env.mountain_king.rules.geometry import orientations

from .fields import LIMITS, MANIFEST, PackError, read_object, read_int, read_list, short_repr

#: Rule keys and the range each may take; the engine reads every one of them (``Game`` and ``ActionLayout``).
#: ``set_size`` must also stay below ``trade_rate`` (final scoring's exact best-sets count relies on it).
RULE_RANGES: dict[str, tuple[int, int]] = {
    "trade_rate": (2, 8),  # 8: 21,021 trade actions; 1 would offer a 1:1 trade of a token for itself
    "set_size": (1, 7),
    "retire_bribes": (1, 20),
    "spellbook_size": (1, 10),
    "runes_to_disintegrate": (1, 10),
}


def _row_bribes(row: int) -> int:
    """Bribes owed to recruit from a full horde row: one per troll beneath (rulebook, *Recruit*)."""
    return len(HORDE_BENEATH[HORDE_ROW.index(row)])


#: Rule keys the engine's geometry fixes, with the only value allowed and why. The trollsmoot and horde
#: pyramids are built into the flat action layout (draft, recruit, slot choices), the observation and the
#: saved states' array shapes (``mk_env/mountain_king/rules/actions.py``); the bribes follow from the horde pyramid.
FIXED_RULES: dict[str, tuple[object, str]] = {
    "trollsmoot_rows": (list(TROLLSMOOT_ROWS), "the trollsmoot pyramid's rows: the action layout, the "
                        "observation and saved states are built on its 10 slots"),
    "horde_rows": (list(HORDE_ROWS), "the horde pyramid's rows: the action layout, the observation and "
                   "saved states are built on its 12 slots"),
    "max_trolls": (sum(TROLLSMOOT_ROWS), "a full trollsmoot: recruiting stops and a coronation token is "
                   "taken when every slot of the pyramid is filled"),
    "bribe_level2": (_row_bribes(1), "one bribe per troll beneath: a Level-2 horde slot rests on 2 "
                     "Level-1 slots"),
    "bribe_level3": (_row_bribes(2), "one bribe per troll beneath: a Level-3 horde slot rests on 2 "
                     "Level-2 and 3 Level-1 slots"),
}


def _load_rules(raw: Any, file: str) -> dict:
    """``pack.json`` ``rules``: each editable number in its range, each fixed one (may be left out) at the
    engine's value; returns every rule key with its value."""
    rules = read_object(raw, file, "rules", required=tuple(RULE_RANGES), optional=tuple(FIXED_RULES))
    for k, (lo, hi) in RULE_RANGES.items():
        read_int(rules[k], file, f"rules.{k}", lo, hi)
    rate, size = rules["trade_rate"], rules["set_size"]
    if size >= rate:
        raise PackError(file, "rules.set_size", f"{size} is not below trade_rate {rate}: final scoring counts the "
                        f"best sets exactly only when a set is smaller than a trade (allowed: 1..{rate - 1})")
    for k, (value, why) in FIXED_RULES.items():
        if k in rules and json.dumps(rules[k]) != json.dumps(value):
            raise PackError(file, f"rules.{k}", f"{short_repr(rules[k])} is not allowed: the engine fixes this number "
                            f"at {json.dumps(value)} ({why}); keep {json.dumps(value)} or leave the key out")
    out = dict(rules)
    for k, (value, _) in FIXED_RULES.items():
        out.setdefault(k, value)
    return out


def _load_coronation(raw: Any, file: str) -> dict[int, tuple[int, ...]]:
    """``pack.json`` ``coronation_tokens``: player count -> token values. Each player takes at most one
    token (the first time the trollsmoot is full) and the last one triggers the end, so a count has 1 to
    that many tokens: more could never all be taken and the game would never end."""
    read_object(raw, file, "coronation_tokens", optional=tuple(str(n) for n in PLAYER_COUNTS))
    out: dict[int, tuple[int, ...]] = {}
    for k, v in raw.items():
        field = f"coronation_tokens.{k}"
        vals = read_list(v, file, field)
        if not 1 <= len(vals) <= int(k):
            raise PackError(file, field, f"{len(vals)} tokens; {k} players can take 1..{k} (one each, and the "
                            "last one ends the game)")
        out[int(k)] = tuple(read_int(x, file, f"{field}[{j}]", 0, LIMITS["honour"]) for j, x in enumerate(vals))
    return dict(sorted(out.items()))


def _check_action_space(boards: dict[str, tuple[str, BoardSide]], tunnels: tuple[TunnelShape, ...],
                        halls: tuple[GreatHall, ...], spells: tuple[Spell, ...], workshops: tuple[Workshop, ...],
                        n_starters: int, rules: dict, files: dict) -> None:
    """Refuse a pack whose flat action space (``ActionLayout``) could exceed ``LIMITS["actions"]`` on some
    board side. The bound adds up each block's size (digs and halls: every square times every
    orientation); the error names the file and field of the largest block."""
    n_res = len(RESOURCES)
    conversions = sum(len(TOKEN_KINDS) * sum(TROLLSMOOT_ROWS) if t.move_from_troll
                      else math.comb(t.give_any + n_res - 1, n_res - 1) if t.give_any else 1
                      for w in workshops for t in w.trades)
    options = max([len(s.params.get("options", ())) for s in spells] + [1])
    fixed = (1 + n_starters * TROLLSMOOT_ROWS[0] + rules["spellbook_size"] + options + len(workshops)
             + n_res + 3 * len(MINERALS) + sum(TROLLSMOOT_ROWS) + sum(HORDE_ROWS) * (1 + sum(TROLLSMOOT_ROWS[1:])))
    tunnel_orients = sum(len(orientations(t.cells, None)) for t in tunnels)
    hall_orients = sum(len(orientations(h.cells, None)) for h in halls)
    for name, (rel, board) in boards.items():
        squares = board.height * board.width
        parts = {  # block: (most actions, file, field that sets it)
            "trade": (math.comb(rules["trade_rate"] + n_res - 1, n_res - 1) * n_res, MANIFEST, "rules.trade_rate"),
            "workshop_use": (conversions, files["workshops"], "workshops"),
            "dig": (squares * tunnel_orients, files["tunnels"], "tunnels"),
            "hall": (squares * hall_orients, files["great_halls"], "great_halls"),
            "board squares": (4 * squares, rel, "[tiers]"),  # gates, workshop sites, statue choices
            "the rest": (fixed, MANIFEST, "rules"),
        }
        total = sum(n for n, _, _ in parts.values())
        if total > LIMITS["actions"]:
            block, (n, file, field) = max(parts.items(), key=lambda kv: kv[1][0])
            raise PackError(file, field, f"board side {name!r} could have up to {total:,} actions (the {block} "
                            f"block up to {n:,}); the action space is limited to {LIMITS['actions']:,}")
