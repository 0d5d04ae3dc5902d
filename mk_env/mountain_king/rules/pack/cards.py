"""The component files besides spells: ``tunnels.json``, ``trolls.json``, ``workshops.json`` and
``great_halls.json``, and whether tunnel tiles can cover a great hall."""

from __future__ import annotations

from typing import Any

from mk_env.mountain_king.rules.content import (RESOURCES, TOKEN_KINDS, TROLL_CLANS, GreatHall, TrollCard, TunnelShape,
                                                Workshop, WorkshopTrade)

from mk_env.mountain_king.rules.geometry import orientations

from .fields import (LIMITS, PackError, _amounts, read_bool, _cells, read_object, read_int, read_list, read_name,
                     read_str, check_unique)

def _load_tunnels(data: Any, file: str) -> tuple[TunnelShape, ...]:
    read_object(data, file, "", required=("tunnels",))
    items = read_list(data["tunnels"], file, "tunnels", most=LIMITS["kinds"])
    out = []
    for i, t in enumerate(items):
        f = f"tunnels[{i}]"
        read_object(t, file, f, required=("name", "count", "cells", "anchor"))
        cells = _cells(t["cells"], file, f + ".cells", 2, 5)
        if len(cells) == 5:
            if t["anchor"] is not None:
                raise PackError(file, f + ".anchor", "size-5 tunnels have no anchor; use null")
            anchor = None
        else:
            if t["anchor"] is None:
                raise PackError(file, f + ".anchor", f"a size-{len(cells)} tunnel needs an anchor")
            anchor = read_int(t["anchor"], file, f + ".anchor", 0, len(cells) - 1)
        out.append(TunnelShape(name=read_str(t["name"], file, f + ".name"),
                               count=read_int(t["count"], file, f + ".count", 1, LIMITS["tile_count"]),
                               cells=cells, anchor=anchor))
    check_unique([t.name for t in out], file, "tunnels", "tunnel name")
    return tuple(out)


def _load_trolls(data: Any, file: str) -> tuple[tuple[TrollCard, ...], tuple[TrollCard, ...]]:
    read_object(data, file, "", required=("starters", "horde"))
    starters = []
    for i, t in enumerate(read_list(data["starters"], file, "starters", most=LIMITS["starters"])):
        f = f"starters[{i}]"
        read_object(t, file, f, required=("id", "name", "clan", "level", "symbols", "starting"))
        if t["clan"] != "starter":
            raise PackError(file, f + ".clan", f"starter trolls have clan 'starter', got {t['clan']!r}")
        read_int(t["level"], file, f + ".level", 0, 0)
        symbols = _troll_symbols(t["symbols"], file, f + ".symbols", 1, 2, "starter")
        starting = read_list(t["starting"], file, f + ".starting")
        if not 1 <= len(starting) <= 3:
            raise PackError(file, f + ".starting", f"expected 1 to 3 starting resources, got {len(starting)}")
        for j, s in enumerate(starting):
            read_name(s, file, f"{f}.starting[{j}]", RESOURCES, "resource")
        starters.append(TrollCard(id=read_str(t["id"], file, f + ".id"), name=read_str(t["name"], file, f + ".name"),
                                  clan="starter", level=0, symbols=symbols, starting=tuple(starting)))
    horde = []
    for i, t in enumerate(read_list(data["horde"], file, "horde", most=3 * LIMITS["horde_per_level"])):
        f = f"horde[{i}]"
        read_object(t, file, f, required=("id", "name", "clan", "level", "symbols"))
        clan = read_name(t["clan"], file, f + ".clan", TROLL_CLANS, "clan")
        level = read_int(t["level"], file, f + ".level", 1, 3)
        symbols = _troll_symbols(t["symbols"], file, f + ".symbols", 1, LIMITS["symbols"], clan)
        horde.append(TrollCard(id=read_str(t["id"], file, f + ".id"), name=read_str(t["name"], file, f + ".name"),
                               clan=clan, level=level, symbols=symbols))
    check_unique([t.id for t in starters + horde], file, "starters/horde", "troll id")
    return tuple(starters), tuple(horde)


def _troll_symbols(v: Any, file: str, field: str, lo: int, hi: int, clan: str) -> tuple[str, ...]:
    read_list(v, file, field)
    if not lo <= len(v) <= hi:
        raise PackError(file, field, f"expected {lo} to {hi} symbols, got {len(v)}")
    for j, s in enumerate(v):
        read_name(s, file, f"{field}[{j}]", TOKEN_KINDS, "token kind")
        # a clan cart symbol only appears on a troll of that clan (rulebook, "Carts")
        if s.startswith("cart_") and s != f"cart_{clan}":
            raise PackError(file, f"{field}[{j}]", f"a {clan} troll cannot carry {s!r}")
    return tuple(v)



