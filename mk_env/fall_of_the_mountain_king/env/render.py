"""Seeing a Fall of the Mountain King game as text (``ansi``): the seven domains with each cavern's trolls,
champion pawns and gnomes, the lairs, the Great Halls, the clan board, the champions on display, every
player's ancestry grid and standing, and the decision awaited. Rendering is a spectator's view: gnome
strengths and gate cards show only once revealed in play (never what one player scouted), hands as sizes.
Nothing here changes a state."""

from __future__ import annotations

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
    lines += [f"Champions on display: {shown or '-'}", f"Gate cards revealed: "
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
    now = "game over" if st.is_terminal() else f"{st.decision_kind()} decision of seat {st.current_player()}"
    lines.append(f"Now: {now}")
    return "\n".join(lines)
