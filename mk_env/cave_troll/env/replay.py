"""Cave Troll on the suite's replay page and in its GIF: the page's
:class:`~mk_env.mountain_king.env.replay_html.PageView` of a Cave Troll game (its status line, gold by scoring
category, the lair picture, the seats' colours).

    from mk_env.records import load_record
    from mk_env.mountain_king.env.replay_html import write_html
    write_html(load_record("game.json", game="cave_troll"), "game.html", view=CAVE_TROLL_VIEW)
"""

from __future__ import annotations

from mk_env.mountain_king.env.replay_html import PageView

from .render import _colour, render_rgb


def status_line(st) -> str:
    """Who decides what, or who won."""
    head = f"{st.num_players} players, turn {st.turn}"
    if st.is_terminal():
        ranks = st.ranks()
        winners = [str(p) for p in range(st.num_players) if ranks[p] == 0]
        return f"{head}: game over, winner seat {' & '.join(winners)}"
    return f"{head}: seat {st.current_player()} to decide ({st.decision_kind()})"


def scores(st) -> list[dict[str, int]]:
    """Every seat's gold by scoring category (the engine's ``score_breakdown``)."""
    return [st.score_breakdown(p) for p in range(st.num_players)]


def colours(st) -> list[str]:
    """Each seat's drawing colour as ``#rrggbb`` (the pack's colour names; grey for one not known)."""
    return ["#%02x%02x%02x" % _colour(st, p) for p in range(st.num_players)]


#: how a Cave Troll game shows on the replay page (the heading reads "N players, Cave Troll side, seed S")
CAVE_TROLL_VIEW = PageView(status_line, scores, render_rgb, colours, lambda st: "Cave Troll")
