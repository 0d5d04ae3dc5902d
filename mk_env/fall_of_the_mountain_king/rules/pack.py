"""Loading and checking a Fall of the Mountain King content pack: a folder whose ``pack.json`` names
``board.json`` (both map sides), ``ancestry.json``, ``champions.json``, ``wheel.json`` and ``clan.json``.
Every error is a :class:`PackError` naming the file, the field and what is allowed.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from mk_env.core.pack_files import ContentCache, inside, read_json
from mk_env.core.pack_json import (PackError, check_unique, join_field, read_int, read_list, read_name,
                                   read_object, read_str)

from .content import Card, Champion, FallPack, MapSide, Rules, Wheel
from .vocabulary import Ability, Space, Symbol, Timing

DEFAULT_PACK_DIR = Path(__file__).resolve().parent.parent / "data" / "default"
MANIFEST = "pack.json"
GAME = "fall_of_the_mountain_king"
FILE_BYTES = 1 << 20
#: any list of a pack holds at most this many items unless a tighter bound applies
MOST = 100
#: the printed numbers of components the rule text fixes
CLANS, DECKS, CARDS, STARTING, GATES = 7, ("0", "I/II", "III"), 73, 5, 7
SIDE_PLAYERS = {"small": (2, 3), "large": (4, 5)}
CAVERNS_PER_DOMAIN = {"small": 3, "large": 4}
GATES_PER_DOMAIN = {"small": (1, 1), "large": (1, 2)}
SYMBOLS = tuple(s.name.lower() for s in Symbol)


def _read(folder: Path, file: str) -> Any:
    """Pack file ``file`` (a name the manifest gave, already confined to the folder) as bounded JSON."""
    return read_json(folder, file, FILE_BYTES)


def _ints(v: Any, file: str, field: str, lo: int, hi: int, length: int | None = None) -> tuple[int, ...]:
    return tuple(read_int(x, file, join_field(field, i), lo, hi)
                 for i, x in enumerate(read_list(v, file, field, length=length, most=MOST)))


def _load_side(v: Any, file: str, field: str, key: str, clans: tuple[str, ...]) -> MapSide:
    read_object(v, file, field, required=("players", "caverns", "links", "lair_spaces", "great_halls"))
    players = _ints(v["players"], file, join_field(field, "players"), 2, 5)
    if tuple(sorted(players)) != SIDE_PLAYERS[key]:
        raise PackError(file, join_field(field, "players"), f"the {key} side is for {SIDE_PLAYERS[key]} players")
    names: list[str] = []
    clan_of: list[int] = []
    gate: list[bool] = []
    for i, c in enumerate(read_list(v["caverns"], file, join_field(field, "caverns"), most=100)):
        f = join_field(join_field(field, "caverns"), i)
        read_object(c, file, f, required=("name", "clan", "gate"))
        names.append(read_str(c["name"], file, join_field(f, "name")))
        clan_of.append(clans.index(read_name(c["clan"], file, join_field(f, "clan"), clans, "clan")))
        if not isinstance(c["gate"], bool):
            raise PackError(file, join_field(f, "gate"), f"expected true or false, got {c['gate']!r}")
        gate.append(c["gate"])
    n = len(names)
    domain = tuple(tuple(i for i in range(n) if clan_of[i] == k) for k in range(len(clans)))
    gates = tuple(tuple(i for i in d if gate[i]) for d in domain)
    lo, hi = GATES_PER_DOMAIN[key]
    for k, d in enumerate(domain):
        if len(d) != CAVERNS_PER_DOMAIN[key]:
            raise PackError(file, join_field(field, "caverns"), f"the {clans[k]} domain has {len(d)} caverns; "
                            f"the {key} side has {CAVERNS_PER_DOMAIN[key]} per domain")
        if not lo <= len(gates[k]) <= hi:
            raise PackError(file, join_field(field, "caverns"), f"the {clans[k]} domain has {len(gates[k])} gate "
                            f"caverns; allowed: {lo}..{hi}")
    lairs = read_list(v["lair_spaces"], file, join_field(field, "lair_spaces"), most=40)
    touches: list[list[int]] = []
    symbols: list[str] = []
    for i, s in enumerate(lairs):
        f = join_field(join_field(field, "lair_spaces"), i)
        read_object(s, file, f, required=("name", "symbol", "touches"))
        names.append(read_str(s["name"], file, join_field(f, "name")))
        symbols.append(read_str(s["symbol"], file, join_field(f, "symbol")))
        touches.append([names.index(read_name(x, file, join_field(join_field(f, "touches"), j), tuple(names[:n]),
                                              "cavern")) for j, x in enumerate(read_list(s["touches"], file,
                                                                                        join_field(f, "touches"),
                                                                                        most=MOST))])
        if not touches[-1]:
            raise PackError(file, join_field(f, "touches"), "a lair space touches at least one cavern")
    check_unique(names, file, field, "location name")
    pairs, pair_symbols = [], []
    for sym in dict.fromkeys(symbols):
        idx = [n + i for i, s in enumerate(symbols) if s == sym]
        if len(idx) != 2:
            raise PackError(file, join_field(field, "lair_spaces"), f"lair symbol {sym!r} is on {len(idx)} spaces; "
                            "lair spaces are paired by matching symbols (exactly 2 each)")
        pairs.append((idx[0], idx[1]))
        pair_symbols.append(sym)
    if len(pairs) < max(players):
        raise PackError(file, join_field(field, "lair_spaces"), f"{len(pairs)} lair pairs; {max(players)} players "
                        "need as many")
    adj: list[set[int]] = [set() for _ in names]
    cav = tuple(names[:n])
    for i, link in enumerate(read_list(v["links"], file, join_field(field, "links"), most=1000)):
        f = join_field(join_field(field, "links"), i)
        read_list(link, file, f, length=2)
        a, b = (names.index(read_name(x, file, join_field(f, j), cav, "cavern")) for j, x in enumerate(link))
        if a == b:
            raise PackError(file, f, f"a link joins two different caverns, got {link[0]!r} twice")
        adj[a].add(b)
        adj[b].add(a)
    for i, t in enumerate(touches):
        for c in t:
            adj[n + i].add(c)
            adj[c].add(n + i)
    _check_connected(file, join_field(field, "links"), names, adj, n)
    halls, hall_names = [], []
    for i, h in enumerate(read_list(v["great_halls"], file, join_field(field, "great_halls"), most=12)):
        f = join_field(join_field(field, "great_halls"), i)
        read_object(h, file, f, required=("name", "touches"))
        hall_names.append(read_str(h["name"], file, join_field(f, "name")))
        t = tuple(names.index(read_name(x, file, join_field(join_field(f, "touches"), j), cav, "cavern"))
                  for j, x in enumerate(read_list(h["touches"], file, join_field(f, "touches"), most=MOST)))
        if len(t) < 2:
            raise PackError(file, join_field(f, "touches"), "a Great Hall is where several caverns meet (2 or more)")
        halls.append(t)
    return MapSide(players, tuple(names), n, tuple(clan_of), gates, domain, tuple(tuple(sorted(a)) for a in adj),
                   tuple(pairs), tuple(pair_symbols), tuple(halls), tuple(hall_names))


def _check_connected(file: str, field: str, names: list[str], adj: list[set[int]], n: int) -> None:
    """Every cavern must be reachable from every other (the gnomes and the trolls move on one map)."""
    seen, todo = {0}, deque([0])
    while todo:
        for y in adj[todo.popleft()]:
            if y < n and y not in seen:
                seen.add(y)
                todo.append(y)
    for c in range(n):
        if c not in seen:
            raise PackError(file, field, f"cavern {names[c]!r} cannot be reached from {names[0]!r}")


def _load_board(data: Any, file: str, clans: tuple[str, ...]) -> tuple[dict[str, MapSide], tuple[int, ...]]:
    read_object(data, file, "", required=("swarm_cycle", "sides"), optional=("name", "clans"))
    cycle = tuple(clans.index(read_name(c, file, join_field("swarm_cycle", i), clans, "clan"))
                  for i, c in enumerate(read_list(data["swarm_cycle"], file, "swarm_cycle", length=len(clans))))
    check_unique([clans[c] for c in cycle], file, "swarm_cycle", "clan")
    sides = read_object(data["sides"], file, "sides", required=tuple(SIDE_PLAYERS))
    return {k: _load_side(sides[k], file, join_field("sides", k), k, clans) for k in SIDE_PLAYERS}, cycle


def _symbol(v: Any, file: str, field: str) -> tuple[Symbol, int] | None:
    if v is None:
        return None
    read_list(v, file, field, length=2)
    sym = Symbol[read_name(v[0], file, join_field(field, 0), SYMBOLS, "symbol").upper()]
    return sym, read_int(v[1], file, join_field(field, 1), 1, 3)


def _card(v: Any, file: str, field: str, rows: int, cols: int) -> Card:
    read_object(v, file, field, required=("cells",))
    cells = tuple(_symbol(x, file, join_field(join_field(field, "cells"), i), )
                  for i, x in enumerate(read_list(v["cells"], file, join_field(field, "cells"), length=rows * cols)))
    if not any(cells):
        raise PackError(file, join_field(field, "cells"), "a card has at least one symbol")
    return Card(rows, cols, cells)


def _load_ancestry(data: Any, file: str) -> tuple[tuple[Card, ...], tuple[Card, ...], int]:
    read_object(data, file, "", required=("card_rows", "card_cols", "start_rows", "start_cols", "grid", "cards",
                                          "starting_cards"))
    shape = {k: read_int(data[k], file, k, 2, 3) for k in ("card_rows", "card_cols", "start_rows", "start_cols")}
    if (shape["card_rows"], shape["card_cols"], shape["start_rows"], shape["start_cols"]) != (2, 2, 2, 3):
        raise PackError(file, "card_rows", "regular cards are 2x2 cells and starting cards 2x3 (the rule text)")
    grid = read_int(data["grid"], file, "grid", 6, 6)
    cards = tuple(_card(c, file, join_field("cards", i), 2, 2)
                  for i, c in enumerate(read_list(data["cards"], file, "cards", length=CARDS)))
    starting = tuple(_card(c, file, join_field("starting_cards", i), 2, 3)
                     for i, c in enumerate(read_list(data["starting_cards"], file, "starting_cards", length=STARTING)))
    for i, c in enumerate(starting):
        if any(s and s[0] == Symbol.ELDER for s in c.cells):
            raise PackError(file, join_field("starting_cards", i), "a starting card has no elder symbol (it could "
                            "never be covered)")
    return cards, starting, grid


def _champion(v: Any, file: str, field: str, deck: int, clans: tuple[str, ...]) -> Champion:
    read_object(v, file, field, required=("name", "clan", "votes", "ability"), optional=("letter",))
    clan = read_name(v["clan"], file, join_field(field, "clan"), clans + ("outsider",), "clan")
    ab = v["ability"]
    f = join_field(field, "ability")
    read_object(ab, file, f, required=("kind",), optional=("amount", "symbol", "strength", "claws", "timing"))
    kind = Ability(read_name(ab["kind"], file, join_field(f, "kind"), tuple(a.value for a in Ability), "ability"))
    timing = Timing(read_name(ab.get("timing", "passive"), file, join_field(f, "timing"),
                              tuple(t.value for t in Timing), "timing"))
    symbol = None
    if kind == Ability.SYMBOL:
        for k in ("symbol", "strength", "claws"):
            if k not in ab:
                raise PackError(file, join_field(f, k), "missing (a symbol ability names its symbol, strength, claws)")
        symbol = Symbol[read_name(ab["symbol"], file, join_field(f, "symbol"), SYMBOLS[:5], "action symbol").upper()]
    needs_amount = kind in (Ability.SUPPLY, Ability.DESPERATION, Ability.HONOR, Ability.VOTES, Ability.ELDER)
    if needs_amount and "amount" not in ab:
        raise PackError(file, join_field(f, "amount"), f"missing (a {kind} ability names its amount)")
    if deck == 2 and timing != Timing.INSTANT:
        raise PackError(file, join_field(f, "timing"), "every wave III champion is instant (the rule text)")
    letter = read_str(v["letter"], file, join_field(field, "letter")) if "letter" in v else ""
    votes = read_int(v["votes"], file, join_field(field, "votes"), 0, 5)
    return Champion(read_str(v["name"], file, join_field(field, "name")), deck,
                    -1 if clan == "outsider" else clans.index(clan), votes,
                    kind, timing, read_int(ab.get("amount", 0), file, join_field(f, "amount"), 0, 10), symbol,
                    read_int(ab.get("strength", 1), file, join_field(f, "strength"), 1, 3),
                    read_int(ab.get("claws", 0), file, join_field(f, "claws"), 0, 3), letter)


def _load_champions(data: Any, file: str, clans: tuple[str, ...]) -> tuple[tuple[Champion, ...], tuple[int, ...]]:
    read_object(data, file, "", required=("yellow_lines", "decks"))
    lines = _ints(data["yellow_lines"], file, "yellow_lines", 1, 50)
    if list(lines) != sorted(set(lines)):
        raise PackError(file, "yellow_lines", "the yellow lines are increasing influence levels")
    decks = read_object(data["decks"], file, "decks", required=DECKS)
    out: list[Champion] = []
    for d, key in enumerate(DECKS):
        f = join_field("decks", key)
        out += [_champion(c, file, join_field(f, i), d, clans)
                for i, c in enumerate(read_list(decks[key], file, f, most=MOST))]
    check_unique([c.name for c in out], file, "decks", "champion name")
    check_unique([c.letter for c in out if c.letter], file, "decks", "letter code")
    return tuple(out), lines


def _load_wheel(data: Any, file: str) -> Wheel:
    read_object(data, file, "", required=("spaces", "honor_tripwire", "breach_tripwire", "boost_track"))
    names = tuple(s.name.lower() for s in Space)
    spaces = tuple(Space[read_name(s, file, join_field("spaces", i), names, "wheel space").upper()]
                   for i, s in enumerate(read_list(data["spaces"], file, "spaces", most=30)))
    if len(spaces) < 4 or spaces[0] != Space.STAR or Space.STAR in spaces[1:]:
        raise PackError(file, "spaces", "the wheel has at least 4 spaces, the star-marked one first and only there")
    n = len(spaces)
    honor, breach = (read_int(data[k], file, k, 0, n - 1) for k in ("honor_tripwire", "breach_tripwire"))
    if honor == breach:
        raise PackError(file, "breach_tripwire", "the two tripwires lie at different places")
    return Wheel(spaces, honor, breach, read_int(data["boost_track"], file, "boost_track", 1, 20))


def _load_clan(data: Any, file: str) -> tuple[tuple[str, ...], tuple, tuple[int, ...], tuple[int, ...]]:
    read_object(data, file, "", required=("board", "vote_tiles", "great_hall_tokens", "elder_table"))
    board = tuple(read_str(c, file, join_field("board", i))
                  for i, c in enumerate(read_list(data["board"], file, "board", length=CLANS)))
    check_unique(list(board), file, "board", "clan")
    tiles = tuple(_ints(t, file, join_field("vote_tiles", i), 0, 30, 3)
                  for i, t in enumerate(read_list(data["vote_tiles"], file, "vote_tiles", length=CLANS)))
    halls = _ints(data["great_hall_tokens"], file, "great_hall_tokens", 0, 30, 12)
    elder = _ints(data["elder_table"], file, "elder_table", 0, 100)
    if len(elder) < 2 or list(elder) != sorted(elder):
        raise PackError(file, "elder_table", "honor by elder symbols 0, 1, 2, ... never decreasing")
    return board, tiles, halls, elder


RULE_RANGES = {"trolls": (8, 60), "champion_bases": (1, 10), "supply_max": (1, 12), "later_fall_honor": (0, 10),
               "hand": (2, 6), "picks": (1, 5), "max_boost": (0, 12)}
RULE_LISTS = {"gnomes": (0, 20, 3), "supply_by_wave": (1, 12, 3), "desperation_spaces": (1, 12, None),
              "invaders_by_wave": (1, 10, 3), "first_fall_honor": (0, 10, 3), "starting_gnome_cards": (0, 7, 4),
              "invasion_cards": (1, 7, 4), "display": (1, 6, 4)}


def _load_rules(data: Any) -> Rules:
    read_object(data, MANIFEST, "rules", optional=tuple(RULE_RANGES) + tuple(RULE_LISTS))
    values: dict[str, Any] = {}
    for k, v in data.items():
        f = join_field("rules", k)
        values[k] = read_int(v, MANIFEST, f, *RULE_RANGES[k]) if k in RULE_RANGES else _ints(v, MANIFEST, f,
                                                                                           *RULE_LISTS[k])
    rules = Rules(**values)
    if rules.hand - rules.picks != 1:
        raise PackError(MANIFEST, "rules.picks", "three picks from four cards: the last card is discarded")
    if sum(rules.gnomes) < max(rules.starting_gnome_cards):
        raise PackError(MANIFEST, "rules.gnomes", f"{sum(rules.gnomes)} gnomes in all; setup puts one on each of up "
                        f"to {max(rules.starting_gnome_cards)} gate cards (rules.starting_gnome_cards), so at "
                        f"least {max(rules.starting_gnome_cards)} are needed")
    return rules


def _load(root: Path) -> FallPack:
    manifest = _read(root, MANIFEST)
    read_object(manifest, MANIFEST, "", required=("pack_id", "files"), optional=("game", "description", "rules"))
    if manifest.get("game", GAME) != GAME:
        raise PackError(MANIFEST, "game", f"this is a pack for {manifest['game']!r}, not {GAME!r}")
    keys = ("board", "ancestry", "champions", "wheel", "clan")
    files = read_object(manifest["files"], MANIFEST, "files", required=keys)
    for k in keys:
        inside(root, files[k], MANIFEST, join_field("files", k))
    clans, tiles, halls, elder = _load_clan(_read(root, files["clan"]), files["clan"])
    sides, cycle = _load_board(_read(root, files["board"]), files["board"], clans)
    for side in sides.values():
        if len(side.halls) > len(halls):
            raise PackError(files["board"], "great_halls", f"{len(side.halls)} Great Hall spaces but only "
                            f"{len(halls)} tokens")
    cards, starting, grid = _load_ancestry(_read(root, files["ancestry"]), files["ancestry"])
    champions, lines = _load_champions(_read(root, files["champions"]), files["champions"], clans)
    rules = _load_rules(manifest.get("rules", {}))
    per_deck = [sum(c.deck == d for c in champions) for d in range(3)]
    if per_deck[0] < 2 * 5 or per_deck[1] < 2 * rules.display[-1] or per_deck[2] < rules.display[-1]:
        raise PackError(files["champions"], "decks", f"decks of {per_deck} cards; 5 players need at least 10 / "
                        f"{2 * rules.display[-1]} / {rules.display[-1]}")
    return FallPack(read_str(manifest["pack_id"], MANIFEST, "pack_id"), sides, clans, cycle, cards, starting, grid,
                    champions, lines, _load_wheel(_read(root, files["wheel"]), files["wheel"]), tiles, halls, elder,
                    rules)


def load_pack(pack: str | Path | FallPack | None = None) -> FallPack:
    """The pack in folder ``pack`` (None: the default pack), checked; a pack object is returned as is."""
    return _CACHE.load(pack, FallPack, DEFAULT_PACK_DIR, "Fall of the Mountain King")


#: the packs loaded, by folder and content (an edited pack is read again)
_CACHE: ContentCache = ContentCache(_load)
