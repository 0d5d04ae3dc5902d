"""Seeing a game as an image: :func:`render_rgb` (an ``H x W x 3`` uint8 array drawn with Pillow),
:func:`render_human` (that image in a matplotlib window) and :func:`write_gif` (an animated GIF).

The text form and the facts both share (owners, scores, colours) are in :mod:`mk_env.mountain_king.env.render`.
"""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from mk_env.core.env import pillow
from mk_env.core.env.pillow import downscale, image_and_draw  # noqa: F401 - downscale: named here as before
from mk_env.mountain_king.rules import GameState, SquareKind
from mk_env.mountain_king.rules.actions import HORDE_ROWS, TROLLSMOOT_ROWS, pyramid_slots
from mk_env.mountain_king.rules.content import CLANS, TIER_NAMES, TOKEN_KINDS

from .picture import (BURIED_LETTERS, CLAN_COLOURS, CLAN_LETTERS, HEART_COLOUR, INK, PANEL, PLAYER_COLOURS,
                      TIER_COLOURS, TOKEN_ABBR, TOKEN_COLOURS, UNOWNED, altar_squares, card_name, card_symbols,
                      counts_text, ink_on, scores, square_owner, status_line)

CELL = 36  # pixels per board square
SMOOT_BOX = (64, 36)  # pixels per trollsmoot slot
MARGIN = 22  # room for coordinates


@functools.lru_cache(maxsize=8)
def _font(size: int, bold: bool = False):
    """DejaVu Sans from matplotlib's data when available, else Pillow's default font."""
    from PIL import ImageFont

    try:
        import matplotlib

        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name
        return ImageFont.truetype(str(path), size)
    except Exception:  # noqa: BLE001 - any failure: fall back to Pillow's own font
        return ImageFont.load_default(size=size)


