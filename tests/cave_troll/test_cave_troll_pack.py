"""The content pack: the default lair and counters, and the loader's errors (file, field, what is allowed)."""

import json
import shutil
from collections import Counter

import pytest

from mk_env.cave_troll.rules import Game, PackError, load_pack
from mk_env.cave_troll.rules.pack import DEFAULT_PACK_DIR


def test_the_default_lair():
    """Thirty-three rooms worth 1 to 5 gold (a few worth 5), four entrances, a pit joined to the rooms
    round it; every room reachable from an entrance."""
    lair = load_pack().lair
    gold = [lair.gold[r] for r in range(lair.n_rooms)]
    assert lair.n_rooms == 33 and min(gold) == 1 and max(gold) == 5 and 2 <= gold.count(5) <= 5
    assert len(lair.entrances) == 4 and lair.pit == lair.size - 1
    assert len(lair.doors[lair.pit]) == 8 and all(lair.gold[r] >= 4 for r in lair.doors[lair.pit])
    for e in lair.entrances:
        assert set(lair.reach[e]) >= set(lair.entrances) - {e}


def test_the_default_artifacts_and_their_gold():
    pack = load_pack()
    assert {a.name: a.gold for a in pack.artifacts} == {
        "Helm of Mind Control": 3, "Chalice of Teleportation": 3, "Idol of El'darr": 4, "Wand of Speed": 3,
        "Cloak of Invisibility": 2, "Sword of Slaying": 3}
    assert len(pack.colours) == 4 and pack.slots == 20 and Counter(pack.slot_names)["Explorer"] == 10


def _broken(tmp_path, file, edit):
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, folder)
    data = json.loads((folder / file).read_text())
    edit(data)
    (folder / file).write_text(json.dumps(data))
    return folder


@pytest.mark.parametrize("file, edit, message", [
    ("lair.json", lambda d: d["rooms"][3].update(gold=99), r"lair.json: rooms\[3\].gold: 99 is above the maximum 50"),
    ("lair.json", lambda d: d["doorways"].append(["R01", "R99"]), r"doorways\[\d+\]\[1\]: 'R99' is not a room"),
    ("lair.json", lambda d: d["rooms"][1].update(name="R01"), "location name 'R01' is used twice"),
    ("lair.json", lambda d: d["entrances"][0].update(doorways=["R01"]),  # R05's only doorway
     "room 'R05' cannot be reached from an entrance"),
    ("lair.json", lambda d: d["pit"].update(doorways=[]), "pit.doorways: the pit must open onto at least one room"),
    ("lair.json", lambda d: d["rooms"][0].update(pos=[1, -4]), r"rooms\[0\].pos\[1\]: expected a number"),
    ("counters.json", lambda d: d["counters"][0].update(kind="dragon"), "unknown kind 'dragon'"),
    ("counters.json", lambda d: d["counters"][4].update(count=31), r"counters\[4\].count: 31 is above the maximum 30"),
    ("counters.json", lambda d: d.update(colours=["red"]), "at least 2 colours"),
    ("artifacts.json", lambda d: d["artifacts"].__setitem__(1, d["artifacts"][0]), "listed twice"),
    ("artifacts.json", lambda d: d["artifacts"][2].update(gold=-1), r"artifacts\[2\].gold: -1 is below the minimum 0"),
    ("pack.json", lambda d: d["rules"].update(room_limit=0), r"pack.json: rules.room_limit: 0 is below the minimum 1"),
    ("pack.json", lambda d: d["rules"].update(speed=1), "rules.speed: unknown key"),
    ("pack.json", lambda d: d.update(game="mountain_king"), "not 'cave_troll'"),
])
def test_the_loader_names_the_file_and_field_of_each_fault(tmp_path, file, edit, message):
    with pytest.raises(PackError, match=message):
        load_pack(_broken(tmp_path, file, edit))


def test_a_missing_file_or_folder_is_named(tmp_path):
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, folder)
    (folder / "counters.json").unlink()
    with pytest.raises(PackError, match="counters.json: file not found .*: missing from the pack folder"):
        load_pack(folder)
    with pytest.raises(PackError, match="not a folder"):
        load_pack(tmp_path / "nowhere")


def test_a_replaced_pack_changes_the_game(tmp_path):
    """A variant: seven Explorers, a room limit of four; the engine follows the data."""
    folder = _broken(tmp_path, "counters.json", lambda d: d["counters"][4].update(count=7))
    manifest = json.loads((folder / "pack.json").read_text())
    manifest["rules"]["room_limit"] = 4
    manifest["pack_id"] = "variant"
    (folder / "pack.json").write_text(json.dumps(manifest))
    g = Game(3, pack=folder)
    assert g.pack.slots == 17 and g.pack.rules.room_limit == 4 and len(g.new_initial_state(0).piles[0]) == 17


def test_game_options_are_checked():
    from mk_env.cave_troll.rules import ConfigError
    for bad in (1, 5, True, "4"):
        with pytest.raises(ConfigError, match="num_players must be 2, 3 or 4"):
            Game(bad)
