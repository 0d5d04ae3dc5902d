"""Cave Troll game records, ``mk-env play --game cave_troll --replay``, ``mk-env replay --game cave_troll``,
its HTML replay page (hostile strings round-trip) and its GIF."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from mk_env.cave_troll.env.replay import CAVE_TROLL_VIEW
from mk_env.games import make_game
from mk_env.core.env.replay_page import build_html
from mk_env.records import RecordError, final_state, load_record, record_from_state, replay, save_record
from training.cli import main
from training.play import run_game

HOSTILE_NAMES = ["<!--<script>", "</script><script>document.body.innerHTML=''</script>__FRAMES__ & __DATA__\u2028"]
HOSTILE_TITLE = "<!--<script> __TITLE__ __DATA__"


@pytest.fixture(scope="module")
def played():
    """A finished 3-player random game: its final state, seed and applied actions."""
    actions: list[int] = []
    state = run_game(["random", "random", "random"], seed=4, game=make_game("cave_troll", 3), actions=actions)
    return state, 4, actions


@pytest.fixture(scope="module")
def record(played):
    state, seed, actions = played
    return record_from_state(state, seed, agents=["a", "b", "c"], actions=actions)


def test_a_recorded_game_replays_to_the_same_final_state(played, record, tmp_path):
    state, _, _ = played
    path = save_record(record, tmp_path / "ct.json")
    assert json.loads(path.read_text())["game"] == "cave_troll"
    loaded = load_record(path, game="cave_troll")
    assert loaded == record and loaded.final_scores == [state.score_breakdown(p)["total"] for p in range(3)]
    assert final_state(loaded).to_json() == state.to_json()


def test_replay_yields_every_state_and_checks_each_action(record):
    states = list(replay(dataclasses.replace(record, actions=record.actions[:20], final_scores=None)))
    assert len(states) == 21 and states[0].to_json() != states[-1].to_json()
    bad = dataclasses.replace(record, actions=record.actions[:5] + [10**6], final_scores=None)
    with pytest.raises(RecordError, match="record action 5 .* does not replay"):
        final_state(bad)
    with pytest.raises(RecordError, match="differ from the recorded"):
        final_state(dataclasses.replace(record, final_scores=[0, 0, 0]))


def test_a_record_names_its_game_and_loading_checks_it(record, tmp_path):
    path = save_record(record, tmp_path / "ct.json")
    with pytest.raises(RecordError, match="a game of cave_troll, not mountain_king"):
        load_record(path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "game": "chess"}))
    with pytest.raises(RecordError, match="game must be one of the suite's games"):
        load_record(path, game="cave_troll")


def test_the_page_is_produced_and_hostile_strings_round_trip(record):
    short = dataclasses.replace(record, actions=record.actions[:30], final_scores=None,
                                agents=[HOSTILE_NAMES[0], HOSTILE_NAMES[1], "c"])
    page = build_html(short, title=HOSTILE_TITLE, view=CAVE_TROLL_VIEW)
    payload = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S).group(1)
    assert not set("<>&\u2028\u2029") & set(payload)
    data = json.loads(payload)
    assert data["players"] == [HOSTILE_NAMES[0], HOSTILE_NAMES[1], "c"] and data["title"] == HOSTILE_TITLE
    last = final_state(short)
    assert data["steps"][-1]["scores"] == [last.score_breakdown(p) for p in range(3)]
    assert data["board_side"] == "Cave Troll" and page.count("<script") == 3


def test_play_writes_a_record_that_replay_reads_with_page_and_gif(tmp_path, capsys):
    path, html, gif = tmp_path / "ct.json", tmp_path / "ct.html", tmp_path / "ct.gif"
    assert main(["play", "--game", "cave_troll", "--agents", "random,random", "--seed", "2",
                 "--replay", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", "--game", "cave_troll", str(path), "--html", str(html), "--gif", str(gif)]) == 0
    out = capsys.readouterr().out
    assert "game over, final scores match the record" in out and "Now: game over" in out
    assert html.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert gif.read_bytes()[:6] == b"GIF89a"


@pytest.mark.parametrize("args, words", [
    (["replay", "--game", "cave_troll", "--demo", "5"], "Cave Troll is for 2-4 players, got 5"),
    (["replay", "--game", "cave_troll", "missing.json"], "file not found"),
])
def test_misuse_gives_one_line_and_exit_2(args, words, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err


def test_a_cave_troll_record_under_the_first_game_is_one_line(record, tmp_path, capsys):
    path = save_record(record, tmp_path / "ct.json")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "replay it with --game cave_troll" in err and "\n" not in err


@pytest.mark.parametrize("game", ["cave_troll", "fall_of_the_mountain_king"])
def test_a_demo_game_of_every_game_replays_to_a_page(game, tmp_path, capsys):
    page, record = tmp_path / "demo.html", tmp_path / "demo.json"
    assert main(["replay", "--game", game, "--demo", "3", "--seed", "2", "--save", str(record), "--html", str(page),
                 "--quiet"]) == 0
    assert "game over, final scores match the record" in capsys.readouterr().out
    assert page.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert main(["replay", "--game", game, str(record), "--quiet"]) == 0