def _fit(draw, text: str, font, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _draw_board(draw, state: GameState, x0: int, y0: int) -> None:
    game = state.game
    geo = game.geo
    owner = square_owner(state)
    altars = altar_squares(state)
    small = _font(10)
    bold = _font(13, bold=True)
    for c in range(geo.width):
        draw.text((x0 + c * CELL + CELL // 2, y0 - 4), str(c), fill=INK, font=small, anchor="ms")
    for r in range(geo.height):
        draw.text((x0 - 5, y0 + r * CELL + CELL // 2), str(r), fill=INK, font=small, anchor="rm")
    for sq in range(geo.n_squares):
        r, c = geo.rc(sq)
        x, y = x0 + c * CELL, y0 + r * CELL
        box = [x, y, x + CELL - 1, y + CELL - 1]
        if geo.heart[sq]:
            draw.rectangle(box, fill=HEART_COLOUR)
            continue
        if not geo.on_board[sq]:
            continue
        tier = int(geo.tier[sq])
        draw.rectangle(box, fill=TIER_COLOURS[tier], outline=(30, 30, 30))
        kind = int(state.kind[sq])
        if kind != SquareKind.EMPTY:
            who = int(owner[sq])
            colour = PLAYER_COLOURS[who] if who >= 0 else UNOWNED
            draw.rectangle([x + 3, y + 3, x + CELL - 4, y + CELL - 4], fill=colour)
            if kind == SquareKind.GREAT_HALL:  # hatched
                for k in range(-CELL, CELL, 8):
                    draw.line([x + 3 + max(k, 0), y + 3 + max(-k, 0),
                               x + 3 + min(CELL - 7, k + CELL - 7), y + 3 + min(CELL - 7, CELL - 7 - k)],
                              fill=ink_on(colour), width=1)
            if kind == SquareKind.GATE:  # a doorway
                draw.rounded_rectangle([x + 11, y + 9, x + CELL - 12, y + CELL - 5], radius=6, fill=INK)
            if sq in altars:
                draw.rectangle([x + 8, y + 8, x + CELL - 9, y + CELL - 9], fill=(250, 250, 240), outline=INK,
                               width=2)
            ped = int(state.pedestal[sq])
            if ped >= 0:
                draw.rectangle([x + 6, y + CELL - 12, x + CELL - 7, y + CELL - 5], fill=CLAN_COLOURS[ped],
                               outline=INK, width=2)
        else:
            site = int(geo.site_of[sq])
            if site >= 0:
                w = int(state.workshop[site])
                draw.rounded_rectangle([x + 4, y + 6, x + CELL - 5, y + CELL - 7], radius=4,
                                       fill=(250, 248, 240), outline=INK, width=2)
                label = game.pack.workshops[w].name[:3] if w >= 0 else "W"
                draw.text((x + CELL // 2, y + CELL // 2), label, fill=INK, font=_font(11, bold=True),
                          anchor="mm")
            elif geo.rubble[sq]:
                for dx, dy, rad in ((9, 24, 5), (18, 20, 6), (26, 25, 5), (14, 13, 4)):
                    draw.ellipse([x + dx - rad, y + dy - rad, x + dx + rad, y + dy + rad], fill=(70, 58, 48),
                                 outline=(25, 20, 16))
            res = int(state.buried[sq])
            if res >= 0:
                draw.rounded_rectangle([x + 9, y + 9, x + CELL - 10, y + CELL - 10], radius=3,
                                       fill=TOKEN_COLOURS[res], outline=INK)
                draw.text((x + CELL // 2, y + CELL // 2), BURIED_LETTERS[res], font=_font(11, bold=True),
                          fill=ink_on(TOKEN_COLOURS[res]), anchor="mm")
        statue = int(state.statue[sq])
        if statue >= 0:
            cx, cy = x + CELL // 2, y + CELL // 2 - 2
            draw.ellipse([cx - 10, cy - 10, cx + 10, cy + 10], fill=CLAN_COLOURS[statue], outline=INK, width=3)
            draw.text((cx, cy), CLAN_LETTERS[statue], fill=INK, font=bold, anchor="mm")
    _draw_tile_edges(draw, state, x0, y0)


def _draw_tile_edges(draw, state: GameState, x0: int, y0: int) -> None:
    """Thick dark lines where one tile meets another or the rock, so tunnel shapes read clearly."""
    geo = state.game.geo
    tile = state.tile
    for sq in np.flatnonzero(state.kind[:-1] > 0):
        r, c = geo.rc(sq)
        x, y = x0 + c * CELL, y0 + r * CELL
        edges = ((x, y, x + CELL, y), (x + CELL, y, x + CELL, y + CELL), (x, y + CELL, x + CELL, y + CELL),
                 (x, y, x, y + CELL))
        for k, nb in enumerate(geo.neighbours[sq]):
            if nb == geo.sentinel or tile[nb] != tile[sq]:
                draw.line(edges[k], fill=INK, width=3)


def _draw_legend(draw, x: int, y: int) -> None:
    """Statue clans, marks and token colours, under the board."""
    font = _font(10)
    for c, clan in enumerate(CLANS):
        draw.ellipse([x, y, x + 10, y + 10], fill=CLAN_COLOURS[c], outline=INK)
        draw.text((x + 13, y - 1), clan, font=font, fill=INK)
        x += 22 + int(draw.textlength(clan, font=font))
    for label in ("bar: pedestal", "hatched: great hall", "white box: altar", "dark arch: gate"):
        draw.text((x, y - 1), label, font=font, fill=INK)
        x += 14 + int(draw.textlength(label, font=font))
    x, y = MARGIN, y + 15
    draw.text((x, y - 1), "tokens:", font=font, fill=INK)
    x += 44
    for k, name in enumerate(TOKEN_KINDS):
        draw.ellipse([x, y, x + 8, y + 8], fill=TOKEN_COLOURS[k], outline=INK)
        draw.text((x + 11, y - 2), name.replace("_", " "), font=font, fill=INK)
        x += 20 + int(draw.textlength(name, font=font))


def _token_dots(draw, counts: Sequence[int], x: int, y: int, width: int) -> None:
    """One small disc per token (coloured by kind), wrapping at ``width``."""
    cx = x
    for kind, n in enumerate(counts):
        for _ in range(int(n)):
            if cx + 8 > x + width:
                cx, y = x, y + 9
            draw.ellipse([cx, y, cx + 7, y + 7], fill=TOKEN_COLOURS[kind], outline=INK)
            cx += 9


def _draw_card_box(draw, state: GameState, card: int, box: list[int], held: Sequence[int] | None,
                   pedestal: int = -1) -> None:
    x, y, x1, _ = box
    if card < 0:
        draw.rectangle(box, outline=(170, 165, 155))
        return
    level = int(state.game.card_level[card])
    fill = ((250, 246, 232), (226, 236, 250), (236, 226, 250), (250, 228, 220))[min(level, 3)]
    draw.rectangle(box, fill=fill, outline=INK)
    font = _font(10)
    draw.text((x + 3, y + 2), _fit(draw, card_name(state, card), font, x1 - x - 6), fill=INK, font=font)
    draw.text((x + 3, y + 13), card_symbols(state, card), fill=(90, 90, 90), font=_font(9))
    if held is not None:
        _token_dots(draw, held, x + 3, y + 25, x1 - x - 6)
    if pedestal >= 0:
        draw.rectangle([x1 - 12, y + 13, x1 - 3, y + 21], fill=CLAN_COLOURS[pedestal], outline=INK)


def _draw_pyramid(draw, state: GameState, rows: tuple[int, ...], x0: int, y0: int, w: int, h: int,
                  cell) -> int:
    """Slots as boxes, top row first, each row centred on the one below; returns the bottom y."""
    slots = pyramid_slots(rows)
    n_rows = len(rows)
    for s, (r, i) in enumerate(slots):
        x = x0 + (rows[0] - rows[r]) * (w + 4) // 2 + i * (w + 4)
        y = y0 + (n_rows - 1 - r) * (h + 4)
        cell(s, [x, y, x + w, y + h])
    return y0 + n_rows * (h + 4)


def _draw_scores(draw, state: GameState, x: int, y: int) -> int:
    head = _font(12, bold=True)
    font = _font(11)
    cols = ("tunnels", "coronation", "pedestal_tokens", "leftover_sets", "great_halls", "statues")
    short = ("tun", "cor", "ped", "sets", "halls", "stat")
    draw.text((x, y), "seat", font=head, fill=INK)
    for k, name in enumerate(short):
        draw.text((x + 70 + 42 * k, y), name, font=font, fill=INK)
    draw.text((x + 70 + 42 * len(short), y), "total", font=head, fill=INK)
    ranks = state.ranks() if state.is_terminal() else None
    for p, sb in enumerate(scores(state)):
        yy = y + 17 * (p + 1)
        draw.rectangle([x, yy + 1, x + 12, yy + 13], fill=PLAYER_COLOURS[p], outline=INK)
        label = f"{p}" + (" winner" if ranks is not None and ranks[p] == 0 else "")
        draw.text((x + 17, yy), label, font=font, fill=INK)
        for k, name in enumerate(cols):
            draw.text((x + 70 + 42 * k, yy), str(sb[name]), font=font, fill=INK)
        draw.text((x + 70 + 42 * len(cols), yy), str(sb["total"]), font=head, fill=INK)
    return y + 17 * (state.num_players + 1) + 6


def _draw_panel(draw, state: GameState, x: int, y: int) -> None:
    """Scores, horde, spellbook, pedestal track and supply, right of the board."""
    game, pack = state.game, state.game.pack
    head = _font(13, bold=True)
    font = _font(11)
    y = _draw_scores(draw, state, x, y)
    draw.text((x, y), f"Horde  (decks left {', '.join(str(len(d)) for d in state.decks)})", font=head, fill=INK)

    def horde_cell(h: int, box: list[int]) -> None:
        card = int(state.horde[h])
        _draw_card_box(draw, state, card, box, state.horde_bribes[h] if card >= 0 else None,
                       int(state.horde_pedestal[h]))

    y = _draw_pyramid(draw, state, HORDE_ROWS, x, y + 18, 84, 36, horde_cell) + 4
    draw.text((x, y), "Spellbook", font=head, fill=INK)
    for i, spell in enumerate(state.spellbook):
        if spell >= 0:
            yy = y + 17 + 15 * i
            draw.text((x, yy), f"[{i}] {pack.spells[int(spell)].name}", font=font, fill=INK)
            _token_dots(draw, [0] * 6 + [int(state.spell_runes[i])], x + 200, yy + 3, 80)
    y += 17 + 15 * len(state.spellbook) + 4
    draw.text((x, y), "Pedestal track (tier: fire ice moon)", font=head, fill=INK)
    for t in range(len(TIER_NAMES)):
        yy = y + 17 + 16 * t
        draw.rectangle([x, yy + 1, x + 12, yy + 13], fill=TIER_COLOURS[t + 1], outline=INK)
        for c in range(len(CLANS)):
            bx = x + 22 + 40 * c
            who = int(state.track_taken[t, c])
            fill = PLAYER_COLOURS[who] if who >= 0 else CLAN_COLOURS[c]
            draw.rectangle([bx, yy, bx + 34, yy + 14], fill=fill, outline=INK)
            draw.text((bx + 17, yy + 7), str(int(state.track_value[t, c])), font=font, fill=ink_on(fill),
                      anchor="mm")
    y += 17 + 16 * len(TIER_NAMES) + 4
    draw.text((x, y), "Supply", font=head, fill=INK)
    draw.text((x + 60, y + 1), counts_text(state.supply, TOKEN_ABBR[:7]), font=font, fill=INK)
    draw.text((x, y + 16), "Bag: " + counts_text(state.bag, CLANS) + "   tunnels left: "
              + " ".join(str(int(n)) for n in state.tunnel_supply), font=font, fill=INK)
    del game


def _draw_smoots(draw, state: GameState, x0: int, y0: int, per_row: int) -> None:
    game = state.game
    head = _font(12, bold=True)
    font = _font(10)
    bw, bh = SMOOT_BOX
    block_w = TROLLSMOOT_ROWS[0] * (bw + 4) + 14
    block_h = len(TROLLSMOOT_ROWS) * (bh + 4) + 36
    for p in range(game.num_players):
        x = x0 + (p % per_row) * block_w
        y = y0 + (p // per_row) * block_h
        draw.rectangle([x, y + 2, x + 12, y + 14], fill=PLAYER_COLOURS[p], outline=INK)
        draw.text((x + 17, y), f"seat {p} trollsmoot", font=head, fill=INK)

        def smoot_cell(s: int, box: list[int], p: int = p) -> None:
            card = int(state.smoot[p, s])
            _draw_card_box(draw, state, card, box, state.tokens[p, s] if card >= 0 else None)

        yy = _draw_pyramid(draw, state, TROLLSMOOT_ROWS, x, y + 17, bw, bh, smoot_cell)
        s = game.storage_of[p]
        text = "storage " + counts_text(state.storage[s], TOKEN_ABBR[:7])
        if state.storage_pedestals[s].any():
            text += "  pedestals " + counts_text(state.storage_pedestals[s], CLANS)
        draw.text((x, yy), _fit(draw, text, font, block_w - 16), font=font, fill=INK)


def render_rgb(state: GameState) -> np.ndarray:
    """The state as an ``H x W x 3`` uint8 image (board, scores, horde, spellbook, pedestal track,
    supply, and every trollsmoot with its tokens and storage)."""
    Image, ImageDraw = image_and_draw()

    geo = state.game.geo
    n = state.num_players
    board_w, board_h = geo.width * CELL, geo.height * CELL
    panel_x = MARGIN + board_w + 24
    width = max(panel_x + 440, 1200)
    block_w = TROLLSMOOT_ROWS[0] * (SMOOT_BOX[0] + 4) + 14
    per_row = max(1, (width - 2 * MARGIN) // block_w)
    smoot_rows = -(-n // per_row)
    smoot_y = MARGIN + max(board_h + 46, 540) + 10
    height = smoot_y + smoot_rows * (len(TROLLSMOOT_ROWS) * 40 + 36) + 8
    image = Image.new("RGB", (width, height), PANEL)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 6), "In the Hall of the Mountain King — " + status_line(state), font=_font(14, True),
              fill=INK)
    _draw_board(draw, state, MARGIN, MARGIN + 20)
    _draw_legend(draw, MARGIN, MARGIN + 26 + board_h)
    _draw_panel(draw, state, panel_x, MARGIN + 12)
    _draw_smoots(draw, state, MARGIN, smoot_y, per_row)
    return np.asarray(image, dtype=np.uint8).copy()


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or os.name == "nt" \
        or os.uname().sysname == "Darwin"


def render_human(state: GameState, pause: float = 0.001) -> bool:
    """Show the state in a matplotlib window (reusing it between calls). Without a display or an
    interactive matplotlib backend it warns and returns False instead of failing."""
    frame = render_rgb(state)
    if not _has_display():
        warnings.warn("render_mode='human' needs a display; none found (headless), nothing shown. "
                      "Use render_mode='rgb_array' or 'ansi' instead.", RuntimeWarning, stacklevel=2)
        return False
    try:
        import matplotlib.pyplot as plt

        if plt.get_backend().lower() in ("agg", "pdf", "svg", "ps", "cairo", "template"):
            raise RuntimeError(f"matplotlib backend {plt.get_backend()!r} is not interactive")
        fig = plt.figure("mk_env")
        fig.clf()
        ax = fig.add_axes((0, 0, 1, 1))
        ax.imshow(frame)
        ax.axis("off")
        plt.pause(pause)
        return True
    except Exception as e:  # noqa: BLE001 - no usable window system: warn, never crash
        warnings.warn(f"render_mode='human' could not open a window ({e}); nothing shown.", RuntimeWarning,
                      stacklevel=2)
        return False


def close_human() -> None:
    """Close the window :func:`render_human` opened, if any."""
    try:
        import matplotlib.pyplot as plt

        if plt.fignum_exists("mk_env"):
            plt.close("mk_env")
    except ImportError:
        pass


def write_gif(states: Iterable[GameState], path: str | os.PathLike, *, seconds_per_frame: float = 0.6,
              scale: float = 0.6, render=render_rgb) -> Path:
    """An animated GIF with one frame per state (:func:`mk_env.core.env.pillow.write_gif`); ``render``: the
    picture of a state (default this game's)."""
    return pillow.write_gif(states, path, render=render, seconds_per_frame=seconds_per_frame, scale=scale)
