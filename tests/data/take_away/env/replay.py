"""How a Take-away record shows on the suite's replay page."""

from __future__ import annotations

from mk_env.core.env.replay_page import PageView, score_breakdowns, status_line

from .render import SEAT_COLOURS, render_ansi, render_rgb

TAKE_AWAY_VIEW = PageView(status_line, score_breakdowns, render_rgb,
                          lambda st: ["#%02x%02x%02x" % SEAT_COLOURS[p] for p in range(st.num_players)],
                          lambda st: "Take-away",
                          lambda st, color: render_ansi(st))
