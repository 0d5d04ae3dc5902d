"""Hostile data packs: each a small mutation of the default pack. Every one is refused with an error naming
the file and the field; none hangs or takes more than 2 GB (they are loaded in one child process limited
to 2 GB of address space, each under a 20-second alarm). A game whose content slips past the loader
cannot make ``apply`` loop either: the engine's guard raises instead."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game, StalledGameError, load_pack
from mk_env.mountain_king.rules.pack import DEFAULT_PACK_DIR, FIXED_RULES, LIMITS, RULE_RANGES
from rules_helpers import play_random

Edit = Callable[[Path], None]


def _json(rel: str, fn: Callable[[dict], None]) -> Edit:
    def edit(root: Path) -> None:
        p = root / rel
        data = json.loads(p.read_text(encoding="utf-8"))
        fn(data)
        p.write_text(json.dumps(data), encoding="utf-8")
    return edit


def _set(rel: str, path: list, value: object) -> Edit:
    def fn(d: dict) -> None:
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return _json(rel, fn)


def _both(*edits: Edit) -> Edit:
    def edit(root: Path) -> None:
        for e in edits:
            e(root)
    return edit


def _raw(rel: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        (root / rel).write_text(text, encoding="utf-8")
    return edit


def _keep_trolls(starters: int, per_level: tuple[int, int, int]) -> Edit:
    """Keep the first trolls of each kind, and say so in the manifest's component counts."""
    def trolls(d: dict) -> None:
        d["starters"] = d["starters"][:starters]
        d["horde"] = [t for lvl, keep in zip((1, 2, 3), per_level)
                      for t in [t for t in d["horde"] if t["level"] == lvl][:keep]]

    def comp(d: dict) -> None:
        d["components"]["starter_trolls"] = starters
        d["components"]["horde_trolls"] = {str(lvl): n for lvl, n in zip((1, 2, 3), per_level)}
    return _both(_json("trolls.json", trolls), _json("pack.json", comp))


def _wide_board(root: Path) -> None:
    """Pad every grid row of the winter side with 45 off-board squares (62 columns)."""
    p = root / "boards/winter.txt"
    lines = p.read_text(encoding="utf-8").splitlines()
    body = lines.index("[tiers]")
    padded = [ln if i <= body or not ln or ln.startswith("[") else ln + "." * 45 for i, ln in enumerate(lines)]
    p.write_text("\n".join(padded) + "\n", encoding="utf-8")


def _greedy_workshops(d: dict) -> None:
    """Ten "spend any 6" trades in every workshop: 924 actions each, over 100,000 in all."""
    for w in d["workshops"]:
        w["trades"] = [{"give_any": 6, "gain": {"stone": 1}}] * 10


