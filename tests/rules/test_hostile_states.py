"""Corrupted saves: ``Game.state_from_json`` refuses every impossible state with a StateError naming the
first violated fact and the field (types, shapes and ranges first, then the game's invariants), and still
loads every state a real game reaches, exactly."""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game, StateError
from mk_env.mountain_king.rules.vocabulary import Phase
from rules_helpers import play_random


@pytest.fixture(scope="module")
def saved() -> tuple[Game, dict]:
    """A 3-player game in step 1 of a mid-game turn, with tunnels dug and trolls recruited."""
    game = Game(num_players=3)
    state = play_random(game.new_initial_state(5), np.random.default_rng(5), 60)
    assert not state.is_terminal() and state.next_tile > 3 and (state.smoot[:, 4:] >= 0).any()
    return game, state.to_dict()


def _load(game: Game, data: dict, edit: Callable[[dict], Any]) -> None:
    data = json.loads(json.dumps(data))
    edit(data)
    game.state_from_json(json.dumps(data))


def _first_horde_card(d: dict) -> int:
    return next(c for c in d["horde"] if c >= 0)


def _set(key: str, value: Any) -> Callable[[dict], None]:
    def edit(d: dict) -> None:
        d[key] = value
    return edit


def _at(key: str, index: tuple[int, ...], value: Any) -> Callable[[dict], None]:
    def edit(d: dict) -> None:
        row = d[key]
        for i in index[:-1]:
            row = row[i]
        row[index[-1]] = value(row[index[-1]]) if callable(value) else value
    return edit


CORRUPT: list[tuple[str, Callable[[dict], None], str]] = [
    # types
    ("float in an array", _at("supply", (0,), 20.0),
     r"field 'supply' is not a numeric array of integers: it holds 20\.0 \(float\)"),
    ("float scalar", _set("turn", 7.0), r"field 'turn' should be int, got float 7\.0"),
    ("bool in an array", _at("storage", (1, 2), True),
     r"field 'storage' is not a numeric array of integers: it holds True \(bool\)"),
    ("bool as a seat", _set("current", True), r"field 'current' should be int, got bool True"),
    ("int as a flag", _set("spell_cast", 1), r"field 'spell_cast' should be bool, got int"),
    ("int in the networks", _at("reach", (0, 0), 1), r"field 'reach' is not an array of true/false: it holds 1"),
    ("string in a list", _at("spell_deck", (0,), "3"), r"field 'spell_deck\[0\]' should be int, got str '3'"),
    ("decks not a list", _set("decks", "none"), r"field 'decks' should be list, got str"),
    ("pending not a dict", _set("pending", []), r"field 'pending' should be dict, got list"),
    ("a huge number", _set("turn", 10**30), r"field 'turn' is 1000000000000000000000000000000; allowed: 0\.\.2147"),
    # shapes and missing or unknown fields
    ("wrong shape", _set("storage", [[0] * 7] * 2), r"field 'storage' has shape \(2, 7\), expected \(3, 7\)"),
    ("ragged rows", _at("tokens", (0,), [[0] * 10] * 9), r"field 'tokens' has shape ragged lists, expected"),
    ("a number for an array", _set("bag", 5), r"field 'bag' is not a numeric array of integers of shape \(3,\)"),
    ("missing field", lambda d: d.pop("horde"), r"saved state is missing fields: horde"),
    ("unknown field", _set("colour", "red"), r"saved state has unknown fields: colour"),
    ("draft hands for 2 seats", _set("draft_hand", [[], []]), r"field 'draft_hand' has 2 lists, expected 3"),
    ("unknown pending key", _set("pending", {"foo": 1}), r"field 'pending' has unknown key 'foo'"),
    ("phase without its pending", _set("phase", Phase.BRIBE),
     r"field 'pending' lacks horde, smoot, bribes, which phase bribe needs"),
    ("a spell's dig without the spell", lambda d: d.update(phase=Phase.DIG_MINERAL, pending={"dig": 0, "return": "spell"}),
     r"field 'pending' lacks spell, which phase dig_mineral needs"),
    # out-of-range indices (would crash later)
    ("negative count", _at("supply", (2,), -3), r"field 'supply' holds -3 at \[2\]; allowed: 0\.\.32767"),
    ("negative storage", _at("storage", (1, 0), -1), r"field 'storage' holds -1 at \[1, 0\]; allowed: 0\.\.32767"),
    ("card index 999", _at("smoot", (0, 0), 999), r"field 'smoot' holds 999 at \[0, 0\]; allowed: -1\.\.60"),
    ("gate off the board", _at("gate_sq", (1,), 10**6), r"field 'gate_sq' holds 1000000 at \[1\]; allowed: -1\.\.194"),
    ("spell index", _at("spellbook", (0,), 17), r"field 'spellbook' holds 17 at \[0\]; allowed: -1\.\.16"),
    ("deck card of no horde", _at("decks", (0, 0), 2), r"field 'decks\[0\]\[0\]' is 2; allowed: 6\.\.60"),
    ("history outside the actions", _at("history", (0,), 10**7), r"field 'history\[0\]' is 10000000; allowed: 0\.\."),
    ("seat 3 of 3", _set("current", 3), r"phase \d+ / current 3 out of range"),
    ("99 workshops this turn", _set("workshops_left", 99), r"field 'workshops_left' is 99; allowed: 0\.\.2"),
    ("final turns of 3 rounds", _set("final_turns_left", 9), r"field 'final_turns_left' is 9; allowed: -1\.\.8"),
    ("tile id past next_tile", _at("tile", (0,), lambda _: 10_000),
     r"field 'tile' holds 10000 at \[0\]; allowed: -1\.\.\d+ \(next_tile is \d+\)"),
    ("pending dig past the placements", _set("pending", {"dig": 10**6}), r"field 'pending\.dig' is 1000000"),
    # in range, but impossible: the invariants name the first violated fact
    ("a token from nowhere", _at("supply", (0,), lambda n: n + 1),
     r"saved state is impossible: token conservation: stone: supply \d+ \+ .* but the pack has 35"),
    ("a card in two places", lambda d: d["decks"][0].append(_first_horde_card(d)),
     r"saved state is impossible: horde trolls: \d+ horde cards .*duplicates \[\d+\]"),
    ("a spell twice", lambda d: d["spell_deck"].append(d["spellbook"][0]),
     r"saved state is impossible: spells: spellbook .* is not each of the 17 spells once"),
    # a starter player 0 does not hold, in the top slot: unsupported (shape) or not (the starters' row)
    ("a starter above the starting row",
     lambda d: d["smoot"][0].__setitem__(9, min(set(range(6)) - set(d["smoot"][0]))),
     r"saved state is impossible: trollsmoot( shape: player 0's slot 9 is filled|: player 0's trollsmoot "
     r".*: starters \(cards 0\.\.5\) belong in the starting row)"),
    ("a statue lost", lambda d: d["statue"].__setitem__(d["statue"].index(max(d["statue"])), -1),
     r"saved state is impossible: statues"),
    ("track tokens changed", _at("track_value", (0, 0), lambda v: v + 1),
     r"saved state is impossible: pedestal track: point tokens .* are not the pack's"),
]