def _load_workshops(data: Any, file: str) -> tuple[Workshop, ...]:
    read_object(data, file, "", required=("workshops",))
    out = []
    for i, w in enumerate(read_list(data["workshops"], file, "workshops", most=LIMITS["workshop_kinds"])):
        f = f"workshops[{i}]"
        read_object(w, file, f, required=("name", "count", "trades"), optional=("wild_carts_only", "text"))
        trades = []
        for j, t in enumerate(read_list(w["trades"], file, f + ".trades", most=LIMITS["spell_options"])):
            tf = f"{f}.trades[{j}]"
            if not isinstance(t, dict):
                raise PackError(file, tf, f"expected an object, got {type(t).__name__}")
            if "move_from_troll" in t:
                read_object(t, file, tf, required=("move_from_troll",))
                if t["move_from_troll"] is not True:
                    raise PackError(file, tf + ".move_from_troll", "must be true (or leave the key out)")
                trades.append(WorkshopTrade(move_from_troll=True))
            elif "give_any" in t:
                read_object(t, file, tf, required=("give_any", "gain"))
                trades.append(WorkshopTrade(give_any=read_int(t["give_any"], file, tf + ".give_any", 1,
                                                          LIMITS["give_any"]),
                                            gain=_amounts(t["gain"], file, tf + ".gain")))
            else:
                read_object(t, file, tf, required=("give", "gain"), optional=("give_any", "move_from_troll"))
                trades.append(WorkshopTrade(give=_amounts(t["give"], file, tf + ".give"),
                                            gain=_amounts(t["gain"], file, tf + ".gain")))
        if not trades:
            raise PackError(file, f + ".trades", "a workshop needs at least one trade")
        out.append(Workshop(name=read_str(w["name"], file, f + ".name"),
                            count=read_int(w["count"], file, f + ".count", 1, LIMITS["tile_count"]),
                            trades=tuple(trades),
                            wild_carts_only=read_bool(w.get("wild_carts_only", False), file, f + ".wild_carts_only"),
                            text=read_str(w.get("text", ""), file, f + ".text", nonempty=False)))
    check_unique([w.name for w in out], file, "workshops", "workshop name")
    return tuple(out)


def _load_halls(data: Any, file: str, tunnels: tuple[TunnelShape, ...]) -> tuple[GreatHall, ...]:
    read_object(data, file, "", required=("great_halls",))
    out = []
    for i, h in enumerate(read_list(data["great_halls"], file, "great_halls", most=LIMITS["kinds"])):
        f = f"great_halls[{i}]"
        read_object(h, file, f, required=("name", "cells", "altar", "low", "high"))
        cells = _cells(h["cells"], file, f + ".cells", 4, 8)
        altar = read_int(h["altar"], file, f + ".altar", 0, len(cells) - 1)
        low = read_int(h["low"], file, f + ".low", 0, LIMITS["honour"])
        high = read_int(h["high"], file, f + ".high", low, LIMITS["honour"])
        # a hall is laid over tunnels that exactly fill its shape, so some set of tunnel tiles must tile it
        if not _tileable(cells, tunnels):
            raise PackError(file, f + ".cells", "no set of two or more tunnel tiles covers this shape exactly")
        out.append(GreatHall(name=read_str(h["name"], file, f + ".name"), cells=cells, altar=altar, low=low, high=high))
    check_unique([h.name for h in out], file, "great_halls", "hall name")
    return tuple(out)


def _tileable(cells: tuple[tuple[int, int], ...], tunnels: tuple[TunnelShape, ...]) -> bool:
    """Whether tiles of at least two tunnel tiles (any orientation, within stack counts) cover ``cells``."""
    pieces = [(t.count, sorted(o for o, _, _ in orientations(t.cells, None))) for t in tunnels
              if t.size < len(cells)]

    def solve(left: frozenset, used: tuple[int, ...]) -> bool:
        if not left:
            return True
        first = min(left)  # the top-left uncovered cell must be covered by some tile's first cell
        for k, (count, orients) in enumerate(pieces):
            if used[k] >= count:
                continue
            for o in orients:
                dr, dc = first[0] - o[0][0], first[1] - o[0][1]
                placed = frozenset((r + dr, c + dc) for r, c in o)
                if placed <= left:
                    nxt = used[:k] + (used[k] + 1,) + used[k + 1:]
                    if solve(left - placed, nxt):
                        return True
        return False

    return solve(frozenset(cells), (0,) * len(pieces))
