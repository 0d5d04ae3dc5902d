"""The manifest ``pack.json`` and the whole pack: :func:`load_folder` reads and cross-checks every file of a
pack folder into one :class:`ContentPack` (counts against ``components``, charts against shapes, ...)."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

from mk_env.core.pack_files import inside
from mk_env.mountain_king.rules.actions import HORDE_ROWS, TROLLSMOOT_ROWS
from mk_env.mountain_king.rules.content import MINERALS, N_CLANS, N_TIERS, RESOURCES, BoardSide, ContentPack

from .boards import parse_board
from .cards import _load_halls, _load_trolls, _load_tunnels, _load_workshops
from .fields import (LIMITS, MANIFEST, PackError, read_object, read_int, read_list, _read_json, _read_text, read_str,
                     check_unique)
from .numbers import _check_action_space, _load_coronation, _load_rules
from .spells import _load_spells

#: the JSON files a manifest names (besides the boards), in the order they are loaded
DATA_FILES = ("tunnels", "trolls", "spells", "workshops", "great_halls")
_COMPONENT_KEYS = (
    "tunnel_tiles", "great_halls", "spells", "workshop_kinds", "workshop_tiles", "starter_trolls",
    "horde_trolls", "pedestal_tokens",
)


def _digest(root: Path, files: tuple[str, ...] | list[str]) -> str:
    """sha256 of the pack's files (the manifest is always included), in name order, as hex."""
    digest = hashlib.sha256()
    for rel in sorted({MANIFEST, *files}):
        digest.update(rel.encode("utf-8") + b"\0")
        digest.update((root / rel).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def load_folder(root: Path) -> tuple[ContentPack, tuple[str, ...]]:
    """Read and validate the pack in folder ``root``; also returns the names of its files."""
    if not root.is_dir():
        raise PackError(MANIFEST, "", f"pack folder not found ({root})")
    m = _read_json(root, MANIFEST)
    file = MANIFEST
    read_object(m, file, "", required=(
        "name", "version", "files", "components", "tunnel_honour", "statue_values", "pedestal_multiplier",
        "pedestal_tokens", "coronation_tokens", "supply", "statues_per_clan", "pedestals_per_clan", "rules"))
    name = read_str(m["name"], file, "name")
    version = read_str(m["version"], file, "version")

    files = read_object(m["files"], file, "files", required=("boards", *DATA_FILES))
    board_files = read_list(files["boards"], file, "files.boards")
    if not board_files:
        raise PackError(file, "files.boards", "needs at least one board side")
    rel_files = []
    for i, b in enumerate(board_files):
        read_str(b, file, f"files.boards[{i}]")
        if not b.endswith(".txt"):
            raise PackError(file, f"files.boards[{i}]", f"board maps are .txt files, got {b!r}")
        rel_files.append(b)
    for k in DATA_FILES:
        rel = read_str(files[k], file, f"files.{k}")
        if not rel.endswith(".json"):
            raise PackError(file, f"files.{k}", f"expected a .json file, got {rel!r}")
        rel_files.append(rel)
    check_unique(rel_files, file, "files", "file")
    for rel in rel_files:  # no absolute path, no "..", no link leading out of the folder
        inside(root, rel, file, "files")

    comp = read_object(m["components"], file, "components", required=_COMPONENT_KEYS)
    for k in _COMPONENT_KEYS:
        if k != "horde_trolls":
            read_int(comp[k], file, f"components.{k}", lo=0)
    horde_counts = read_object(comp["horde_trolls"], file, "components.horde_trolls", required=("1", "2", "3"))
    for k, v in horde_counts.items():
        read_int(v, file, f"components.horde_trolls.{k}", 0, LIMITS["horde_per_level"])

    rules = _load_rules(m["rules"], file)
    honour = LIMITS["honour"]
    honour_raw = read_object(m["tunnel_honour"], file, "tunnel_honour", optional=("2", "3", "4", "5"))
    tunnel_honour: dict[int, dict[str, int]] = {}
    for k, row in honour_raw.items():
        read_object(row, file, f"tunnel_honour.{k}", required=MINERALS)
        tunnel_honour[int(k)] = {mn: read_int(row[mn], file, f"tunnel_honour.{k}.{mn}", 0, honour) for mn in MINERALS}
    tunnel_honour = dict(sorted(tunnel_honour.items()))

    statue_values = tuple(read_int(x, file, f"statue_values[{i}]", 0, honour)
                          for i, x in enumerate(read_list(m["statue_values"], file, "statue_values", N_TIERS)))
    pedestal_multiplier = read_int(m["pedestal_multiplier"], file, "pedestal_multiplier", 1,
                               LIMITS["pedestal_multiplier"])
    tokens = read_list(m["pedestal_tokens"], file, "pedestal_tokens")
    if len(tokens) != N_TIERS * N_CLANS:
        raise PackError(file, "pedestal_tokens", f"expected {N_TIERS * N_CLANS} tokens (one per tier and clan), "
                        f"got {len(tokens)}")
    if len(tokens) != comp["pedestal_tokens"]:
        raise PackError(file, "pedestal_tokens", f"{len(tokens)} tokens but components.pedestal_tokens is "
                        f"{comp['pedestal_tokens']}")
    pedestal_tokens = tuple(read_int(x, file, f"pedestal_tokens[{i}]", 0, honour) for i, x in enumerate(tokens))
    if not any(pedestal_tokens):
        raise PackError(file, "pedestal_tokens", "every token is worth 0; at least one must be worth 1 or more (the "
                        "observation scales the pedestal track by the largest token)")
    coronation_tokens = _load_coronation(m["coronation_tokens"], file)

    sup = read_object(m["supply"], file, "supply", required=RESOURCES)
    supply = {r: read_int(sup[r], file, f"supply.{r}", 1, LIMITS["supply"]) for r in RESOURCES}
    statues_per_clan = read_int(m["statues_per_clan"], file, "statues_per_clan", 1, LIMITS["statues_per_clan"])
    pedestals_per_clan = read_int(m["pedestals_per_clan"], file, "pedestals_per_clan", 1,
                              LIMITS["pedestals_per_clan"])

    # --- boards
    boards: dict[str, BoardSide] = {}
    board_file: dict[str, tuple[str, BoardSide]] = {}
    for i, rel in enumerate(board_files):
        board = parse_board(_read_text(root, rel), Path(rel).stem, source=rel)
        if board.name in boards:
            raise PackError(file, f"files.boards[{i}]", f"two boards named {board.name!r}")
        n_statues = N_CLANS * statues_per_clan
        if len(board.statue_spots) >= n_statues:
            raise PackError(rel, "[features]", f"{len(board.statue_spots)} statue spots; there must be fewer than "
                            f"the {n_statues} statues")
        most_revealed = 2 * max(board.player_counts) + 1
        if len(board.workshop_sites) <= most_revealed:
            raise PackError(rel, "[features]", f"{len(board.workshop_sites)} workshop sites; need more than the "
                            f"{most_revealed} workshops revealed for {max(board.player_counts)} players")
        boards[board.name] = board
        board_file[board.name] = (rel, board)
    all_counts = sorted({p for b in boards.values() for p in b.player_counts})
    for p in all_counts:
        if p not in coronation_tokens:
            raise PackError(file, "coronation_tokens", f"no tokens for {p} players, which a board side allows")

    # --- tunnels
    tunnels = _load_tunnels(_read_json(root, files["tunnels"]), files["tunnels"])
    n_tiles = sum(t.count for t in tunnels)
    if n_tiles != comp["tunnel_tiles"]:
        raise PackError(files["tunnels"], "tunnels", f"{n_tiles} tiles in all; components.tunnel_tiles in "
                        f"{MANIFEST} is {comp['tunnel_tiles']}")
    for t in tunnels:
        if t.size not in tunnel_honour:
            raise PackError(file, "tunnel_honour", f"no row for size {t.size} (tunnel {t.name!r})")

    # --- trolls
    starters, horde = _load_trolls(_read_json(root, files["trolls"]), files["trolls"])
    if len(starters) != comp["starter_trolls"]:
        raise PackError(files["trolls"], "starters", f"{len(starters)} starter trolls; components.starter_trolls "
                        f"in {MANIFEST} is {comp['starter_trolls']}")
    if len(starters) < LIMITS["starters_min"]:
        raise PackError(files["trolls"], "starters", f"{len(starters)} starter trolls; the draft needs at least "
                        f"{LIMITS['starters_min']} (2 dealt, 3 drawn to fill the {TROLLSMOOT_ROWS[0]} slots of the "
                        f"starting row; allowed: {LIMITS['starters_min']}..{LIMITS['starters']})")
    by_level = Counter(t.level for t in horde)
    for lvl in (1, 2, 3):
        want = horde_counts[str(lvl)]
        if by_level[lvl] != want:
            raise PackError(files["trolls"], "horde", f"{by_level[lvl]} Level-{lvl} trolls; "
                            f"components.horde_trolls.{lvl} in {MANIFEST} is {want}")
        if by_level[lvl] < HORDE_ROWS[lvl - 1]:
            raise PackError(files["trolls"], "horde", f"{by_level[lvl]} Level-{lvl} trolls cannot fill a horde "
                            f"row of {HORDE_ROWS[lvl - 1]}")
    # every seat must be able to fill its trollsmoot, or the coronation (the game's end) may never come
    recruits = (sum(TROLLSMOOT_ROWS) - TROLLSMOOT_ROWS[0]) * max(all_counts)
    if len(horde) < recruits:
        raise PackError(files["trolls"], "horde", f"{len(horde)} horde trolls; {max(all_counts)} players "
                        f"filling their trollsmoots recruit {recruits}, so the game could never end")

    # --- spells
    spells = _load_spells(_read_json(root, files["spells"]), files["spells"])
    if len(spells) != comp["spells"]:
        raise PackError(files["spells"], "spells", f"{len(spells)} spells; components.spells in {MANIFEST} is "
                        f"{comp['spells']}")
    if len(spells) < rules["spellbook_size"]:
        raise PackError(files["spells"], "spells", f"fewer spells than the spellbook's {rules['spellbook_size']}")

    # --- workshops
    workshops = _load_workshops(_read_json(root, files["workshops"]), files["workshops"])
    if len(workshops) != comp["workshop_kinds"]:
        raise PackError(files["workshops"], "workshops", f"{len(workshops)} kinds; components.workshop_kinds in "
                        f"{MANIFEST} is {comp['workshop_kinds']}")
    n_ws = sum(w.count for w in workshops)
    if n_ws != comp["workshop_tiles"]:
        raise PackError(files["workshops"], "workshops", f"{n_ws} tiles in all; components.workshop_tiles in "
                        f"{MANIFEST} is {comp['workshop_tiles']}")
    most = 2 * max(all_counts) + 1
    if n_ws < most:
        raise PackError(files["workshops"], "workshops", f"{n_ws} tiles cannot fill the {most} revealed for "
                        f"{max(all_counts)} players")

    # --- great halls
    halls = _load_halls(_read_json(root, files["great_halls"]), files["great_halls"], tunnels)
    if len(halls) != comp["great_halls"]:
        raise PackError(files["great_halls"], "great_halls", f"{len(halls)} halls; components.great_halls in "
                        f"{MANIFEST} is {comp['great_halls']}")

    _check_action_space(board_file, tunnels, halls, spells, workshops, len(starters), rules, files)

    # --- identity: hash of every file of the pack, in name order
    pack_id = f"{name}@{version}+{_digest(root, rel_files)[:12]}"

    return ContentPack(
        pack_id=pack_id,
        boards=boards,
        tunnels=tunnels,
        tunnel_honour=tunnel_honour,
        starter_trolls=starters,
        horde_trolls=horde,
        spells=spells,
        workshops=workshops,
        great_halls=halls,
        statue_values=statue_values,
        pedestal_multiplier=pedestal_multiplier,
        pedestal_tokens=pedestal_tokens,
        coronation_tokens=coronation_tokens,
        supply=supply,
        statues_per_clan=statues_per_clan,
        pedestals_per_clan=pedestals_per_clan,
        rules=rules,
    ), (MANIFEST, *rel_files)
