"""Games played in lockstep by network-guided searches, with one batched network call per step.

:func:`play_lockstep` runs K games at once. Each game's seat to move owns a search tree
(:class:`agents.search_tree.Search`, configured by :func:`agents.az.search_config`) over determinizations of
its own view; at every step each unfinished tree hands out up to ``leaves_per_step`` leaves (virtual loss;
one while its root is not expanded), the leaves are grouped by the network that owns their tree (self-play:
one network; gating: the candidate and the best), each group is evaluated in one forward pass, and the
results are backed up. A tree that has its simulations picks its move (sampled in proportion to the visit
counts for the first ``temperature_moves`` decisions of the game, the most visited afterwards), the
position is recorded (the seat's observation, the root's actions, the visit distribution) and the true
game moves on. A decision with a single legal action is played without search and not recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.az import NetEvaluator, search_config
from agents.az_net import egocentric
from agents.search_native import new_search
from mk_env.core.view import PlayerView

from .buffer import Position


@dataclass
class SearchSettings:
    """How each decision of a lockstep game is searched and chosen."""

    simulations: int = 32
    temperature_moves: int = 0  # decisions per game chosen by sampling the visits (0: always the most visited)
    noise: tuple[float, float] | None = None  # Dirichlet (alpha, fraction) at the roots (self-play)
    c_puct: float = 1.5
    leaves_per_step: int = 4  # leaves one tree hands out per batched network call


@dataclass
class _Game:
    state: Any
    seats: list[int]  # the evaluator of each seat
    rng: np.random.Generator
    tree: Any = None  # its search (agents.search_native.new_search), while a decision is under way
    decisions: int = 0
    history: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)


@dataclass
class LockstepResult:
    """What :func:`play_lockstep` played: each game's final state and the recorded positions."""

    states: list[Any]
    positions: list[Position]
    decisions: int  # searched decisions (recorded or not)
    leaves: int  # leaves evaluated


def play_lockstep(game: Any, evaluators: list[NetEvaluator], seats: list[list[int]], seeds: list[int],
                  settings: SearchSettings, rng: np.random.Generator, record: bool = True,
                  stop: Callable[[], bool] = lambda: False) -> LockstepResult:
    """Play ``len(seeds)`` games of ``game``; ``seats[g][seat]`` is the index in ``evaluators`` of the
    network searching for that seat in game ``g``. ``stop()`` true: return at once (games unfinished)."""
    if len(seats) != len(seeds):
        raise ValueError(f"{len(seats)} seatings for {len(seeds)} games")
    games = [_Game(game.new_initial_state(int(s)), list(row), np.random.default_rng([int(s), 0xA2])) for
             row, s in zip(seats, seeds)]
    observer = evaluators[0].observer
    positions: list[Position] = []
    leaves_done, decisions = 0, 0
    while True:
        live = [g for g in games if _advance_to_search(g, settings)]
        if not live or stop():
            break
        groups: dict[int, list[tuple[_Game, Any]]] = {}
        for g in live:
            room = settings.leaves_per_step if g.tree.root.expanded else 1
            for _ in range(min(room, settings.simulations - g.tree.simulations)):
                leaf = g.tree.select()
                if leaf is not None:
                    groups.setdefault(g.seats[g.tree.seat], []).append((g, leaf))
        for k, items in groups.items():
            priors, values = evaluators[k]([leaf for _, leaf in items])
            for (g, leaf), p, v in zip(items, priors, values):
                g.tree.expand_backup(leaf, p, v)
            leaves_done += len(items)
        for g in live:
            if g.tree.simulations >= settings.simulations:
                decisions += 1
                _move(g, settings, observer, record)
    for g in games:
        outcome = np.asarray(g.state.returns(), np.float32)
        positions += [Position.make(obs, legal, pi, egocentric(outcome, seat))
                      for seat, obs, legal, pi in g.history]
    return LockstepResult([g.state for g in games], positions, decisions, leaves_done)


def _advance_to_search(g: _Game, settings: SearchSettings) -> bool:
    """Play forced decisions; give the game a tree if it needs a search. Whether it is still going."""
    while g.tree is None:
        if g.state.is_terminal():
            return False
        legal = g.state.legal_actions()
        if len(legal) == 1:
            g.state.apply(int(legal[0]))
            continue
        seat = g.state.current_player()
        g.tree = new_search(PlayerView(g.state, seat), seat, g.rng, search_config(settings.c_puct, settings.noise))
    return True


def _move(g: _Game, settings: SearchSettings, observer: Any, record: bool) -> None:
    """Choose and play the move of a finished search; record the position."""
    actions, visits = g.tree.root_visits()
    player = g.tree.seat
    target = visit_policy(visits, 1.0)
    if g.decisions < settings.temperature_moves:
        action = int(actions[g.rng.choice(len(actions), p=target)])
    else:
        action = int(g.tree.best_action())
    if record:
        g.history.append((player, observer.encode_flat(g.state, player).copy(), actions, target))
    g.state.apply(action)
    g.decisions += 1
    g.tree = None


def visit_policy(visits: np.ndarray, temperature: float) -> np.ndarray:
    """Visit counts -> a distribution: ``n^(1/T)`` normalised; ``T == 0`` puts all mass on the most
    visited (ties shared)."""
    visits = np.asarray(visits, float)
    if visits.sum() <= 0:
        return np.full(len(visits), 1.0 / max(1, len(visits)))
    if temperature <= 0:
        best = visits == visits.max()
        return best / best.sum()
    p = visits ** (1.0 / temperature)
    return p / p.sum()
