"""Seeing a Fall of the Mountain King game as text (``ansi``) or as an image (``rgb_array``).

* :func:`render_ansi` -- the seven domains with each cavern's trolls, champion pawns and gnomes, the lairs,
  the Great Halls, the clan board, the champions on display, every player's ancestry grid and standing,
  and the decision awaited.
* :func:`render_rgb` -- the map as a graph drawn with Pillow. The data pack gives no coordinates, so the
  seven domains sit on a fixed circle in the map's order (gates outside, the other caverns inside), each
  Great Hall between its two domains nearer the middle, each lair space beyond the caverns it touches.
  A cavern shows its trolls per seat (a square of the seat's colour with the count), champion pawns
  (letters), gnomes (grey dots, strength or ``?``) and its controller's colour round it; a side panel shows
  the gnome wheel, the clan board's votes and every seat's honor.

Rendering is a spectator's view: gnome strengths and gate cards show only once revealed in play (never what
one player scouted), hands as sizes. Nothing here changes a state."""

from __future__ import annotations

import math

import numpy as np

from mk_env.core.env.pillow import image_and_draw
from mk_env.fall_of_the_mountain_king.rules.ancestry import decode
from mk_env.fall_of_the_mountain_king.rules.board import controller, forces
from mk_env.fall_of_the_mountain_king.rules.fields import HELD

#: a letter per ancestry symbol in the grid picture (strength 2+ as a digit after it)
LETTERS = "ABIGWSE"  # advance, bolster, influence, gnome, wild, supply, elder


def _pieces(st, x: int, f: list[int]) -> str:
    """E.g. "s0:3+A s1:1 g[2,?]": trolls by seat (+ champion pawn letters), gnomes by known strength."""
    parts = []
    champs = st.game.pack.champions
    for seat, k in enumerate(f):
        if k:
            pawns = "".join(champs[c].letter or "*" for c, at in enumerate(st.champ_loc)
                            if at == x and st.champ_owner[c] == seat)
            parts.append(f"s{seat}:{k}" + (f"+{pawns}" if pawns else ""))
    gnomes = [str(st.strength[g]) if st.gnome_public[g] else "?"
              for g, at in enumerate(st.gnome_at) if at == x]
    if gnomes:
        parts.append("g[" + ",".join(gnomes) + "]")
    return " ".join(parts)


def grid_lines(st, seat: int) -> list[str]:
    """``seat``'s ancestry grid: a letter per symbol (lower case when covered by a marker), ``.`` blank,
    digits for strength 2+, spaces where there is no card; only the rows holding cards."""
    g = st.game
    rows = []
    for r in range(g.canvas_rows):
        cells = []
        for c in range(g.canvas_cols):
            i = r * g.canvas_cols + c
            code = st.grid[seat][i]
            if code < 0:
                cells.append("  ")
                continue
            sym = decode(code)
            text = "." if sym is None else LETTERS[int(sym[0])] + (str(sym[1]) if sym[1] > 1 else "")
            cells.append(f"{text.lower() if st.covered[seat][i] else text:<2}")
        if any(x.strip() for x in cells):
            rows.append("    " + " ".join(cells).rstrip())
    return rows


def render_ansi(st) -> str:
    """The map, the boards, the players and the decision awaited, as plain text."""
    g = st.game
    side, pack = g.side, g.pack
    f = forces(st)
    lines = [f"Fall of the Mountain King, {st.num_players} players, wave {st.wave}; swarm at "
             f"{pack.clans[st.swarm]}'s point", "Map (trolls by seat s<k>:<n>, +champion pawns, g[gnome strengths, ? "
             "facedown]; -> controller):"]
    for clan, caverns in enumerate(side.domain):
        lines.append(f"  {pack.clans[clan]}:")
        for x in caverns:
            who = controller(st, x, f[x])
            gate = " (gate)" if x in side.gates[clan] else ""
            lines.append(f"    {side.names[x]}{gate}: {_pieces(st, x, f[x]) or '-'}"
                         + (f"  -> seat {who}" if who >= 0 else ""))
    for seat, lairs in enumerate(st.lairs):
        for x in lairs:
            lines.append(f"  lair of seat {seat}: {side.names[x]} {_pieces(st, x, f[x])}".rstrip())
    halls = [f"{name}={st.hall_value[h]}" + ("*" if st.starburst[h] >= 0 else "")
             for h, name in enumerate(side.hall_names)]
    lines += ["Great Halls (value, * starburst): " + ", ".join(halls), "Clan board (votes by seat):"]
    for clan, name in enumerate(pack.clans):
        lines.append(f"  {name:<8} tile {pack.vote_tiles[st.vote_tiles[clan]]} votes {st.votes[clan]}")
    shown = ", ".join(f"{pack.champions[c].name} (influence {st.influence[c]})" for c in st.display)
    lines += [f"Champions on display: {shown or '-'}", "Gate cards revealed: "
              + (", ".join(pack.clans[c] for c in st.invasion[:st.revealed]) or "-")
              + f" ({len(st.invasion) - st.revealed} facedown)", f"Gnome wheel: space {st.wheel} "
              f"({pack.wheel.spaces[st.wheel].name.lower()})", "Players:"]
    for seat in range(st.num_players):
        held = [pack.champions[c].name for c, s in enumerate(st.champ_state) if s == HELD and st.champ_owner[c] == seat]
        flag = " <- turn" if seat == st.turn_player else ""
        lines.append(f"  seat {seat}: {st.honor[seat]} honor, supply {st.supply[seat]}, desperation "
                     f"{st.desperation[seat]}, trolls in supply {st.troll_supply[seat]}, boost {st.boost[seat]}, "
                     f"hand {len(st.hands[seat])}, champions: {', '.join(held) or '-'}{flag}")
        lines += grid_lines(st, seat)
    lines.append(f"Now: {_now(st)}")
    return "\n".join(lines)


