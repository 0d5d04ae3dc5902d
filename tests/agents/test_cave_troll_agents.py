"""Agents over the engine protocol: ``random``, ``heuristic`` and ``mcts`` play Cave Troll (legal decisions,
the true state untouched, reproducible), the Cave Troll heuristic's rules of thumb, and the first game's
``heuristic`` choosing exactly the actions it chose before (``mcts``, rewritten for issue 15, is pinned by
tests/agents/test_mcts.py: reproducible with a seed)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

import agents.cave_troll_heuristic as CTH
import agents.heuristic
from agents import make_agent
from agents.evaluation import evaluation_of
from mk_env.cave_troll.rules import Block, Game, Kind
from mk_env.cave_troll.rules.vocabulary import PILE
from mk_env.games import make_game
from mk_env.core.view import PlayerView
from training.play import run_game

#: (agents, seed) -> (decisions, sha256 of the action list's JSON, first 16 hex digits): the first game's
#: heuristic must not change by accident. Regenerate when the first game's rules or its heuristic change on
#: purpose.
FIRST_GAME_GOLDEN = {
    ("heuristic", "random", 0): (92, "f02d58973da00570"),
    ("random", "heuristic", "random", 1): (126, "cdec5e9d04b27142"),
}


def _digest(actions: list[int]) -> str:
    return hashlib.sha256(json.dumps([int(a) for a in actions]).encode()).hexdigest()[:16]


@pytest.mark.parametrize("key", sorted(FIRST_GAME_GOLDEN))
def test_first_game_heuristic_chooses_the_same_actions_as_before(key: tuple) -> None:
    *specs, seed = key
    actions: list[int] = []
    run_game(list(specs), seed, actions=actions)
    assert (len(actions), _digest(actions)) == FIRST_GAME_GOLDEN[key]


def test_each_game_has_its_evaluation_module() -> None:
    assert evaluation_of(make_game("mountain_king", 2)) is agents.heuristic
    assert evaluation_of(Game(2)) is CTH


class Watched:
    """An agent that checks each of its decisions is legal and leaves the true state as it was."""

    def __init__(self, spec: str) -> None:
        self.inner = make_agent(spec)
        self.name, self.decisions = spec, 0

    def reset(self, seat: int, num_players: int) -> None:
        self.inner.reset(seat, num_players)

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        saved = view._state.to_json()
        action = int(self.inner.act(view, rng))
        assert view._state.to_json() == saved, f"{self.name} changed the true state"
        assert view._state.is_legal(action), f"{self.name} chose the illegal action {action}"
        self.decisions += 1
        return action


@pytest.mark.parametrize("specs", [["random", "heuristic"], ["heuristic", "mcts:3", "random"],
                                   ["mcts:2", "random", "heuristic", "random"]])
def test_agents_play_whole_cave_troll_games_with_legal_decisions(specs: list[str]) -> None:
    seats = [Watched(s) for s in specs]
    state = run_game(seats, seed=11, game=Game(len(specs)))
    assert state.is_terminal()
    assert all(seat.decisions > 0 for seat in seats)


def test_a_cave_troll_game_between_agents_is_reproducible() -> None:
    runs = []
    for _ in range(2):
        actions: list[int] = []
        state = run_game(["heuristic", "mcts:3"], seed=4, game=Game(2), actions=actions)
        runs.append((actions, state.score))
    assert runs[0] == runs[1]


def test_the_heuristic_beats_random_at_cave_troll() -> None:
    wins = 0
    for seed in range(6):
        seat = seed % 2  # the heuristic plays each seat
        specs = ["random", "random"]
        specs[seat] = "heuristic"
        state = run_game(specs, seed=seed, game=Game(2))
        wins += state.ranks()[seat] == 0
    assert wins >= 5


def _mid_game(seed: int = 3, decisions: int = 60) -> object:
    """A state after ``decisions`` random decisions, at a turn's action."""
    state = Game(2).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    while state.decision_kind() != "action":
        state.apply(int(state.legal_actions()[0]))
    return state


def test_a_turn_never_ends_early_and_its_last_action_is_a_draw() -> None:
    state = _mid_game()
    layout, p = state.game.layout, state.current_player()
    draw, end = layout.offset[Block.DRAW], layout.offset[Block.END_TURN]
    assert state.is_legal(draw) and state.is_legal(end)
    state.actions_left = 2
    cands = CTH.candidates(state, p)
    assert draw in cands and end not in cands
    state.actions_left = 1
    assert CTH.candidates(state, p) == [draw]


def test_ties_go_to_the_fixed_preference_not_to_chance() -> None:
    state = _mid_game()
    layout = state.game.layout
    ordered = CTH.preferred(state, state.legal_actions())
    blocks = [CTH.PREFERENCE.index(layout.decode(a)[0]) for a in ordered]
    assert blocks == sorted(blocks)
    assert layout.decode(ordered[-1])[0] == Block.END_TURN
    p = state.current_player()
    choices = {CTH.best_action(state.clone(), p) for _ in range(3)}
    assert len(choices) == 1


def test_a_draw_is_valued_by_its_expectation_over_every_counter_of_the_pile() -> None:
    """Grouping the pile by kind is exact: the value equals the mean over drawing each counter in turn."""
    state = _mid_game()
    p = state.current_player()
    draw = state.game.layout.offset[Block.DRAW]
    values = []
    for i in range(len(state.piles[p])):
        one = state.clone()
        pile = one.piles[p]
        pile[i], pile[-1] = pile[-1], pile[i]
        one.invalidate_caches()
        one.apply(draw)
        CTH.settle(one)
        values.append(CTH.evaluate(one, p))
    assert CTH.draw_value(state, p, draw) == pytest.approx(float(np.mean(values)))


def test_control_of_a_room_is_worth_its_gold_for_each_scoring_to_come() -> None:
    """An Explorer walking from an entrance into an empty room adds the room's gold times (1 + half a
    scoring for each "Count the Loot!" still in the piles) to its owner's projection, nothing else."""
    state = _mid_game()
    game = state.game
    lair = game.pack.lair
    occupied = {x for x in state.loc if x >= 0}
    room = next(r for r in range(lair.n_rooms) if r not in occupied and r != state.idol_room)
    explorer = next((c for c in game.counters_of[0] if state.loc[c] >= lair.n_rooms
                     and game.kind_of[c] == Kind.EXPLORER), None)
    if explorer is None:  # none at an entrance in this game: bring one out of the pile
        explorer = next(c for c in state.piles[0] if game.kind_of[c] == Kind.EXPLORER)
        state.piles[0].remove(explorer)
        state.loc[explorer] = lair.n_rooms  # the first entrance
        state.invalidate_caches()
    before = CTH.projected(state)
    state.loc[explorer] = room
    state.invalidate_caches()
    after = CTH.projected(state)
    loot_left = sum(1 for c, x in enumerate(state.loc) if x == PILE and game.kind_of[c] == Kind.COUNT_THE_LOOT)
    assert after[0] - before[0] == pytest.approx((1 + CTH.LOOT_WEIGHT * loot_left) * lair.gold[room])
    assert after[1:] == before[1:]
