"""Helpers of the Fall of the Mountain King tests: random play, a game played to a given decision, and
positions set up by hand (the engine's task stack then continues from them)."""

from __future__ import annotations

import numpy as np

from mk_env.fall_of_the_mountain_king.rules import Block, Game, Phase
from mk_env.fall_of_the_mountain_king.rules.fields import SUPPLY
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
    g = next(i for i, x in enumerate(st.gnome_at) if x == SUPPLY and st.game.gnome_strength[i] == strength)
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
    st.tasks = [["end_game"]]
    push(st, *tasks)
    ask(st, phase, seat, **context)
    st._cache.clear()


__all__ = ["Block", "Game", "Phase", "act", "at_phase", "battle_position", "cavern", "clear_map", "decide", "play",
           "put_gnome", "put_trolls"]
