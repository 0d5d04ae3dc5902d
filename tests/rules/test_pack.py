"""Tests of the content pack loader (mk_env/mountain_king/rules/pack/) and the default pack."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules.content import CLANS, RESOURCES, TOKEN_KINDS, ContentPack
from mk_env.mountain_king.rules.pack import DEFAULT_PACK_DIR, PackError, load_pack, parse_board


@pytest.fixture(scope="module")
def pack() -> ContentPack:
    return load_pack()


# ---------------------------------------------------------------------------------------------- default pack


def test_default_pack_loads_and_is_cached(pack: ContentPack) -> None:
    assert load_pack(None) is pack
    assert load_pack(DEFAULT_PACK_DIR) is pack
    assert load_pack(str(DEFAULT_PACK_DIR)) is pack
    assert re.fullmatch(r"default@1\+[0-9a-f]{12}", pack.pack_id)


def test_components_match_the_component_list(pack: ContentPack) -> None:
    # COMPONENTS: 52 tunnel tiles in stacks of 10, 12, 5, 5, 5, 5, 5, 5 (French component page)
    assert sum(t.count for t in pack.tunnels) == 52
    assert sorted(t.count for t in pack.tunnels) == sorted([10, 12, 5, 5, 5, 5, 5, 5])
    assert all(2 <= t.size <= 5 for t in pack.tunnels)
    assert len(pack.great_halls) == 6
    assert len(pack.spells) == 17
    assert len(pack.workshops) == 11 and all(w.count == 2 for w in pack.workshops)
    assert len(pack.starter_trolls) == 6
    assert Counter(t.level for t in pack.horde_trolls) == {1: 21, 2: 17, 3: 17}
    assert len(pack.pedestal_tokens) == 15
    assert sorted(Counter(pack.pedestal_tokens).values()) == [3, 4, 4, 4]
    assert pack.supply == {"stone": 35, "iron": 35, "heartstone": 30, "coin": 35, "cart": 45, "hammer": 20,
                           "rune": 25}
    assert pack.statues_per_clan == 7 and pack.pedestals_per_clan == 6
    assert pack.coronation_tokens == {2: (3,), 3: (5, 3), 4: (5, 3), 5: (5, 3)}
    assert pack.rules["max_trolls"] == 10 and pack.rules["trade_rate"] == 4


def test_statue_values_are_the_rulebooks(pack: ContentPack) -> None:
    # FINAL SCORING 5: basic value 2 4 6 8 10, on a pedestal 4 8 12 16 20
    assert pack.statue_values == (2, 4, 6, 8, 10)
    assert tuple(v * pack.pedestal_multiplier for v in pack.statue_values) == (4, 8, 12, 16, 20)


def test_tunnel_chart_size_2_scores_nothing(pack: ContentPack) -> None:
    assert pack.tunnel_honour[2] == {"stone": 0, "iron": 0, "heartstone": 0}
    assert pack.tunnel_honour[4] == {"stone": 4, "iron": 6, "heartstone": 8}  # the rulebook's size-4 stone: 4


def test_size_5_tunnels_have_no_anchor(pack: ContentPack) -> None:
    for t in pack.tunnels:
        assert (t.anchor is None) == (t.size == 5)


def test_the_trove_scores_6_or_15_and_a_hall_scores_0_when_empty(pack: ContentPack) -> None:
    halls = {h.name: h for h in pack.great_halls}
    assert (halls["The Trove"].low, halls["The Trove"].high) == (6, 15)
    assert any(h.low == 0 for h in pack.great_halls)  # final scoring example A
    assert all(4 <= len(h.cells) <= 8 for h in pack.great_halls)


def test_spells_are_the_seventeen(pack: ContentPack) -> None:
    effects = {s.name: s.effect for s in pack.spells}
    assert effects["Earth Ritual"] == "gain_choice"
    assert effects["Golden Mask"] == "bribe_any"
    assert effects["Stone-eater Invocation"] == "dig_now"
    assert effects["Ceremony of Ascension"] == "ascension"
    earth = next(s for s in pack.spells if s.id == "earth_ritual")
    assert earth.params == {"options": [{"stone": 3}, {"iron": 2}, {"heartstone": 1}]}
    assert all(s.text for s in pack.spells)


def test_workshops_trade_as_printed(pack: ContentPack) -> None:
    ws = {w.name: w for w in pack.workshops}
    assert ws["Cartwright"].wild_carts_only and not ws["Toolforge"].wild_carts_only
    grinder = {(t.give, t.gain) for t in ws["Stonegrinder"].trades}
    assert grinder == {((("heartstone", 1),), (("stone", 2),)), ((("stone", 2),), (("heartstone", 1),))}
    assert [t.give_any for t in ws["Pickforge"].trades] == [2]
    assert ws["Pickforge"].trades[0].gain == (("hammer", 1),)
    assert ws["Quartermaster"].trades[0].move_from_troll
    assert len(ws["Coinpress"].trades) == 4 and len(ws["Runesmithy"].trades) == 4


def test_trolls_follow_the_card_design(pack: ContentPack) -> None:
    for t in pack.starter_trolls:
        assert t.clan == "starter" and t.level == 0
        assert 1 <= len(t.symbols) <= 2 and 1 <= len(t.starting) <= 3
        assert set(t.starting) <= set(RESOURCES)
    want = {1: {2}, 2: {3}, 3: {4, 5}}
    for t in pack.horde_trolls:
        assert len(t.symbols) in want[t.level], t
        assert set(t.symbols) <= set(TOKEN_KINDS)
        for s in t.symbols:
            if s.startswith("cart_"):
                assert s == f"cart_{t.clan}"
    assert len({t.id for t in pack.horde_trolls}) == 55
    # the rulebook's cascade example: a new troll gains 3 iron, 1 rune and 1 cart
    assert any(Counter(t.symbols) == Counter({"iron": 3, "rune": 1, "cart": 1}) for t in pack.horde_trolls)


# ---------------------------------------------------------------------------------------------- board sides


def _neighbours(b, r: int, c: int):
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < b.height and 0 <= c + dc < b.width:
            yield r + dr, c + dc


def test_board_sides_have_the_designed_features(pack: ContentPack) -> None:
    winter, autumn = pack.boards["winter"], pack.boards["autumn"]
    assert winter.player_counts == (2, 4, 5) and autumn.player_counts == (2, 3)
    assert {k: len(v) for k, v in winter.start_points.items()} == {4: 4, 5: 5}
    assert {k: len(v) for k, v in autumn.start_points.items()} == {3: 3}
    assert len(winter.statue_spots) == 20 and len(autumn.statue_spots) == 12
    assert len(winter.workshop_sites) > 11 and len(autumn.workshop_sites) > 7
    for b in (winter, autumn):
        assert len(b.statue_spots) < 3 * pack.statues_per_clan
        assert not (b.rubble & b.heart).any()
        assert set(np.unique(b.tier[b.on_board & ~b.heart])) == {1, 2, 3, 4, 5}


def test_every_gate_reaches_the_yellow_tier_without_rubble(pack: ContentPack) -> None:
    for b in pack.boards.values():
        sites = set(b.workshop_sites)
        for start in (p for ps in b.start_points.values() for p in ps):
            assert all(q not in sites for q in _neighbours(b, *start))
            seen, stack = {start}, [start]
            while stack:
                r, c = stack.pop()
                for q in _neighbours(b, r, c):
                    if q not in seen and b.tier[q] >= 1 and not b.rubble[q] and q not in sites:
                        seen.add(q)
                        stack.append(q)
            assert any(b.tier[q] == 5 for q in seen), (b.name, start)


def test_statue_spots_run_clockwise_from_the_top(pack: ContentPack) -> None:
    for b in pack.boards.values():
        hr, hc = np.nonzero(b.heart)
        cy, cx = hr.mean(), hc.mean()
        angles = [math.atan2(c - cx, -(r - cy)) % (2 * math.pi) for r, c in b.statue_spots]
        assert angles == sorted(angles)


# ---------------------------------------------------------------------------------------------- parse_board

SMALL_BOARD = """\
# a diamond mountain: tier = 6 - distance from the heart
name: tiny
[tiers]
.....1.....
....121....
...12321...
..1234321..
.123454321.
12345H54321
.123454321.
..1234321..
...12321...
....121....
.....1.....
[features]
.....3.....
...........
...........
....W......
.3...S.....
........S.3
.....h.....
...........
.....S.....
...........
...........
[rubble]
...........
...........
...........
...........
...........
##.........
.....#.....
...........
...........
...........
...........
"""


def test_parse_board_small_ascii_board() -> None:
    b = parse_board(SMALL_BOARD, "tiny")
    assert (b.height, b.width) == (11, 11)
    assert b.heart[5, 5] and b.heart.sum() == 1 and b.tier[5, 5] == 0
    assert b.tier[5, 0] == 1 and b.tier[4, 5] == 5 and b.tier[0, 0] == 0 and not b.on_board[0, 0]
    assert b.start_points == {3: ((0, 5), (4, 1), (5, 10))}
    assert b.player_counts == (2, 3)
    assert b.workshop_sites == ((3, 4),)
    assert b.statue_spots == ((4, 5), (5, 8), (8, 5))  # clockwise from straight up
    assert b.buried[6, 5] == RESOURCES.index("heartstone") and b.rubble[6, 5]
    assert b.rubble.sum() == 3 and b.rubble[5, 0]  # the row starting with '#' is a rubble row, not a comment


def _put(text: str, grid: str, r: int, c: int, ch: str) -> str:
    """Set one character of one grid of a board text."""
    lines = text.splitlines()
    i = lines.index(f"[{grid}]") + 1 + r
    lines[i] = lines[i][:c] + ch + lines[i][c + 1:]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda t: t.replace("........S.3", "....3...S.3"), r"\[features\] row 5 col 4: start point on tier 5"),
        (lambda t: t.replace(".....h.....", ".....x....."), r"\[features\] row 6 col 5: unknown character 'x'"),
        (lambda t: _put(t, "features", 1, 5, "W"), r"\[features\] row 1 col 5: workshop site next to the start"),
        (lambda t: t.replace(".....1.....\n[features]", ".....1....\n[features]"), r"\[tiers\] row 10: has 10"),
        (lambda t: t.replace("12345H54321", "12345554321"), r"\[tiers\]: no heart"),
        (lambda t: _put(t, "tiers", 4, 5, "1"), r"\[tiers\] row 3 col 5: tier 4 touches tier 1"),
        (lambda t: t.replace("name: tiny", "name: big"), r"name: header says 'big'"),
        (lambda t: _put(t, "rubble", 0, 0, "#"), r"\[rubble\] row 0 col 0: rubble off the board"),
        (lambda t: _put(t, "rubble", 0, 5, "#"), r"\[rubble\] row 0 col 5: rubble on a workshop site or start"),
        (lambda t: _put(t, "features", 0, 5, "."), r"players: 3 players need 3 start points"),
    ],
)
def test_parse_board_rejects_bad_maps(edit: Callable[[str], str], field: str) -> None:
    text = edit(SMALL_BOARD)
    assert text != SMALL_BOARD
    with pytest.raises(PackError, match=r"^tiny\.txt: " + field):
        parse_board(text, "tiny", source="tiny.txt")


# ---------------------------------------------------------------------------------------------- broken packs


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, dst)
    return dst


def _edit_json(root: Path, rel: str, fn: Callable[[dict], None]) -> None:
    p = root / rel
    data = json.loads(p.read_text(encoding="utf-8"))
    fn(data)
    p.write_text(json.dumps(data), encoding="utf-8")


def _edit_board(root: Path, rel: str, grid: str, r: int, c: int, ch: str) -> None:
    """Set one character of one grid of a board file."""
    p = root / rel
    lines = p.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"[{grid}]") + 1
    row = start + r
    lines[row] = lines[row][:c] + ch + lines[row][c + 1:]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _first_feature(root: Path, rel: str, ch: str) -> tuple[int, int]:
    lines = (root / rel).read_text(encoding="utf-8").splitlines()
    start = lines.index("[features]") + 1
    for r, line in enumerate(lines[start:]):
        if ch in line:
            return r, line.index(ch)
    raise AssertionError(ch)


def _set(path: list, value) -> Callable[[dict], None]:
    def fn(d: dict) -> None:
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return fn


def _delete(path: list) -> Callable[[dict], None]:
    def fn(d: dict) -> None:
        for k in path[:-1]:
            d = d[k]
        del d[path[-1]]
    return fn


BROKEN_JSON = [
    # (file, edit, expected message prefix)
    ("pack.json", _set(["colour"], "red"), "pack.json: colour: unknown key 'colour'"),
    ("pack.json", _delete(["supply", "rune"]), "pack.json: supply.rune: missing"),
    ("pack.json", _set(["supply", "gold"], 3), "pack.json: supply.gold: unknown key"),
    ("pack.json", _set(["statue_values"], [1, 2, 4, 7]), "pack.json: statue_values: expected 5 items"),
    ("pack.json", _set(["statue_values", 0], "2"), "pack.json: statue_values[0]: expected an integer"),
    ("pack.json", _set(["pedestal_tokens"], [5] * 14), "pack.json: pedestal_tokens: expected 15 tokens"),
    ("pack.json", _set(["rules", "trade_rte"], 4), "pack.json: rules.trade_rte: unknown key"),
    ("pack.json", _set(["rules", "max_trolls"], 9), "pack.json: rules.max_trolls:"),
    ("pack.json", _set(["tunnel_honour", "3", "hammer"], 4), "pack.json: tunnel_honour.3.hammer: unknown key"),
    ("pack.json", _delete(["coronation_tokens", "5"]), "pack.json: coronation_tokens: no tokens for 5 players"),
    ("pack.json", _set(["files", "spells"], "spels.json"), "spels.json: file not found"),
    ("pack.json", _set(["components", "spells"], 16), "spells.json: spells: 17 spells; components.spells"),
    ("tunnels.json", _set(["tunnels", 0, "count"], 9), "tunnels.json: tunnels: 51 tiles"),
    ("tunnels.json", _set(["tunnels", 7, "anchor"], 0), "tunnels.json: tunnels[7].anchor: size-5"),
    ("tunnels.json", _set(["tunnels", 1, "anchor"], 3), "tunnels.json: tunnels[1].anchor: 3 is above"),
    ("tunnels.json", _set(["tunnels", 0, "cells"], [[0, 0], [0, 2]]), "tunnels.json: tunnels[0].cells: cells are not"),
    ("tunnels.json", _set(["tunnels", 0, "cells"], [[0, 0]]), "tunnels.json: tunnels[0].cells: size 1"),
    ("trolls.json", _set(["horde", 0, "symbols", 0], "gold"), "trolls.json: horde[0].symbols[0]: unknown token kind"),
    ("trolls.json", _set(["horde", 6, "symbols", 0], "cart_ice"), "trolls.json: horde[6].symbols[0]: a fire troll"),
    ("trolls.json", _set(["horde", 0, "clan"], "stone"), "trolls.json: horde[0].clan: unknown clan 'stone'"),
    ("trolls.json", _set(["horde", 0, "level"], 2), "trolls.json: horde: 20 Level-1 trolls"),
    ("trolls.json", _delete(["starters", 5]), "trolls.json: starters: 5 starter trolls"),
    ("trolls.json", _set(["starters", 0, "starting"], ["cart_fire"]), "trolls.json: starters[0].starting[0]"),
    ("trolls.json", _set(["horde", 1, "id"], "L1-01"), "trolls.json: starters/horde: duplicate troll id 'L1-01'"),
    ("spells.json", _set(["spells", 3, "effect"], "foo"), "spells.json: spells[3].effect: unknown effect 'foo'; allowed:"),
    ("spells.json", _set(["spells", 0, "params", "options", 0], {"gold": 3}),
     "spells.json: spells[0].params.options[0].gold: unknown key"),
    ("spells.json", _set(["spells", 9, "params"], {"cascade": "no"}), "spells.json: spells[9].params.cascade:"),
    ("spells.json", _set(["spells", 13, "params"], {}), "spells.json: spells[13].params.moves: missing"),
    ("spells.json", _set(["spells", 1, "params"], {"x": 1}), "spells.json: spells[1].params.x: unknown key"),
    ("spells.json", _set(["spells", 0, "id"], "Earth Ritual"), "spells.json: spells[0].id: 'Earth Ritual' is not"),
    ("workshops.json", _set(["workshops", 0, "trades", 0, "give"], {"gold": 1}),
     "workshops.json: workshops[0].trades[0].give.gold: unknown key"),
    ("workshops.json", _set(["workshops", 0, "trades", 0, "gain"], {"cart": 0}),
     "workshops.json: workshops[0].trades[0].gain.cart: 0 is below"),
    ("workshops.json", _delete(["workshops", 10]), "workshops.json: workshops: 10 kinds"),
    ("workshops.json", _set(["workshops", 0, "count"], 3), "workshops.json: workshops: 23 tiles"),
    ("great_halls.json", _set(["great_halls", 0, "altar"], 4), "great_halls.json: great_halls[0].altar: 4 is above"),
    ("great_halls.json", _set(["great_halls", 0, "high"], -1), "great_halls.json: great_halls[0].high:"),
    ("great_halls.json", _set(["great_halls", 0, "cells"], [[0, i] for i in range(9)]),
     "great_halls.json: great_halls[0].cells: size 9"),
    ("great_halls.json", _delete(["great_halls", 5]), "great_halls.json: great_halls: 5 halls"),
]


@pytest.mark.parametrize("rel, edit, message", BROKEN_JSON, ids=[m for _, _, m in BROKEN_JSON])
def test_broken_json_names_file_and_field(tmp_path: Path, rel: str, edit, message: str) -> None:
    root = _copy(tmp_path)
    _edit_json(root, rel, edit)
    with pytest.raises(PackError) as e:
        load_pack(root)
    assert str(e.value).startswith(message), str(e.value)


@pytest.mark.parametrize("rel", ["pack.json", "spells.json", "boards/autumn.txt"])
def test_missing_file_names_it(tmp_path: Path, rel: str) -> None:
    root = _copy(tmp_path)
    (root / rel).unlink()
    with pytest.raises(PackError, match=rf"^{re.escape(rel)}: file not found"):
        load_pack(root)


def test_bad_json_names_file_and_line(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "trolls.json").write_text('{"starters": [,]}', encoding="utf-8")
    with pytest.raises(PackError, match=r"^trolls\.json: line 1 col \d+: bad JSON"):
        load_pack(root)


def test_rubble_on_a_start_point_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    r, c = _first_feature(root, "boards/winter.txt", "5")
    _edit_board(root, "boards/winter.txt", "rubble", r, c, "#")
    with pytest.raises(PackError, match=rf"^boards/winter\.txt: \[rubble\] row {r} col {c}: rubble on a workshop"):
        load_pack(root)


def test_too_many_statue_spots_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    p = root / "boards/autumn.txt"
    lines = p.read_text(encoding="utf-8").splitlines()
    start, end = lines.index("[features]") + 1, lines.index("[rubble]")
    tiers = lines[lines.index("[tiers]") + 1:lines.index("[features]")]
    tiers = [t for t in tiers if t]
    added = 0
    for r in range(start, end):
        if not lines[r]:
            continue
        row = list(lines[r])
        for c, ch in enumerate(row):
            if ch == "." and tiers[r - start][c] in "2345" and added < 9:
                row[c] = "S"
                added += 1
        lines[r] = "".join(row)
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PackError, match=r"^boards/autumn\.txt: \[features\]: 21 statue spots"):
        load_pack(root)


def test_too_few_workshop_sites_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    for _ in range(len(load_pack().boards["winter"].workshop_sites) - 11):
        r, c = _first_feature(root, "boards/winter.txt", "W")
        _edit_board(root, "boards/winter.txt", "features", r, c, ".")
    with pytest.raises(PackError, match=r"^boards/winter\.txt: \[features\]: 11 workshop sites"):
        load_pack(root)


def test_pack_id_follows_the_files(tmp_path: Path, pack: ContentPack) -> None:
    root = _copy(tmp_path)
    assert load_pack(root).pack_id == pack.pack_id
    root2 = _copy(tmp_path / "b")
    _edit_json(root2, "spells.json", _set(["spells", 0, "text"], "changed"))
    other = load_pack(root2)
    assert other.pack_id.startswith("default@1+") and other.pack_id != pack.pack_id


def test_a_pack_edited_on_disk_is_reloaded(tmp_path: Path, pack: ContentPack) -> None:
    """The cache is keyed by content: an edit is seen by the next load, in the same process."""
    root = _copy(tmp_path)
    assert load_pack(root) is pack  # identical files: the very same pack object
    _edit_json(root, "pack.json", _set(["rules", "trade_rate"], 5))
    edited = load_pack(root)
    assert edited.rules["trade_rate"] == 5 and edited.pack_id != pack.pack_id
    assert Game(num_players=3, pack=str(root)).trade_rate == 5
    shutil.copy(DEFAULT_PACK_DIR / "pack.json", root / "pack.json")  # back to the default's bytes
    assert load_pack(root) is pack


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(tmp_path: Path, pack: ContentPack) -> None:
    """Files younger than the settle time are hashed on every load: an edit in the same clock tick shows."""
    root = _copy(tmp_path)
    spells = root / "spells.json"
    for f in root.rglob("*.*"):
        f.touch()  # written just now, as by an editor
    assert load_pack(root) is pack
    stat = spells.stat()
    text = spells.read_text(encoding="utf-8")
    spells.write_text(text.replace("Earth Ritual", "Earth Rituax", 1), encoding="utf-8")
    os.utime(spells, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime
    assert load_pack(root).spells[0].name == "Earth Rituax"


def test_a_broken_edit_is_refused_then_fixed(tmp_path: Path, pack: ContentPack) -> None:
    root = _copy(tmp_path)
    load_pack(root)
    _edit_json(root, "pack.json", _set(["rules", "trade_rate"], 0))
    with pytest.raises(PackError, match="rules.trade_rate: 0 is below the minimum 2"):
        load_pack(root)
    shutil.copy(DEFAULT_PACK_DIR / "pack.json", root / "pack.json")
    assert load_pack(root) is pack


def test_every_clan_has_a_pedestal_tier_slot(pack: ContentPack) -> None:
    # one pedestal point token per (tier, clan) space of the Pedestal track
    assert len(pack.pedestal_tokens) == 5 * len(CLANS)
