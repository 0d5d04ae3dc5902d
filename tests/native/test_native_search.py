"""The compiled search (issue 51, "the information-set search's simulations"): from the same view, generator
seed and settings, the compiled tree and the Python one (the reference) end with the same root (actions, priors,
visits and values, to the last bit), with the compiled heuristic's whole iterations and with leaves handed out
to a Python evaluator in batches, Dirichlet noise included; ``new_search`` picks the tree by backend; bad input
is refused."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agents import heuristic as H
from agents.mcts import MCTSAgent
from agents.native_heuristic import reference
from agents.search_eval import HeuristicEvaluator, UniformEvaluator
from agents.search_native import NativeSearch, new_search
from agents.search_tree import Search, SearchConfig
from mk_env.core.view import PlayerView
from mk_env.mountain_king.rules import Game
from tests.native.fused import needs_exact

pytest.importorskip("mk_env.mountain_king.rules._native", reason="the compiled engine is not built")


def views(players: int, seed: int, count: int, every: int = 9):
    """Views of the player to move at every ``every``-th decision of a heuristic game."""
    st = Game(players, backend="native").new_initial_state(seed)
    out, decision = [], 0
    while len(out) < count and not st.is_terminal():
        if decision % every == 0 and len(st.legal_actions()) > 1:
            out.append(PlayerView(st.clone(), st.current_player()))
        with reference():
            st.apply(H.best_action(st, st.current_player()))
        decision += 1
    return out


def roots(view, config, evaluator, seed, simulations=24, batch=1):
    """The root after the compiled and the Python search of ``view`` (the same seed, settings, budget)."""
    out = []
    for ref in (False, True):
        rng = np.random.default_rng(seed)
        if ref:
            with reference():
                tree = Search(view, view.seat, rng, config)
                tree.run(evaluator, simulations=simulations, batch=batch)
        else:
            tree = NativeSearch(view, view.seat, rng, config)
            tree.run(evaluator, simulations=simulations, batch=batch)
        r = tree.root
        out.append((list(r.actions), np.asarray(r.priors), np.asarray(r.n), np.asarray(r.w), tree.best_action(),
                    tree.simulations, rng.random()))
    return out


def assert_same(a, b):
    assert a[0] == b[0] and a[4] == b[4] and a[5] == b[5] and a[6] == b[6]  # the draws too
    for x, y in zip(a[1:4], b[1:4]):
        assert np.array_equal(x, y), (x - y)


MCTS = MCTSAgent().config
CONFIGS = {
    "default": (2, replace(MCTS, rollout_horizon=4), HeuristicEvaluator()),
    "four_players": (4, replace(MCTS, rollout_horizon=8), HeuristicEvaluator()),
    "legal": (2, replace(MCTS, actions="legal", horizon=3), HeuristicEvaluator(lookahead_depth=1, scale=20.0)),
    "no_rollout": (3, replace(MCTS, fpu="zero", widen_power=0.7), HeuristicEvaluator(rollout=False, temperature=0.8)),
}


@needs_exact
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_compiled_search_ends_with_the_python_ones_root(name):
    players, config, evaluator = CONFIGS[name]
    for k, view in enumerate(views(players, 7 + players, 4)):
        assert_same(*roots(view, config, evaluator, seed=100 + k))


@needs_exact
@pytest.mark.parametrize("batch", [1, 4])
def test_leaves_handed_out_are_backed_up_alike(batch):
    config = SearchConfig(dirichlet_alpha=0.5, rollout_horizon=4)
    for k, view in enumerate(views(2, 3, 3)):
        assert_same(*roots(view, config, UniformEvaluator(), seed=k, simulations=30, batch=batch))


def test_the_mcts_agent_chooses_alike_and_new_search_picks_the_tree():
    agent = MCTSAgent(16)
    for k, view in enumerate(views(2, 5, 4)):
        with reference():
            expected = agent.act(view, np.random.default_rng(k))
        assert agent.act(view, np.random.default_rng(k)) == expected
    view = views(2, 5, 1)[0]
    assert isinstance(new_search(view, view.seat, np.random.default_rng(0)), NativeSearch)
    python = Game(2, backend="python").new_initial_state(0)
    assert type(new_search(python, 0, np.random.default_rng(0))) is Search
    with reference():
        assert type(new_search(view, view.seat, np.random.default_rng(0))) is Search
    timed = NativeSearch(view, view.seat, np.random.default_rng(0), MCTS).run(HeuristicEvaluator(), seconds=0.05)
    assert timed.simulations >= 1 and timed.root.expanded


def test_the_compiled_search_refuses_bad_input():
    view = views(2, 5, 1)[0]
    tree = NativeSearch(view, view.seat, np.random.default_rng(0))
    with pytest.raises(ValueError, match="root is not expanded"):
        tree.best_action()
    leaf = tree.select()
    with pytest.raises(ValueError, match="one entry per seat"):
        tree.expand_backup(leaf, np.ones(len(leaf.actions)), [0.0])
    with pytest.raises(ValueError, match="in \\[-1, 1\\]"):
        tree.expand_backup(leaf, np.ones(len(leaf.actions)), [2.0, 0.0])
    with pytest.raises(ValueError, match="finite non-negative"):
        tree.expand_backup(leaf, -np.ones(len(leaf.actions)), [0.0, 0.0])
    tree.expand_backup(leaf, np.ones(len(leaf.actions)), [0.5, -0.5])
    with pytest.raises(ValueError, match="already backed up"):
        tree.expand_backup(leaf, np.ones(len(leaf.actions)), [0.5, -0.5])
    with pytest.raises(ValueError, match="seat"):
        NativeSearch(view, 1 - view.seat, np.random.default_rng(0))
    with pytest.raises(ValueError, match="exactly one budget"):
        tree.run(HeuristicEvaluator())
