"""Helpers of the Fall of the Mountain King tests: random play, a game played to a given decision, and
positions set up by hand (the engine's task stack then continues from them)."""

from __future__ import annotations

import numpy as np

from mk_env.fall_of_the_mountain_king.rules import Block, Game, Phase
from mk_env.fall_of_the_mountain_king.rules.fields import REMOVED, SUPPLY
from mk_env.fall_of_the_mountain_king.rules.flow import ask, push


def play(st, rng, until=None, each=None, limit=5000):
    """Random legal decisions until the end, or until ``until(st)`` holds; ``each(st)`` after every one."""
    k = 0
    while not st.is_terminal() and not (until and until(st)) and k < limit:
        st.apply(int(rng.choice(st.legal_actions())))
        k += 1
        if each:
            each(st)
    return k


def at_phase(n, phase, seed=0, tries=40):
    """A random game of ``n`` players stopped at the first decision of kind ``phase``."""
    for s in range(tries):
        st = Game(n).new_initial_state(seed + s)
        play(st, np.random.default_rng(seed + s), until=lambda x: x.phase == phase)
        if st.phase == phase:
            return st
    raise AssertionError(f"no game reached {phase!r}")


def act(st, block, arg=0):
    """Apply the action of ``block`` with argument ``arg``."""
    st.apply(st.game.layout.index(block, arg))


def cavern(st, name):
    """The location number of a named cavern or lair space."""
    return st.game.side.names.index(name)


def clear_map(st):
    """Every troll off the map (into supplies), every gnome into the gnome supply, every pawn off."""
    n = st.num_players
    for x in range(st.game.side.size):
        for p in range(n):
            st.troll_supply[p] += st.trolls[x][p]
            st.trolls[x][p] = 0
    st.gnome_at = [SUPPLY] * len(st.gnome_at)
    st.gnome_public = [0] * len(st.gnome_at)
    st.champ_loc = [-1] * len(st.champ_loc)


def put_trolls(st, seat, loc, k):
    st.trolls[loc][seat] += k
    st.troll_supply[seat] -= k


def put_gnome(st, loc, strength):
    """Put a gnome of ``strength`` from the supply at ``loc``; its id."""
    g = next(i for i, x in enumerate(st.gnome_at) if x == SUPPLY and st.strength[i] == strength)
    st.gnome_at[g] = loc
    return g


def battle_position(n=2, seed=0):
    """A game at its first battle turn, the map then cleared of trolls and gnomes (lairs kept empty too):
    a blank position for a test to fill."""
    st = at_phase(n, Phase.TURN, seed)
    clear_map(st)
    return st


def decide(st, phase, seat, tasks=(), **context):
    """Make ``seat`` face a decision of ``phase`` with ``context``; ``tasks`` run after it."""
    st.tasks = [STOP]
    push(st, *tasks)
    ask(st, phase, seat, **context)
    st._cache.clear()


__all__ = ["Block", "Game", "Phase", "act", "at_phase", "battle_position", "cavern", "clear_map", "decide", "play",
           "put_gnome", "put_trolls"]


#: a harmless decision put under the tasks of a hand-made position: the engine halts there for inspection
STOP = ["keep", 0]


def only(st, block):
    """The legal arguments of ``block`` now."""
    off, size = st.game.layout.offset[block], st.game.layout.sizes[block]
    return [int(a) - off for a in st.legal_actions() if off <= a < off + size]


def set_grid(st, seat, rows):
    """Lay ``seat``'s ancestry grid from ASCII rows placed at the canvas's top-left: ``.`` no card, ``_``
    blank, else a symbol letter (A advance, B bolster, I influence,
    G gnome, W wild, S supply, E elder) with an optional strength digit and ``*`` for a marker."""
    from mk_env.fall_of_the_mountain_king.rules.ancestry import code
    from mk_env.fall_of_the_mountain_king.rules.vocabulary import Symbol
    letters = {"A": Symbol.ADVANCE, "B": Symbol.BOLSTER, "I": Symbol.INFLUENCE, "G": Symbol.GNOME, "W": Symbol.WILD,
               "S": Symbol.SUPPLY, "E": Symbol.ELDER}
    cols = st.game.canvas_cols
    st.grid[seat] = [-1] * st.game.cells
    st.covered[seat] = [0] * st.game.cells
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            i = r * cols + c
            if token == ".":
                continue
            if token == "_":
                st.grid[seat][i] = 0
                continue
            strength = int(token[1]) if len(token) > 1 and token[1].isdigit() else 1
            st.grid[seat][i] = code(letters[token[0]], strength)
            st.covered[seat][i] = int(token.endswith("*"))
    st._cache.clear()


def cell(st, r, c):
    return r * st.game.canvas_cols + c


def run_tasks(st, *tasks):
    """Run ``tasks`` on a hand-made position (the engine halts at their first decision, or at STOP)."""
    from mk_env.fall_of_the_mountain_king.rules.flow import run
    st.tasks = [STOP]
    push(st, *tasks)
    st._cache.clear()
    run(st)


def champion(st, name):
    """The card number of the champion called ``name``."""
    return next(i for i, c in enumerate(st.game.pack.champions) if c.name == name)


def give_champion(st, seat, name, at=-1):
    """``seat`` holds champion ``name`` (its pawn at location ``at``, -1: none)."""
    from mk_env.fall_of_the_mountain_king.rules.fields import HELD
    c = champion(st, name)
    for d in st.champ_decks:
        if c in d:
            d.remove(c)
    if c in st.display:
        st.display.remove(c)
    st.champ_state[c], st.champ_owner[c], st.champ_loc[c] = HELD, seat, at
    return c


def two_player_map(seed=0):
    """A 2-player game at a battle turn with an empty map, no champion held; seat 0's lairs on the Anvil
    pair (by Fire and
    Fire-Ice), seat 1's on the Horn pair (by Hammer and Moon)."""
    st = battle_position(2, seed)
    side = st.game.side
    st.lairs = [list(side.lair_pairs[side.lair_symbols.index("Anvil")]),
                list(side.lair_pairs[side.lair_symbols.index("Horn")])]
    st.votes = [[0, 0] for _ in st.votes]
    st.vote_stamp = [[0, 0] for _ in st.votes]
    st.champ_loc = [-1] * len(st.champ_loc)
    for c, o in enumerate(st.champ_owner):  # no champions held (a test gives the ones it needs)
        if o >= 0:
            st.champ_owner[c], st.champ_state[c] = -1, REMOVED
    st.wheel, st.boost = 0, [0, 0]
    return st
