"""Cave Troll on the suite's replay page and in its GIF: the page's
:class:`~mk_env.core.env.replay_page.PageView` of a Cave Troll game (the suite's status line, gold by scoring
category, the lair picture, the seats' colours, the text picture), named on its game card.

    from mk_env.records import load_record
    from mk_env.core.env.replay_page import write_html
    write_html(load_record("game.json", game="cave_troll"), "game.html")
"""

from __future__ import annotations

from mk_env.core.env.replay_page import PageView, score_breakdowns, status_line

from .render import _colour, render_ansi, render_rgb


def colours(st) -> list[str]:
    """Each seat's drawing colour as ``#rrggbb`` (the pack's colour names; grey for one not known)."""
    return ["#%02x%02x%02x" % _colour(st, p) for p in range(st.num_players)]


#: how a Cave Troll game shows on the replay page (the heading reads "N players, Cave Troll side, seed S")
CAVE_TROLL_VIEW = PageView(status_line, score_breakdowns, render_rgb, colours, lambda st: "Cave Troll",
                           lambda st, color: render_ansi(st))