RULES = ["rules"]
HOSTILE: list[tuple[str, Edit, str]] = [
    # the reported ones: a pyramid that never fills, and trade rates that blow up the action space
    ("trollsmoot 4-3-2-2, max 11", _both(_set("pack.json", RULES + ["trollsmoot_rows"], [4, 3, 2, 2]),
                                         _set("pack.json", RULES + ["max_trolls"], 11)),
     "pack.json: rules.trollsmoot_rows: [4, 3, 2, 2] is not allowed: the engine fixes"),
    ("max_trolls 11", _set("pack.json", RULES + ["max_trolls"], 11), "pack.json: rules.max_trolls: 11 is not"),
    ("horde rows 5-4-4", _set("pack.json", RULES + ["horde_rows"], [5, 4, 4]), "pack.json: rules.horde_rows: "),
    ("bribe_level2 3", _set("pack.json", RULES + ["bribe_level2"], 3), "pack.json: rules.bribe_level2: 3 is not"),
    ("bribe_level3 true", _set("pack.json", RULES + ["bribe_level3"], True), "pack.json: rules.bribe_level3: "),
    ("trade_rate 30", _set("pack.json", RULES + ["trade_rate"], 30),
     "pack.json: rules.trade_rate: 30 is above the maximum 8 (allowed: 2..8)"),
    ("trade_rate 10**9", _set("pack.json", RULES + ["trade_rate"], 10**9), "pack.json: rules.trade_rate: "),
    ("trade_rate 1", _set("pack.json", RULES + ["trade_rate"], 1), "pack.json: rules.trade_rate: 1 is below"),
    ("trade_rate 4.0", _set("pack.json", RULES + ["trade_rate"], 4.0), "pack.json: rules.trade_rate: expected an"),
    ("set_size 4", _set("pack.json", RULES + ["set_size"], 4), "pack.json: rules.set_size: 4 is not below"),
    ("spellbook 1000", _set("pack.json", RULES + ["spellbook_size"], 1000), "pack.json: rules.spellbook_size: "),
    ("retire_bribes 0", _set("pack.json", RULES + ["retire_bribes"], 0), "pack.json: rules.retire_bribes: 0 is"),
    ("runes true", _set("pack.json", RULES + ["runes_to_disintegrate"], True),
     "pack.json: rules.runes_to_disintegrate: expected an integer"),
    ("three coronation tokens for 2", _set("pack.json", ["coronation_tokens", "2"], [5, 3, 1]),
     "pack.json: coronation_tokens.2: 3 tokens; 2 players can take 1..2"),
    ("coronation for 7", _set("pack.json", ["coronation_tokens", "7"], [5]),
     "pack.json: coronation_tokens.7: unknown key"),
    ("supply 10**6", _set("pack.json", ["supply", "stone"], 10**6), "pack.json: supply.stone: 1000000 is above"),
    ("statues 10**6", _set("pack.json", ["statues_per_clan"], 10**6), "pack.json: statues_per_clan: "),
    ("pedestals 1000", _set("pack.json", ["pedestals_per_clan"], 1000), "pack.json: pedestals_per_clan: "),
    ("no pedestals", _set("pack.json", ["pedestals_per_clan"], 0), "pack.json: pedestals_per_clan: 0 is below"),
    ("worthless pedestal tokens", _set("pack.json", ["pedestal_tokens"], [0] * 15),
     "pack.json: pedestal_tokens: every token is worth 0"),
    ("statue value 10**9", _set("pack.json", ["statue_values", 0], 10**9), "pack.json: statue_values[0]: "),
    ("a 5000-digit number", _raw("pack.json", '{"name": ' + "9" * 5000 + "}"), "pack.json: bad JSON"),
    ("tunnel stack 10**6", _set("tunnels.json", ["tunnels", 0, "count"], 10**6), "tunnels.json: tunnels[0].count: "),
    ("tunnel cell far away", _set("tunnels.json", ["tunnels", 0, "cells"], [[0, 10**6], [0, 10**6 + 1]]),
     "tunnels.json: tunnels[0].cells[0][1]: "),
    ("give any 40", _set("workshops.json", ["workshops", 4, "trades", 0, "give_any"], 40),
     "workshops.json: workshops[4].trades[0].give_any: 40 is above the maximum 6"),
    ("gain 10**9", _set("workshops.json", ["workshops", 0, "trades", 0, "gain"], {"cart": 10**9}),
     "workshops.json: workshops[0].trades[0].gain.cart: "),
    ("action space over the limit", _json("workshops.json", _greedy_workshops),
     "workshops.json: workshops: board side "),
    ("statue moves 10**9", _set("spells.json", ["spells", 13, "params", "moves"], 10**9),
     "spells.json: spells[13].params.moves: "),
    ("1000 spell options", _set("spells.json", ["spells", 0, "params", "options"], [{"stone": 1}] * 1000),
     "spells.json: spells[0].params.options: 1000 items"),
    ("4 starters", _keep_trolls(4, (21, 17, 17)), "trolls.json: starters: 4 starter trolls; the draft needs"),
    ("12 horde trolls", _keep_trolls(6, (5, 4, 3)), "trolls.json: horde: 12 horde trolls; 5 players"),
    ("deep nesting", _raw("trolls.json", "[" * 100_000 + "]" * 100_000), "trolls.json: bad JSON"),
    ("hall honour 10**9", _set("great_halls.json", ["great_halls", 0, "high"], 10**9),
     "great_halls.json: great_halls[0].high: "),
    ("a 2 MB board", _raw("boards/autumn.txt", "# " + "x" * (2 << 20) + "\n"), "boards/autumn.txt: 2097155 bytes"),
    ("a board 62 columns wide", _wide_board, "boards/winter.txt: [tiers]: 15 rows x 62 columns"),
    ("a board outside the pack", _set("pack.json", ["files", "boards", 0], "../winter.txt"), "pack.json: files: "),
    ("trade_rate missing", _json("pack.json", lambda d: d["rules"].pop("trade_rate")),
     "pack.json: rules.trade_rate: missing"),
]