@pytest.mark.parametrize("edit, message", [(e, m) for _, e, m in CORRUPT], ids=[name for name, _, _ in CORRUPT])
def test_a_corrupted_save_is_refused_naming_the_first_violated_fact(saved: tuple[Game, dict], edit, message) -> None:
    game, data = saved
    with pytest.raises(StateError, match=message):
        _load(game, data, edit)


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
    ('{"turn": ' + "9" * 5000 + "}", "not valid JSON"),
    ("", "not valid JSON"),
])
def test_hostile_json_text_is_refused(saved: tuple[Game, dict], text: str, message: str) -> None:
    game, _ = saved
    with pytest.raises(StateError, match=message):
        game.state_from_json(text)


def test_a_refused_save_leaves_the_game_usable(saved: tuple[Game, dict]) -> None:
    game, data = saved
    with pytest.raises(StateError):
        _load(game, data, _at("supply", (0,), -1))
    assert game.state_from_json(json.dumps(data)).to_dict() == data


@pytest.mark.parametrize("options, seed", [({"num_players": 2}, 1), ({"num_players": 4, "team_mode": True}, 2),
                                           ({"num_players": 5, "workshops": "no_duplicates"}, 3)])
def test_every_state_of_a_real_game_loads_back_exactly(options: dict, seed: int) -> None:
    """The checks refuse nothing a game reaches: each state along a whole game (every 3rd decision, the
    draft and the end included) loads back equal, with the same legal actions."""
    game = Game(**options)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while True:
        loaded = game.state_from_json(state.to_json())
        assert loaded == state
        assert np.array_equal(loaded.legal_actions(), state.legal_actions())
        if state.is_terminal():
            break
        play_random(state, rng, 3)
