"""The replay page of *In the Hall of the Mountain King*: the suite's page (:mod:`mk_env.core.env.replay_page`,
whose docstring says all) with this game's :data:`MOUNTAIN_KING_VIEW`, named here as before."""

from __future__ import annotations

from mk_env.core.env.replay_page import (FRAME_MODES, PageView, build_html, fill_template, frame_steps, png_data_uri,
                                         step_data, write_html)

from .render import PLAYER_COLOURS, render_ansi, scores, status_line
from .render_image import render_rgb

__all__ = ["FRAME_MODES", "MOUNTAIN_KING_VIEW", "PageView", "build_html", "fill_template", "frame_steps",
           "png_data_uri", "step_data", "write_html"]

#: the first game's view: its board, horde and tracks, the board side in the heading, its coloured text picture
MOUNTAIN_KING_VIEW = PageView(status_line, scores, render_rgb,
                              lambda st: ["#%02x%02x%02x" % PLAYER_COLOURS[p] for p in range(st.num_players)],
                              lambda st: st.game.board_side, lambda st, color: render_ansi(st, color=color))