def _now(st) -> str:
    """The decision awaited, or that the game is over."""
    return "game over" if st.is_terminal() else f"{st.decision_kind()} decision of seat {st.current_player()}"


RGB = tuple[int, int, int]
#: each seat's drawing colour (the pack names none)
SEAT_COLOURS: tuple[RGB, ...] = ((210, 50, 50), (50, 90, 220), (40, 160, 60), (230, 180, 30), (140, 60, 170))
SIZE = 760  # the map's square, in pixels
PANEL = 280  # the side panel's width
RADIUS = 230  # the circle the domains sit on
NODE = 30  # a cavern's radius
LAIR = 22  # half a lair space's side


def seat_colour(seat: int) -> RGB:
    """The drawing colour of ``seat`` (0-4)."""
    return SEAT_COLOURS[seat]


def map_positions(side) -> list[tuple[float, float]]:
    """Every location's centre on the picture: caverns by domain on a circle (gates outside), then the lair
    spaces beyond the caverns they touch (split apart where two would meet)."""
    mid = SIZE / 2
    order = sorted(range(len(side.domain)), key=lambda clan: min(side.domain[clan]))
    pos: list[tuple[float, float]] = [(mid, mid)] * side.size
    for k, clan in enumerate(order):
        angle = -math.pi / 2 + 2 * math.pi * k / len(order)
        inner = [x for x in side.domain[clan] if x not in side.gates[clan]]
        for x in side.domain[clan]:
            if x in side.gates[clan]:
                r, da = RADIUS + 45, 0.0
            else:
                r, da = RADIUS - 35, (inner.index(x) - (len(inner) - 1) / 2) * 0.34
            pos[x] = (mid + r * math.cos(angle + da), mid + r * math.sin(angle + da))
    for n, x in enumerate(range(side.n_caverns, side.size)):
        near = side.adjacent[x]
        vx = sum(pos[y][0] for y in near) / len(near) - mid
        vy = sum(pos[y][1] for y in near) / len(near) - mid
        angle = math.atan2(vy, vx) + (0.1 if n % 2 else -0.1)
        pos[x] = (mid + (RADIUS + 118) * math.cos(angle), mid + (RADIUS + 118) * math.sin(angle))
    return pos


