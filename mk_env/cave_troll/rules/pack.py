"""Loading and checking a Cave Troll content pack (a folder: ``pack.json`` naming ``lair.json``,
``counters.json`` and ``artifacts.json``). Every error is a :class:`PackError` naming the file, the field
and what is allowed. The JSON readers are the suite's (:mod:`mk_env.core.pack_json`).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from mk_env.core.pack_files import ContentCache, inside, read_json
from mk_env.core.pack_json import PackError, join_field, read_int, read_list, read_object, read_str

from .content import ArtifactSpec, CaveTrollPack, Lair, Rules
from .vocabulary import ADVENTURERS, Artifact, Kind

DEFAULT_PACK_DIR = Path(__file__).resolve().parent.parent / "data" / "default"
MANIFEST = "pack.json"

#: bounds on a pack's numbers (each error names the file, the field and the range)
LIMITS = {
    "file_bytes": 1 << 20, "rooms": 200, "entrances": 8, "gold": 50, "pos": 1000, "colours": 4,
    "count": 30, "slots": 64, "artifact_gold": 50, "name": 80,
}
#: the range of each rule number (``pack.json`` ``rules``)
RULE_RANGES = {
    "actions_per_turn": (1, 10), "room_limit": (1, 20), "treasure_bonus": (0, 50),
    "last_counter_bonus": (0, 50), "helm_steps": (1, 10), "cloak_steps": (1, 5),
}

__all__ = ["DEFAULT_PACK_DIR", "LIMITS", "PackError", "RULE_RANGES", "load_pack"]


def _read(folder: Path, file: str) -> Any:
    """Pack file ``file`` (a name the manifest gave, already confined to the folder) as bounded JSON."""
    return read_json(folder, file, LIMITS["file_bytes"])


def _label(v: Any, file: str, field: str) -> str:
    text = read_str(v, file, field)
    if len(text) > LIMITS["name"]:
        raise PackError(file, field, f"longer than {LIMITS['name']} characters")
    return text


def _pos(v: Any, file: str, field: str) -> tuple[float, float]:
    read_list(v, file, field, length=2)
    for i, x in enumerate(v):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x <= LIMITS["pos"]:
            raise PackError(file, join_field(field, i), f"expected a number in 0..{LIMITS['pos']}, got {x!r}")
    return float(v[0]), float(v[1])


def _kind_name(enum_type: type, v: Any, file: str, field: str) -> Any:
    names = tuple(m.name.lower() for m in enum_type)
    if not isinstance(v, str) or v not in names:
        raise PackError(file, field, f"unknown kind {v!r}; allowed: {', '.join(names)}")
    return enum_type[v.upper()]


def _load_lair(data: Any, file: str) -> Lair:
    read_object(data, file, "", required=("rooms", "entrances", "pit", "doorways"), optional=("name",))
    rooms = read_list(data["rooms"], file, "rooms", most=LIMITS["rooms"])
    if not rooms:
        raise PackError(file, "rooms", "the lair needs at least one room")
    entrances = read_list(data["entrances"], file, "entrances", most=LIMITS["entrances"])
    if not entrances:
        raise PackError(file, "entrances", "the lair needs at least one entrance")
    names: list[str] = []
    pos, gold = [], []
    for i, r in enumerate(rooms):
        f = join_field("rooms", i)
        read_object(r, file, f, required=("name", "gold", "pos"))
        names.append(_label(r["name"], file, join_field(f, "name")))
        gold.append(read_int(r["gold"], file, join_field(f, "gold"), 0, LIMITS["gold"]))
        pos.append(_pos(r["pos"], file, join_field(f, "pos")))
    places = [(join_field("entrances", i), e) for i, e in enumerate(entrances)] + [("pit", data["pit"])]
    for f, e in places:
        read_object(e, file, f, required=("name", "pos", "doorways"))
        names.append(_label(e["name"], file, join_field(f, "name")))
        gold.append(0)
        pos.append(_pos(e["pos"], file, join_field(f, "pos")))
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n in seen:
            raise PackError(file, "names", f"location name {n!r} is used twice")
        seen[n] = i
    n_rooms = len(rooms)
    pairs = [(f, join_field(f, "doorways"), e["doorways"], n_rooms + k) for k, (f, e) in enumerate(places)]
    doors: list[set[int]] = [set() for _ in names]

    def room_of(v: Any, field: str) -> int:
        if not isinstance(v, str) or v not in seen or seen[v] >= n_rooms:
            raise PackError(file, field, f"{v!r} is not a room of the lair (doorways join rooms, or a room "
                                         "to an entrance or the pit)")
        return seen[v]

    for _, field, lst, loc in pairs:
        for j, v in enumerate(read_list(lst, file, field, most=n_rooms)):
            doors[loc].add(room_of(v, join_field(field, j)))
            doors[room_of(v, join_field(field, j))].add(loc)
    for j, d in enumerate(read_list(data["doorways"], file, "doorways", most=n_rooms * n_rooms)):
        f = join_field("doorways", j)
        read_list(d, file, f, length=2)
        a, b = room_of(d[0], join_field(f, 0)), room_of(d[1], join_field(f, 1))
        if a == b:
            raise PackError(file, f, f"a doorway joins two different rooms, got {d[0]!r} twice")
        doors[a].add(b)
        doors[b].add(a)
    ents = tuple(range(n_rooms, n_rooms + len(entrances)))
    _check_reachable(file, names, doors, ents, n_rooms)
    reach = tuple(tuple(sorted(doors[x] | (set(ents) - {x} if x in ents else set()))) for x in range(len(names)))
    return Lair(tuple(names), tuple(pos), tuple(gold), n_rooms, ents, len(names) - 1,
                tuple(tuple(sorted(d)) for d in doors), reach)


def _check_reachable(file: str, names: list[str], doors: list[set[int]], ents: tuple[int, ...],
                     n_rooms: int) -> None:
    """Every room must be reachable from an entrance through doorways (else no adventurer ever gets
    there), and the pit must open onto at least one room (else monsters never leave it)."""
    seen, todo = set(ents), deque(ents)
    pit = len(names) - 1
    while todo:
        x = todo.popleft()
        for y in doors[x]:
            if y not in seen and y != pit:
                seen.add(y)
                todo.append(y)
    for r in range(n_rooms):
        if r not in seen:
            raise PackError(file, "doorways", f"room {names[r]!r} cannot be reached from an entrance")
    if not doors[pit]:
        raise PackError(file, "pit.doorways", "the pit must open onto at least one room")


def _load_counters(data: Any, file: str) -> tuple[tuple[str, ...], tuple[Kind, ...], tuple[str, ...]]:
    read_object(data, file, "", required=("colours", "counters"))
    colours = read_list(data["colours"], file, "colours", most=LIMITS["colours"])
    if len(colours) < 2:
        raise PackError(file, "colours", "at least 2 colours are needed (2-4 players)")
    cols = tuple(_label(c, file, join_field("colours", i)) for i, c in enumerate(colours))
    if len(set(cols)) != len(cols):
        raise PackError(file, "colours", "a colour is named twice")
    kinds: list[Kind] = []
    labels: list[str] = []
    listed: set[Kind] = set()
    for i, c in enumerate(read_list(data["counters"], file, "counters", most=len(Kind))):
        f = join_field("counters", i)
        read_object(c, file, f, required=("kind", "name", "count"))
        kind = _kind_name(Kind, c["kind"], file, join_field(f, "kind"))
        if kind in listed:
            raise PackError(file, join_field(f, "kind"), f"kind {c['kind']!r} is listed twice")
        listed.add(kind)
        n = read_int(c["count"], file, join_field(f, "count"), 0, LIMITS["count"])
        kinds += [kind] * n
        labels += [_label(c["name"], file, join_field(f, "name"))] * n
    if not any(k in ADVENTURERS for k in kinds):
        raise PackError(file, "counters", "each colour needs at least one adventurer")
    if len(kinds) > LIMITS["slots"]:
        raise PackError(file, "counters", f"{len(kinds)} counters per colour; at most {LIMITS['slots']}")
    return cols, tuple(kinds), tuple(labels)


def _load_artifacts(data: Any, file: str) -> tuple[ArtifactSpec, ...]:
    read_object(data, file, "", required=("artifacts",))
    out: list[ArtifactSpec] = []
    for i, a in enumerate(read_list(data["artifacts"], file, "artifacts", most=len(Artifact))):
        f = join_field("artifacts", i)
        read_object(a, file, f, required=("kind", "name", "gold"))
        kind = _kind_name(Artifact, a["kind"], file, join_field(f, "kind"))
        if any(s.kind == kind for s in out):
            raise PackError(file, join_field(f, "kind"), f"artifact {a['kind']!r} is listed twice (one of each)")
        out.append(ArtifactSpec(kind, _label(a["name"], file, join_field(f, "name")),
                                read_int(a["gold"], file, join_field(f, "gold"), 0, LIMITS["artifact_gold"])))
    return tuple(out)


def _load_rules(data: Any) -> Rules:
    read_object(data, MANIFEST, "rules", optional=tuple(RULE_RANGES))
    return Rules(**{k: read_int(v, MANIFEST, join_field("rules", k), *RULE_RANGES[k]) for k, v in data.items()})


def _load(root: Path) -> CaveTrollPack:
    manifest = _read(root, MANIFEST)
    read_object(manifest, MANIFEST, "", required=("pack_id", "files"), optional=("game", "description", "rules"))
    if manifest.get("game", "cave_troll") != "cave_troll":
        raise PackError(MANIFEST, "game", f"this is a pack for {manifest['game']!r}, not 'cave_troll'")
    files = read_object(manifest["files"], MANIFEST, "files", required=("lair", "counters", "artifacts"))
    for k, v in files.items():
        inside(root, v, MANIFEST, join_field("files", k))
    lair = _load_lair(_read(root, files["lair"]), files["lair"])
    colours, kinds, labels = _load_counters(_read(root, files["counters"]), files["counters"])
    artifacts = _load_artifacts(_read(root, files["artifacts"]), files["artifacts"])
    return CaveTrollPack(_label(manifest["pack_id"], MANIFEST, "pack_id"), lair, colours, kinds, labels,
                         artifacts, _load_rules(manifest.get("rules", {})))


def load_pack(pack: str | Path | CaveTrollPack | None = None) -> CaveTrollPack:
    """The pack in folder ``pack`` (None: the default pack), checked; a pack object is returned as is."""
    return _CACHE.load(pack, CaveTrollPack, DEFAULT_PACK_DIR, "Cave Troll")


#: the packs loaded, by folder and content (an edited pack is read again)
_CACHE: ContentCache = ContentCache(_load)
