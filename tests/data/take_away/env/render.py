"""Take-away's pictures: a line of text, and the pile as a row of stones (an RGB array)."""

from __future__ import annotations

import numpy as np


def render_ansi(st) -> str:
    """The stones left, each seat's stones taken, whose turn."""
    seats = ", ".join(f"seat {p}: {t}" for p, t in enumerate(st.taken))
    who = "game over" if st.is_terminal() else f"seat {st.current_player()} to take"
    return f"{'o' * st.pile} ({st.pile} stones left; taken {seats}; {who})"


#: each seat's colour (RGB)
SEAT_COLOURS = ((192, 57, 43), (36, 113, 163), (34, 153, 84), (212, 172, 13))


def render_rgb(st) -> np.ndarray:
    """A white strip: the pile's stones in grey on the first row, each seat's stones taken in its colour on
    the rows below."""
    width = max(st.game.pack.pile[1], 1)
    image = np.full((12 * (1 + st.num_players), 12 * width, 3), 255, np.uint8)
    rows = [(st.pile, (96, 96, 96))] + [(t, SEAT_COLOURS[p]) for p, t in enumerate(st.taken)]
    for r, (count, colour) in enumerate(rows):
        for k in range(count):
            image[12 * r + 2:12 * r + 10, 12 * k + 2:12 * k + 10] = colour
    return image
