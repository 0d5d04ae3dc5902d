"""Seeing a Cave Troll game: the lair as text (``ansi``) or as an image (``rgb_array``). Nothing here
changes a state; who controls a room is asked of the engine (:func:`~mk_env.cave_troll.rules.scoring.room_control`).

* :func:`render_ansi` -- a map of the lair on the pack's grid (each location's name with its gold, ``*``
  where a Cave Troll stands, ``I`` the Idol), then every occupied location with its counters by colour
  and kind and its controller, then the players (gold, pile left, artifacts held) and the decision awaited.
* :func:`render_rgb` -- the lair graph drawn with Pillow from the pack's positions: doorways as lines,
  rooms as tiles with their gold, entrances as grey squares, the pit black, each counter a dot of its
  owner's colour with its kind's letter, the controller's colour round a controlled room.
"""

from __future__ import annotations

import numpy as np

from mk_env.cave_troll.rules import Kind
from mk_env.cave_troll.rules.board import occupancy
from mk_env.cave_troll.rules.scoring import room_control
from mk_env.core.env.pillow import image_and_draw

RGB = tuple[int, int, int]
#: one letter per counter kind on the board
LETTERS = {Kind.BARBARIAN: "B", Kind.THIEF: "T", Kind.KNIGHT: "K", Kind.DWARF: "D", Kind.EXPLORER: "E",
           Kind.WRAITH: "W", Kind.CAVE_TROLL: "C", Kind.ORC: "O", Kind.TREASURE: "$"}
#: a drawing colour for each colour name a pack may use (others: grey)
COLOURS: dict[str, RGB] = {"red": (210, 50, 50), "blue": (50, 90, 220), "green": (40, 160, 60),
                           "yellow": (230, 200, 40), "purple": (140, 60, 170), "orange": (240, 140, 30)}
CELL = 96  # pixels per grid unit of the pack's positions


def _short(name: str) -> str:
    """A location's name in at most 9 characters ("north-west entrance" -> "NW entr.")."""
    if "entrance" in name:
        return "".join(w[0].upper() for w in name.split()[0].split("-")) + " entr."
    return "PIT" if "pit" in name else name[:9]


def _counters_here(st, here: list[int]) -> str:
    """E.g. "red B E x2, blue K": the counters of one location by colour and kind."""
    g = st.game
    parts = []
    for seat in range(st.num_players):
        kinds = [Kind(g.kind_of[c]) for c in here if g.owner_of[c] == seat]
        if kinds:
            words = [LETTERS[k] + (f" x{kinds.count(k)}" if kinds.count(k) > 1 else "") for k in sorted(set(kinds))]
            parts.append(f"{g.pack.colours[seat]} {' '.join(words)}")
    return ", ".join(parts)


def render_ansi(st) -> str:
    """The lair, its counters, the players and the decision awaited, as plain text."""
    g = st.game
    lair = g.pack.lair
    occ = occupancy(st)
    width = 12
    cols = int(max(x for x, _ in lair.pos)) + 1
    rows = int(max(y for _, y in lair.pos)) + 1
    grid = [[" " * width] * cols for _ in range(rows)]
    for x, (px, py) in enumerate(lair.pos):
        mark = ("*" if occ.troll[x] else "") + ("I" if x == st.idol_room else "")
        gold = f":{lair.gold[x]}" if lair.is_room(x) else ""
        grid[int(py)][int(px)] = f"{_short(lair.names[x]) + gold + mark:<{width}}"
    lines = ["Lair (name:gold, * Cave Troll, I Idol):"] + ["".join(r).rstrip() for r in grid] + ["", "Counters:"]
    for x in range(lair.size):
        if not occ.at[x]:
            continue
        who = ""
        if lair.is_room(x):
            seat, gold, treasure = room_control(st, occ, x)
            who = f"  -> {g.pack.colours[seat]} ({gold + treasure} gold)" if seat >= 0 else "  -> nobody"
        lines.append(f"  {lair.names[x]}: {_counters_here(st, occ.at[x])}{who}")
    lines += ["", "Players:"]
    for p in range(st.num_players):
        held = sum(1 for at in st.art_at if at == p)
        flag = " <- turn" if p == st.turn_player else ""
        lines.append(f"  {g.pack.colours[p]} (seat {p}): {st.score[p]} gold, pile {len(st.piles[p])}, "
                     f"artifacts {held}{flag}")
    state = "game over" if st.is_terminal() else (f"turn {st.turn + 1}, {st.actions_left} action(s) left, "
                                                  f"{st.decision_kind()} decision of seat {st.current}")
    lines.append(f"Now: {state}")
    return "\n".join(lines)


def _colour(st, seat: int) -> RGB:
    return COLOURS.get(st.game.pack.colours[seat], (128, 128, 128))


def render_rgb(st) -> np.ndarray:
    """The lair as an ``H x W x 3`` uint8 image (Pillow, from the ``tools`` extra)."""
    Image, ImageDraw = image_and_draw()
    g = st.game
    lair = g.pack.lair
    occ = occupancy(st)
    cols = int(max(x for x, _ in lair.pos)) + 1
    rows = int(max(y for _, y in lair.pos)) + 1
    img = Image.new("RGB", (cols * CELL, rows * CELL + 24), (245, 240, 228))
    draw = ImageDraw.Draw(img)
    centre = [(int((px + 0.5) * CELL), int((py + 0.5) * CELL)) for px, py in lair.pos]
    for x, doors in enumerate(lair.doors):
        for y in doors:
            if y > x:
                draw.line([centre[x], centre[y]], fill=(150, 130, 110), width=5)
    half = CELL * 0.4
    for x, (cx, cy) in enumerate(centre):
        box = [cx - half, cy - half, cx + half, cy + half]
        if x == lair.pit:
            draw.ellipse(box, fill=(20, 20, 20))
        elif lair.is_room(x):
            seat = room_control(st, occ, x)[0]
            outline = _colour(st, seat) if seat >= 0 else (90, 70, 50)
            draw.rectangle(box, fill=(205, 185, 150), outline=outline, width=5 if seat >= 0 else 2)
            draw.text((cx - half + 4, cy - half + 3), f"{lair.names[x]} {lair.gold[x]}g", fill=(40, 30, 20))
        else:
            draw.rectangle(box, fill=(170, 170, 170), outline=(60, 60, 60), width=2)
            draw.text((cx - half + 4, cy - half + 3), _short(lair.names[x]), fill=(20, 20, 20))
        if x == st.idol_room:
            draw.text((cx + half - 12, cy - half + 3), "I", fill=(150, 0, 150))
        for i, c in enumerate(occ.at[x][:12]):
            dx, dy = (i % 4) * 16 - 24, (i // 4) * 16 - 4
            r = 7
            draw.ellipse([cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r], fill=_colour(st, g.owner_of[c]),
                         outline=(0, 0, 0))
            draw.text((cx + dx - 3, cy + dy - 6), LETTERS[Kind(g.kind_of[c])], fill=(0, 0, 0))
        if len(occ.at[x]) > 12:
            draw.text((cx - 8, cy + half - 14), f"+{len(occ.at[x]) - 12}", fill=(0, 0, 0))
    scores = "   ".join(f"{g.pack.colours[p]} {st.score[p]}" for p in range(st.num_players))
    draw.text((6, rows * CELL + 5), f"gold: {scores}   {'game over' if st.is_terminal() else st.decision_kind()}",
              fill=(0, 0, 0))
    return np.asarray(img, dtype=np.uint8).copy()
