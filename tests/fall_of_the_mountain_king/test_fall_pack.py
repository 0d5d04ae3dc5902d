"""The content pack: the designed default components as the issue states them, and the loader's errors
(file, field, what is allowed)."""

import json
import shutil
from collections import Counter

import pytest

from mk_env.fall_of_the_mountain_king.rules import Ability, PackError, Symbol, load_pack
from mk_env.fall_of_the_mountain_king.rules.pack import DEFAULT_PACK_DIR


def test_seven_clans_with_three_caverns_on_the_small_side_and_four_on_the_large():
    pack = load_pack()
    assert pack.clans == ("Fire", "Ice", "Moon", "Granite", "Moss", "Hammer", "Mud")
    assert pack.clans[pack.swarm_cycle[0]] == "Moss" and sorted(pack.swarm_cycle) == list(range(7))
    small, large = pack.sides["small"], pack.sides["large"]
    assert small.players == (2, 3) and large.players == (4, 5)
    assert all(len(d) == 3 for d in small.domain) and all(len(d) == 4 for d in large.domain)
    assert all(len(g) == 1 for g in small.gates) and all(len(g) == 2 for g in large.gates)
    assert len(small.lair_pairs) >= 3 and len(large.lair_pairs) >= 5
    for side in (small, large):
        for a, b in side.lair_pairs:
            assert all(c < side.n_caverns for c in side.adjacent[a]) and side.adjacent[a] and side.adjacent[b]
        assert all(len(h) >= 3 for h in side.halls)


def test_the_ancestry_deck_has_73_regular_cards_and_5_starting_cards():
    pack = load_pack()
    assert len(pack.cards) == 73 and len(pack.starting_cards) == 5
    counts = Counter(len([c for c in card.cells if c]) for card in pack.cards)
    assert set(counts) <= {1, 2, 3, 4}
    symbols = Counter(c[0] for card in pack.cards for c in card.cells if c)
    assert symbols[Symbol.ELDER] == 24 and symbols[Symbol.WILD] == 16 and symbols[Symbol.SUPPLY] == 12
    assert all(symbols[a] == 33 for a in (Symbol.ADVANCE, Symbol.BOLSTER, Symbol.INFLUENCE, Symbol.GNOME))
    for card in pack.starting_cards:
        assert card.rows == 2 and card.cols == 3 and not any(c and c[0] == Symbol.ELDER for c in card.cells)


def test_the_champion_decks_hold_10_12_and_6_and_the_two_known_champions():
    pack = load_pack()
    assert Counter(c.deck for c in pack.champions) == {0: 10, 1: 12, 2: 6}
    by_name = {c.name: c for c in pack.champions}
    assert by_name["Firragh The Avalanche"].ability == Ability.AVALANCHE
    assert by_name["Argren Hammerhelm"].ability == Ability.HAMMERHELM
    letters = [c for c in pack.champions if c.letter]
    assert sum(1 for c in letters if c.deck < 2) == 21 and sum(1 for c in letters if c.deck == 2) == 5


def test_the_wheel_vote_tiles_great_hall_tokens_and_elder_table():
    pack = load_pack()
    assert pack.wheel.spaces[0].name == "STAR" and pack.wheel.honor_tripwire != pack.wheel.breach_tripwire
    assert len(pack.vote_tiles) == 7 and all(a >= b >= c for a, b, c in pack.vote_tiles)
    assert len(pack.hall_tokens) == 12
    assert pack.elder_table == (0, 0, 1, 3, 5, 8, 12, 17, 23, 30)


def _broken(tmp_path, file, edit):
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, folder)
    data = json.loads((folder / file).read_text())
    edit(data)
    (folder / file).write_text(json.dumps(data))
    return folder


@pytest.mark.parametrize("file, edit, message", [
    ("board.json", lambda d: d["sides"]["small"]["caverns"][0].update(clan="Stone"),
     r"caverns\[0\].clan: unknown clan"),
    ("board.json", lambda d: d["sides"]["small"]["caverns"].pop(), "the Granite domain has 2 caverns"),
    ("board.json", lambda d: d["sides"]["small"]["links"].append(["Moss Gate", "Moss Gate"]), "two different caverns"),
    ("board.json", lambda d: d["sides"]["large"]["lair_spaces"].pop(), "lair symbol 'Skull' is on 1 spaces"),
    ("board.json", lambda d: d["sides"]["small"].update(players=[2, 3, 4]), "small side is for"),
    ("ancestry.json", lambda d: d["cards"].pop(), r"cards: expected 73 items, got 72"),
    ("ancestry.json", lambda d: d["cards"][5]["cells"].__setitem__(0, ["axe", 1]),
     r"cards\[5\].cells\[0\]\[0\]: unknown symbol"),
    ("ancestry.json", lambda d: d["cards"][5]["cells"].__setitem__(0, ["wild", 7]), r"above the maximum 3"),
    ("ancestry.json", lambda d: d["starting_cards"][0]["cells"].__setitem__(5, ["elder", 1]), "no elder symbol"),
    ("champions.json", lambda d: d["decks"]["III"][0]["ability"].update(timing="passive"),
     "wave III champion is instant"),
    ("champions.json", lambda d: d["decks"]["0"][0]["ability"].update(kind="teleport"), "unknown ability 'teleport'"),
    ("champions.json", lambda d: d["decks"]["0"][1].update(name=d["decks"]["0"][0]["name"]), "duplicate champion name"),
    ("champions.json", lambda d: d["decks"]["III"].pop(), r"decks of \[10, 12, 5\] cards"),
    ("champions.json", lambda d: d["decks"]["0"][2].update(letter=7), r"decks\.0\[2\]\.letter: expected a non-empty"),
    ("wheel.json", lambda d: d["spaces"].__setitem__(3, "star"), "star-marked one first and only there"),
    ("wheel.json", lambda d: d.update(breach_tripwire=d["honor_tripwire"]), "different places"),
    ("clan.json", lambda d: d["vote_tiles"].pop(), r"vote_tiles: expected 7 items"),
    ("clan.json", lambda d: d["elder_table"].reverse(), "never decreasing"),
    ("pack.json", lambda d: d["rules"].update(picks=4), "three picks from four cards"),
    ("pack.json", lambda d: d["rules"].update(speed=1), "rules.speed: unknown key"),
    ("pack.json", lambda d: d.update(game="cave_troll"), "not 'fall_of_the_mountain_king'"),
])
def test_the_loader_names_the_file_and_field_of_each_fault(tmp_path, file, edit, message):
    with pytest.raises(PackError, match=message) as e:
        load_pack(_broken(tmp_path, file, edit))
    assert str(e.value).startswith(file)


def test_a_missing_folder_or_file_is_named(tmp_path):
    with pytest.raises(PackError, match="not a folder"):
        load_pack(tmp_path / "nowhere")
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, folder)
    (folder / "wheel.json").unlink()
    with pytest.raises(PackError, match="wheel.json: file not found .*: missing from the pack folder"):
        load_pack(folder)