def _hall_positions(side, pos: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Each Great Hall between the caverns it touches, pulled towards the middle."""
    mid = SIZE / 2
    out = []
    for touching in side.halls:
        vx = sum(pos[x][0] for x in touching) / len(touching) - mid
        vy = sum(pos[x][1] for x in touching) / len(touching) - mid
        out.append((mid + 0.55 * vx, mid + 0.55 * vy))
    return out


def _draw_location(draw, st, x: int, centre: tuple[float, float], f: list[int]) -> None:
    """One cavern or lair space: its tile, short name, trolls per seat, champion pawns and gnomes."""
    side, champs = st.game.side, st.game.pack.champions
    cx, cy = centre
    box = [cx - NODE, cy - NODE, cx + NODE, cy + NODE]
    if x < side.n_caverns:
        who = controller(st, x, f)
        gate = any(x in g for g in side.gates)
        draw.ellipse(box, fill=(200, 180, 145) if gate else (222, 205, 170),
                     outline=seat_colour(who) if who >= 0 else (90, 70, 50), width=5 if who >= 0 else 2)
        label = side.names[x].split()[0][:4] + ("*" if gate else "")
    else:
        box = [cx - LAIR, cy - LAIR, cx + LAIR, cy + LAIR]
        draw.rectangle(box, fill=(120, 110, 100), outline=(40, 30, 20), width=2)
        label = side.names[x].split()[0]
    draw.text((box[0] + 6, box[1] + 4), label, fill=(20, 20, 20) if x < side.n_caverns else (250, 250, 250))
    column = 0
    for seat, k in enumerate(f):
        if k:
            left, top = box[0] + 4 + 17 * (column % 3), cy - 7 + 16 * (column // 3)
            draw.rectangle([left, top, left + 14, top + 13], fill=seat_colour(seat), outline=(0, 0, 0))
            draw.text((left + 4, top + 1), str(k) if k < 10 else "+", fill=(255, 255, 255))
            column += 1
    pawns = "".join(champs[c].letter or "*" for c, at in enumerate(st.champ_loc) if at == x)
    if pawns:
        draw.text((cx + NODE - 4, cy - NODE), pawns[:4], fill=(120, 0, 120))
    gnomes = [str(st.strength[g]) if st.gnome_public[g] else "?" for g, at in enumerate(st.gnome_at) if at == x]
    for i, text in enumerate(gnomes[:4]):
        gx, gy = cx - 20 + 13 * i, cy + NODE - 9
        draw.ellipse([gx - 6, gy - 6, gx + 6, gy + 6], fill=(150, 150, 150), outline=(30, 30, 30))
        draw.text((gx - 3, gy - 6), text, fill=(0, 0, 0))


def _draw_panel(draw, st) -> None:
    """The side panel: the gnome wheel, the clan board's votes, each seat's honor and the decision awaited."""
    pack, left = st.game.pack, SIZE + 10
    draw.text((left, 10), f"Wave {st.wave}   swarm: {pack.clans[st.swarm]}", fill=(0, 0, 0))
    spaces = pack.wheel.spaces
    wx, wy = left + 130, 120
    draw.text((left, 30), "Gnome wheel", fill=(0, 0, 0))
    for i, space in enumerate(spaces):
        a = -math.pi / 2 + 2 * math.pi * i / len(spaces)
        px, py = wx + 70 * math.cos(a), wy + 70 * math.sin(a)
        here = i == st.wheel
        draw.ellipse([px - 12, py - 12, px + 12, py + 12], fill=(240, 200, 60) if here else (225, 225, 225),
                     outline=(0, 0, 0), width=3 if here else 1)
        draw.text((px - 6, py - 6), space.name[:2].title(), fill=(0, 0, 0))
    draw.text((wx - 30, wy - 6), spaces[st.wheel].name.lower()[:10], fill=(0, 0, 0))
    y = 215
    draw.text((left, y), "Clan board (votes by seat)", fill=(0, 0, 0))
    for clan, name in enumerate(pack.clans):
        y += 16
        draw.text((left, y), f"{name[:8]:<8}", fill=(0, 0, 0))
        for seat, v in enumerate(st.votes[clan]):
            draw.text((left + 70 + 38 * seat, y), str(v), fill=seat_colour(seat))
    y += 30
    draw.text((left, y), "Honor", fill=(0, 0, 0))
    for seat in range(st.num_players):
        y += 18
        draw.rectangle([left, y, left + 12, y + 12], fill=seat_colour(seat))
        flag = " <- turn" if seat == st.turn_player else ""
        draw.text((left + 18, y), f"seat {seat}: {st.honor[seat]} honor, supply {st.supply[seat]}{flag}",
                  fill=(0, 0, 0))
    halls = ", ".join(str(v) for v in st.hall_value)
    draw.text((left, y + 30), f"Great Hall values: {halls}", fill=(0, 0, 0))


def render_rgb(st) -> np.ndarray:
    """The map and the side panel as an ``H x W x 3`` uint8 image (Pillow, from the ``tools`` extra)."""
    Image, ImageDraw = image_and_draw()
    side = st.game.side
    f = forces(st)
    img = Image.new("RGB", (SIZE + PANEL, SIZE + 24), (245, 240, 228))
    draw = ImageDraw.Draw(img)
    pos = map_positions(side)
    for x, near in enumerate(side.adjacent):
        for y in near:
            if y > x:
                draw.line([pos[x], pos[y]], fill=(160, 140, 120), width=3)
    for h, (hx, hy) in enumerate(_hall_positions(side, pos)):
        for x in side.halls[h]:
            draw.line([(hx, hy), pos[x]], fill=(205, 195, 170), width=1)
        star = st.starburst[h] >= 0
        draw.rectangle([hx - 16, hy - 11, hx + 16, hy + 11], fill=(250, 230, 160) if star else (235, 225, 200),
                       outline=(120, 100, 60))
        draw.text((hx - 10, hy - 6), f"H{st.hall_value[h]}" + ("*" if star else ""), fill=(0, 0, 0))
    for x in range(side.size):
        _draw_location(draw, st, x, pos[x], f[x])
    _draw_panel(draw, st)
    draw.text((6, SIZE + 5), f"Now: {_now(st)}", fill=(0, 0, 0))
    return np.asarray(img, dtype=np.uint8).copy()