_CHILD = r"""
import json, resource, signal, sys, time
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
from mk_env.mountain_king.rules import load_pack

def alarm(*_):
    raise TimeoutError("took more than 20 s")

signal.signal(signal.SIGALRM, alarm)
out = {}
for folder in sys.argv[1:]:
    t0 = time.perf_counter()
    signal.alarm(20)
    try:
        load_pack(folder)
        result = "loaded"
    except Exception as e:  # the parent checks the kind and the message
        result = f"{type(e).__name__}: {e}"[:400]
    signal.alarm(0)
    out[folder] = [result, time.perf_counter() - t0]
out["maxrss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def hostile_results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Build every hostile pack, load them all in one memory-limited child process."""
    base = tmp_path_factory.mktemp("hostile")
    folders = []
    for i, (_, edit, _) in enumerate(HOSTILE):
        root = base / f"pack{i}"
        shutil.copytree(DEFAULT_PACK_DIR, root)
        edit(root)
        folders.append(str(root))
    env_cmd = [sys.executable, "-c", _CHILD, *folders]
    proc = subprocess.run(env_cmd, capture_output=True, text=True, timeout=300,
                          env={"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    return {"maxrss_kb": out.pop("maxrss_kb"), "by_case": [out[f] for f in folders]}


@pytest.mark.parametrize("i", range(len(HOSTILE)), ids=[name for name, _, _ in HOSTILE])
def test_hostile_pack_is_refused_naming_file_and_field(hostile_results: dict, i: int) -> None:
    _, _, message = HOSTILE[i]
    result, seconds = hostile_results["by_case"][i]
    assert result.startswith("PackError: " + message), result
    assert seconds < 20


def test_no_hostile_pack_takes_more_than_2_gb(hostile_results: dict) -> None:
    assert hostile_results["maxrss_kb"] < 2 << 20


# ------------------------------------------------------------------------------------------- rule numbers


def test_every_rule_number_is_read_or_fixed() -> None:
    """Every key of ``rules`` in the default pack is either ranged (and read by the engine) or fixed."""
    rules = json.loads((DEFAULT_PACK_DIR / "pack.json").read_text(encoding="utf-8"))["rules"]
    assert set(rules) == set(RULE_RANGES) | set(FIXED_RULES)
    game = Game(num_players=4)
    read = {"trade_rate": game.trade_rate, "set_size": game.set_size, "retire_bribes": game.retire_bribes,
            "runes_to_disintegrate": game.runes_to_disintegrate, "spellbook_size": game.layout.sizes["cast"],
            "max_trolls": game.max_trolls}
    assert all(read[k] == rules[k] for k in read)


@pytest.mark.parametrize("key, value", [("trade_rate", 5), ("set_size", 2), ("retire_bribes", 3),
                                        ("spellbook_size", 4), ("runes_to_disintegrate", 2)])
def test_an_editable_rule_number_changes_the_game(tmp_path: Path, key: str, value: int) -> None:
    root = tmp_path / "p"
    shutil.copytree(DEFAULT_PACK_DIR, root)
    _set("pack.json", RULES + [key], value)(root)
    game = Game(num_players=3, pack=str(root))
    read = {"trade_rate": game.trade_rate, "set_size": game.set_size, "retire_bribes": game.retire_bribes,
            "spellbook_size": game.layout.sizes["cast"], "runes_to_disintegrate": game.runes_to_disintegrate}
    assert read[key] == value
    assert play_random(game.new_initial_state(1), np.random.default_rng(1)).is_terminal()  # a whole game


def _at_every_bound(d: dict) -> None:
    """pack.json with every number at the top of its range (the counts of the other files to match)."""
    d["rules"].update(trade_rate=8, set_size=7, retire_bribes=1, spellbook_size=10, runes_to_disintegrate=1)
    top = LIMITS["honour"]
    d["supply"] = {k: LIMITS["supply"] for k in d["supply"]}
    d.update(statues_per_clan=LIMITS["statues_per_clan"], pedestals_per_clan=LIMITS["pedestals_per_clan"],
             statue_values=[top] * 5, pedestal_multiplier=LIMITS["pedestal_multiplier"], pedestal_tokens=[top] * 15,
             coronation_tokens={str(n): [top] * n for n in range(2, 6)},
             tunnel_honour={k: {m: top for m in v} for k, v in d["tunnel_honour"].items()})
    d["components"].update(tunnel_tiles=8 * LIMITS["tile_count"], workshop_tiles=11 * LIMITS["tile_count"])


def _workshops_at_every_bound(d: dict) -> None:
    for w in d["workshops"]:
        w["count"] = LIMITS["tile_count"]
    d["workshops"][4]["trades"] = [{"give_any": LIMITS["give_any"], "gain": {"hammer": LIMITS["amount"]}}]


@pytest.mark.parametrize("players", [2, 5])
def test_a_pack_at_every_bound_plays_whole_games(tmp_path: Path, players: int) -> None:
    """The bounds are usable together: no count overflows its type, the game ends, the env encodes it."""
    import mk_env

    root = tmp_path / "p"
    shutil.copytree(DEFAULT_PACK_DIR, root)
    _both(_json("pack.json", _at_every_bound), _json("workshops.json", _workshops_at_every_bound),
          _json("tunnels.json", lambda d: [t.update(count=LIMITS["tile_count"]) for t in d["tunnels"]]),
          _json("great_halls.json", lambda d: [h.update(low=LIMITS["honour"], high=LIMITS["honour"])
                                               for h in d["great_halls"]]))(root)
    game = Game(num_players=players, pack=str(root))
    assert game.layout.size <= LIMITS["actions"]
    state = play_random(game.new_initial_state(3), np.random.default_rng(3))
    assert state.is_terminal() and all(state.score_breakdown(p)["total"] > 0 for p in range(players))
    env = mk_env.env(num_players=players, pack=str(root))
    env.reset(seed=3)
    for _ in range(50):
        obs, *_ = env.last()
        assert all(np.isfinite(part).all() for part in obs["observation"].values())
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_fixed_rule_numbers_may_be_restated_or_left_out(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(DEFAULT_PACK_DIR, root)
    _json("pack.json", lambda d: [d["rules"].pop(k) for k in FIXED_RULES])(root)
    pack = load_pack(root)
    assert {k: pack.rules[k] for k in FIXED_RULES} == {k: v for k, (v, _) in FIXED_RULES.items()}


def test_every_limit_and_rule_is_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules-decisions.md").read_text(encoding="utf-8")
    for key in [*LIMITS, *RULE_RANGES, *FIXED_RULES]:
        assert re.search(rf"`{key}`", doc), key


# --------------------------------------------------------------------------------------------- the guard


def test_content_that_cannot_end_raises_instead_of_looping() -> None:
    """A pack built in code skips the loader: with max_trolls 11 no trollsmoot ever counts as full, so
    once both seats have filled their 10 slots every turn is a forced pass; apply raises, never hangs."""
    pack = load_pack()
    bad = dataclasses.replace(pack, rules={**pack.rules, "max_trolls": 11}, pack_id="hostile@1+max11")
    game = Game(num_players=2, pack=bad)
    state = game.new_initial_state(0)
    rng = np.random.default_rng(0)

    def alarm(*_: object) -> None:
        raise TimeoutError("apply looped")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(30)
    try:
        with pytest.raises(StalledGameError, match=r"the game cannot go on: from turn \d+ to \d+ every seat's turn"):
            play_random(state, rng, 5000)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
