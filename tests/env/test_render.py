"""Rendering every mode: text with and without colour, images, the headless-safe window, GIFs."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from mk_env.mountain_king.env.render import (CLAN_COLOURS, PLAYER_COLOURS, TIER_COLOURS, render_ansi, render_human,
                               render_rgb, write_gif)
from mk_env.records import final_state, replay
from training.replay import demo_record


@pytest.fixture(scope="module")
def mid_game():
    """A 4-player game after 200 lively random decisions (tunnels, statues, trolls on the board)."""
    return final_state(demo_record(4, seed=3, max_actions=200))


@pytest.fixture(scope="module")
def five_player_end():
    state = final_state(demo_record(5, seed=2))
    assert state.is_terminal()
    return state


def test_ansi_shows_board_horde_trollsmoots_and_scores(mid_game):
    text = render_ansi(mid_game)
    assert "\x1b" not in text
    lines = text.splitlines()
    geo = mid_game.game.geo
    board = lines[3:3 + geo.height]
    assert [int(line[:3]) for line in board] == list(range(geo.height))
    assert " <> " in text  # the heart
    for p in range(4):
        assert f"Trollsmoot of seat {p}:" in text
        total = mid_game.score_breakdown(p)["total"]
        assert any(line.startswith(f"  seat {p}: {total:3d}") for line in lines)
    assert "Horde" in text and "Spellbook:" in text and "Pedestal track:" in text
    # each placed gate shows its owner on its square
    for p, sq in enumerate(mid_game.gate_sq):
        r, c = geo.rc(sq)
        assert board[r][4 + 4 * c:8 + 4 * c][1:3] == f"G{p}"


def test_ansi_colour_adds_escape_codes_only(mid_game):
    plain = render_ansi(mid_game)
    coloured = render_ansi(mid_game, color=True)
    assert "\x1b[48;2;" in coloured
    import re
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_rgb_array_is_an_image_with_tier_player_and_clan_colours(mid_game):
    image = render_rgb(mid_game)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 600 and image.shape[1] >= 1000
    colours = {tuple(c) for c in image.reshape(-1, 3)[::7]}
    for c in TIER_COLOURS[1:] + PLAYER_COLOURS[:4] + CLAN_COLOURS:
        assert c in colours, c


def test_rendering_does_not_change_the_state(mid_game):
    before = mid_game.to_dict()
    render_ansi(mid_game, color=True)
    render_rgb(mid_game)
    assert mid_game.to_dict() == before


def test_end_of_a_five_player_game_renders_in_every_mode(five_player_end, monkeypatch):
    text = render_ansi(five_player_end, color=True)
    assert "game over, winner seat" in text and "Trollsmoot of" in text
    assert "seat 4" in render_ansi(five_player_end)
    image = render_rgb(five_player_end)
    assert image.dtype == np.uint8 and image.shape[2] == 3
    assert tuple(PLAYER_COLOURS[4]) in {tuple(c) for c in image.reshape(-1, 3)}
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.warns(RuntimeWarning, match="needs a display"):
        assert render_human(five_player_end) is False


def test_human_with_a_non_interactive_backend_warns_instead_of_crashing(mid_game, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.setenv("DISPLAY", ":99")
    with pytest.warns(RuntimeWarning, match="could not open a window"):
        assert render_human(mid_game) is False


def test_states_from_random_games_render_at_every_phase():
    record = demo_record(2, seed=11, max_actions=120)
    kinds = set()
    for state in list(replay(record))[::9]:
        kinds.add(state.decision_kind())
        assert render_ansi(state).count("\n") > 40
        assert render_rgb(state).shape[2] == 3
    assert len(kinds) >= 3


def test_gif_has_one_frame_per_state(mid_game, tmp_path):
    from PIL import Image

    states = list(replay(demo_record(2, seed=5, max_actions=12)))[:4]
    path = write_gif(states, tmp_path / "g.gif")
    with Image.open(path) as gif:
        assert gif.format == "GIF" and gif.n_frames == 4
    with pytest.raises(ValueError, match="at least one state"):
        write_gif([], tmp_path / "none.gif")


def test_image_functions_live_in_render_image_and_are_reachable_from_render():
    """render.py keeps the text; the image functions are render_image's, still importable from render
    (imported on first use, so the text alone never imports Pillow's drawing code)."""
    from mk_env.mountain_king.env import render, render_image

    for name in ("render_rgb", "render_human", "close_human", "downscale", "write_gif"):
        assert getattr(render, name) is getattr(render_image, name)
    with pytest.raises(AttributeError, match="no attribute 'render_svg'"):
        render.render_svg  # noqa: B018 - the lookup is the test


def test_rgb_pictures_without_pillow_name_the_extra(monkeypatch):
    """The suite's ``rgb_array`` pictures share one Pillow guard: missing Pillow is one clear error naming
    the extra, not an ImportError from deep inside."""
    from mk_env.cave_troll.env.render import render_rgb as lair_rgb
    from mk_env.fall_of_the_mountain_king.env.render import render_rgb as fall_rgb
    from mk_env.games import make_game as make_suite_game
    from mk_env.mountain_king.env.render import render_rgb as mountain_rgb

    monkeypatch.setitem(sys.modules, "PIL", None)  # `from PIL import ...` now raises ModuleNotFoundError
    for name, render in (("mountain_king", mountain_rgb), ("cave_troll", lair_rgb),
                         ("fall_of_the_mountain_king", fall_rgb)):
        st = make_suite_game(name, 2).new_initial_state(0)
        with pytest.raises(RuntimeError, match=r"needs Pillow: pip install 'mk_env\[tools\]'"):
            render(st)
