"""Fall of the Mountain King's picture (``rgb_array``), its HTML replay page and its GIF: a short seeded game's
record becomes a page holding every frame with hostile strings escaped, a GIF with one frame per change of
picture, and ``mk-env replay --game fall_of_the_mountain_king --html --gif`` writes both."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest
from PIL import Image

from mk_env.fall_of_the_mountain_king import env as fall
from mk_env.fall_of_the_mountain_king.env.render import render_rgb
from mk_env.fall_of_the_mountain_king.env.replay import FALL_VIEW
from mk_env.fall_of_the_mountain_king.rules import Game
from mk_env.mountain_king.env.render_image import write_gif
from mk_env.core.env.replay_page import build_html, frame_steps
from mk_env.records import final_state, load_record, record_from_state, replay, save_record
from training.cli import main

GAME = "fall_of_the_mountain_king"
HOSTILE_NAMES = ["<!--<script>", "</script><script>document.body.innerHTML=''</script>__FRAMES__ & __DATA__\u2028"]
HOSTILE_TITLE = "<!--<script> __TITLE__ __DATA__"
SEED, DECISIONS = 5, 40


@pytest.fixture(scope="module")
def record():
    """The record of the first 40 random decisions of a seeded 2-player game (unfinished: no final scores)."""
    state = Game(num_players=2).new_initial_state(SEED)
    rng = np.random.default_rng(SEED)
    actions = []
    for _ in range(DECISIONS):
        actions.append(int(rng.choice(state.legal_actions())))
        state.apply(actions[-1])
    return record_from_state(state, SEED, agents=[HOSTILE_NAMES[0], HOSTILE_NAMES[1]], actions=actions)


@pytest.mark.parametrize("players", [2, 4])
def test_the_picture_has_a_stable_shape_and_dtype(players):
    st = Game(num_players=players).new_initial_state(1)
    first = render_rgb(st)
    rng = np.random.default_rng(1)
    for _ in range(60):
        st.apply(int(rng.choice(st.legal_actions())))
    later = render_rgb(st)
    assert first.dtype == later.dtype == np.uint8 and first.shape == later.shape and first.shape[2] == 3
    assert not np.array_equal(first, later)  # the board changed, so does its picture


def test_the_env_renders_rgb_array_and_ansi():
    env = fall.raw_env(num_players=3, render_mode="rgb_array")
    env.reset(seed=2)
    picture = env.render()
    assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8 and picture.ndim == 3
    assert np.array_equal(picture, render_rgb(env.game_state))
    text = fall.raw_env(num_players=3, render_mode="ansi")
    text.reset(seed=2)
    assert "Clan board" in text.render()


def test_the_page_holds_every_frame_and_escapes_hostile_strings(record):
    page = build_html(record, title=HOSTILE_TITLE, view=FALL_VIEW, frames="decision")
    payload = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S).group(1)
    assert not set("<>&\u2028\u2029") & set(payload)
    data = json.loads(payload)
    assert data["players"] == HOSTILE_NAMES and data["title"] == HOSTILE_TITLE
    assert data["frame_steps"] == list(range(DECISIONS + 1)) and len(data["steps"]) == DECISIONS + 1
    frames = json.loads(re.search(r'<script type="application/json" id="frame-data">(.*?)</script>', page,
                                  re.S).group(1))
    assert len(frames) == DECISIONS + 1 and all(f.startswith("data:image/png;base64,") for f in frames)
    last = final_state(record)
    assert data["steps"][-1]["scores"] == [last.score_breakdown(p) for p in range(2)]
    assert data["board_side"] == "Fall of the Mountain King, small map" and page.count("<script") == 3
    assert HOSTILE_TITLE not in page and HOSTILE_NAMES[1] not in page  # nowhere raw, the <title> included


def test_the_gif_has_one_frame_per_change_of_picture(record, tmp_path):
    states = list(replay(record))
    chosen = [states[k] for k in frame_steps(states, "turn")]
    path = write_gif(chosen, tmp_path / "fall.gif", render=render_rgb)
    pictures = [render_rgb(s) for s in chosen]
    changes = 1 + sum(not np.array_equal(a, b) for a, b in zip(pictures, pictures[1:]))
    with Image.open(path) as gif:
        assert gif.format == "GIF" and gif.n_frames == changes and changes > 1


def test_replay_command_writes_page_and_gif(record, tmp_path, capsys):
    path = save_record(dataclasses.replace(record, agents=["a", "b"]), tmp_path / "fall.json")
    assert load_record(path, game=GAME).actions == record.actions
    html, gif = tmp_path / "fall.html", tmp_path / "fall.gif"
    assert main(["replay", "--game", GAME, str(path), "--html", str(html), "--gif", str(gif), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"replayed {DECISIONS} actions: game not finished" in out
    assert html.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert gif.read_bytes()[:6] == b"GIF89a"
