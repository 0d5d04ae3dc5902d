"""Fall of the Mountain King on the suite's replay page and in its GIF: the page's
:class:`~mk_env.core.env.replay_page.PageView` of a Fall game, named on its game card: its status line, honor
by scoring category (the engine's ``score_breakdown``), the map picture of :func:`~.render.render_rgb`, the
seats' colours and the text picture.

    from mk_env.records import load_record
    from mk_env.core.env.replay_page import write_html
    write_html(load_record("game.json", game="fall_of_the_mountain_king"), "game.html")
"""

from __future__ import annotations

from mk_env.core.env.replay_page import PageView, score_breakdowns

from .render import render_ansi, render_rgb, seat_colour


def status_line(st) -> str:
    """The wave and who decides what, or who won (every seat of rank 0)."""
    if not st.is_terminal():
        return (f"{st.num_players} players, wave {st.wave}, battle turn of seat {st.turn_player}: "
                f"seat {st.current_player()} to decide ({st.decision_kind()})")
    winners = " & ".join(str(p) for p, rank in enumerate(st.ranks()) if rank == 0)
    return f"{st.num_players} players, wave {st.wave}: game over, winner seat {winners}"


def colours(st) -> list[str]:
    """Each seat's drawing colour as ``#rrggbb``."""
    return ["#%02x%02x%02x" % seat_colour(p) for p in range(st.num_players)]


def heading(st) -> str:
    """The words after the player count in the page's heading (the map side in use)."""
    return f"Fall of the Mountain King, {'small' if st.num_players <= 3 else 'large'} map"


#: how a Fall of the Mountain King game shows on the replay page
FALL_VIEW = PageView(status_line, score_breakdowns, render_rgb, colours, heading, lambda st, color: render_ansi(st))
