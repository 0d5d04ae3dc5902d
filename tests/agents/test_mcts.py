"""The ``mcts`` agent and its information-set search: legal decisions in both games, budgets (simulations
exact, seconds within a tolerance), only determinizations of the view ever searched, the stepped interface
with a dummy evaluator (batched leaves, virtual loss undone), the horizon past the searcher's own turn,
root parallelism, reproducibility and the spec's options."""

from __future__ import annotations

import pickle
import time

import numpy as np
import pytest

from agents import make_agent
from agents import search_parallel
from agents.base import search_budget
from agents.evaluation import evaluation_of
from agents.mcts import DEFAULT_SIMULATIONS, MCTSAgent
from agents.search_eval import HeuristicEvaluator, UniformEvaluator, state_values
from agents.search_parallel import RootPool, merge_roots, most_visited, search_root, split_simulations
from agents.search_tree import Node, Search, SearchConfig
from mk_env.cave_troll.rules import Game as CaveTroll
from mk_env.games import make_game
from mk_env.core.view import PlayerView
from training.play import run_game

from test_cave_troll_agents import Watched  # checks each decision: legal, the true state untouched

GAMES = {"mountain_king": lambda n: make_game("mountain_king", n), "cave_troll": CaveTroll}


def mid_game(name: str, seed: int = 5, decisions: int = 25, players: int = 2):
    """A state after ``decisions`` quick-policy decisions, at a decision with at least three candidates."""
    game = GAMES[name](players)
    H = evaluation_of(game)
    st = game.new_initial_state(seed)
    for _ in range(decisions):
        st.apply(H.quick_action(st, st.current_player()))
    while len(H.candidates(st, st.current_player())) < 3:
        st.apply(H.quick_action(st, st.current_player()))
    return st


class GuardedView(PlayerView):
    """A view whose true state only its own ``determinize`` may read: any other read fails the test."""

    __slots__ = ("_true", "_open", "calls", "_players")

    def __init__(self, state, seat: int):
        self._true, self._open, self.calls, self._players = state, False, 0, state.num_players
        self.seat = seat

    @property
    def _state(self):
        assert self._open, "the search read the true state"
        return self._true

    @property
    def num_players(self) -> int:
        return self._players

    def determinize(self, rng: np.random.Generator):
        self._open = True
        try:
            st = super().determinize(rng)
        finally:
            self._open = False
        self.calls += 1
        return st


@pytest.mark.parametrize("name", sorted(GAMES))
def test_mcts_plays_whole_games_of_both_games_with_legal_decisions(name: str) -> None:
    seats = [Watched("mcts:2?horizon=3"), Watched("random")]
    state = run_game(seats, seed=3, game=GAMES[name](2))
    assert state.is_terminal() and seats[0].decisions > 10


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("simulations", [1, 7, 40])
def test_a_simulation_budget_is_exact(name: str, simulations: int) -> None:
    st = mid_game(name)
    tree = Search(PlayerView(st, st.current_player()), st.current_player(), np.random.default_rng(0))
    tree.run(HeuristicEvaluator(), simulations=simulations)
    assert tree.simulations == simulations
    assert tree.root_visits()[1].sum() == simulations - 1  # every walk but the root's expansion


def test_a_time_budget_is_kept_within_a_tolerance() -> None:
    st = mid_game("mountain_king")
    view = PlayerView(st, st.current_player())
    agent = MCTSAgent(simulations=None, seconds=0.3)
    t0 = time.perf_counter()
    action = agent.act(view, np.random.default_rng(0))
    elapsed = time.perf_counter() - t0
    assert 0.3 <= elapsed < 0.3 + 0.5  # one simulation past the deadline at most (loaded machine: generous)
    assert st.is_legal(action)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_search_sees_only_determinizations_of_the_view(name: str) -> None:
    st = mid_game(name)
    seat = st.current_player()
    view = GuardedView(st, seat)
    tree = Search(view, seat, np.random.default_rng(1), SearchConfig())
    ev = HeuristicEvaluator()
    selects = 0
    for _ in range(30):
        leaf = tree.select()
        selects += 1
        if leaf is not None:
            assert leaf.state is not st
            (p,), v = ev([leaf])
            tree.expand_backup(leaf, p, v[0])
    assert view.calls == selects  # a fresh determinization for every walk
    assert st.is_legal(tree.best_action())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_stepped_interface_batches_leaves_and_undoes_the_virtual_loss(name: str) -> None:
    st = mid_game(name)
    seat = st.current_player()
    tree = Search(st, seat, np.random.default_rng(2), SearchConfig(actions="legal"))
    ev = UniformEvaluator()
    first = tree.select()
    assert first.needs_priors and first.node is tree.root and first.player == seat
    assert set(first.actions.tolist()) == set(st.legal_actions().tolist())
    (p,), v = ev([first])
    tree.expand_backup(first, p, v[0])
    for _ in range(6):  # six rounds of eight walks, each round valued in one call
        leaves = [leaf for leaf in (tree.select() for _ in range(8)) if leaf is not None]
        priors, values = ev(leaves)
        for leaf, pr, val in zip(leaves, priors, values):
            assert leaf.state.current_player() == leaf.player or leaf.state.is_terminal()
            tree.expand_backup(leaf, pr, val)
    assert tree.simulations == 1 + 6 * 8
    assert tree.root_visits()[1].sum() == 6 * 8
    _check_nodes(tree.root)
    assert np.all(np.abs(tree.root_values()) <= 1e-9)  # uniform values: no virtual loss left behind


def _check_nodes(node: Node) -> None:
    """Every edge: availability at least its visits, |total value| at most its visits."""
    assert np.all(node.avail >= node.n)
    assert np.all(np.abs(node.w) <= node.n + 1e-9)
    for child in node.children.values():
        _check_nodes(child)


def test_leaf_values_are_margins_squashed_by_the_games_scale_or_a_given_one() -> None:
    st = mid_game("mountain_king", decisions=40)
    H = evaluation_of(st.game)
    settled = st.clone()
    H.settle(settled, settled.current_player())
    margin = H.evaluate(settled, 0) - H.evaluate(settled, 1)
    assert state_values(H, st.clone())[0] == pytest.approx(np.tanh(margin / 10.0))  # the first game's scale
    assert state_values(H, st.clone(), 25.0)[0] == pytest.approx(np.tanh(margin / 25.0))
    assert make_agent("mcts:8?scale=25").evaluator.scale == 25.0
    with pytest.raises(ValueError, match="scale must be a number > 0"):
        HeuristicEvaluator(scale=0)


def test_bad_priors_and_values_are_refused_clearly() -> None:
    st = mid_game("cave_troll")
    tree = Search(st, st.current_player(), np.random.default_rng(0))
    leaf = tree.select()
    with pytest.raises(ValueError, match="one entry per seat"):
        tree.expand_backup(leaf, np.ones(len(leaf.actions)), [0.0])
    with pytest.raises(ValueError, match="non-negative weights"):
        tree.expand_backup(leaf, -np.ones(len(leaf.actions)), [0.0, 0.0])
    with pytest.raises(ValueError, match=r"finite and in \[-1, 1\]"):
        tree.expand_backup(leaf, np.ones(len(leaf.actions)), [float("nan"), 3.0])
    tree.expand_backup(leaf, np.ones(len(leaf.actions)), [0.5, -0.5])
    with pytest.raises(ValueError, match="already backed up"):
        tree.expand_backup(leaf, np.ones(len(leaf.actions)), [0.5, -0.5])
    with pytest.raises(ValueError, match="one budget"):
        tree.run(UniformEvaluator())
    with pytest.raises(ValueError, match="seat must be in"):
        Search(st, 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="horizon"):
        SearchConfig(horizon=0)


def _player_changes_below(node: Node, changes: int = 0) -> int:
    """The most changes of the player to move along any path of the tree."""
    most = changes
    for child in node.children.values():
        most = max(most, _player_changes_below(child, changes + (child.player != node.player)))
    return most


@pytest.mark.parametrize("horizon", [1, 2, 3])
def test_the_tree_spans_the_horizon_past_its_own_turn(horizon: int) -> None:
    st = mid_game("cave_troll")
    tree = Search(st, st.current_player(), np.random.default_rng(3), SearchConfig(horizon=horizon))
    tree.run(HeuristicEvaluator(lookahead_depth=1), simulations=150)
    assert _player_changes_below(tree.root) == horizon - 1  # the opponents' decisions are in the tree


@pytest.mark.parametrize("players", [2, 4])
def test_the_first_games_leaves_are_valued_two_rounds_ahead_unless_the_spec_says(players: int) -> None:
    """The default rollout (each evaluation module's SEARCH_ROLLOUT_ROUNDS): two rounds in the first game, the tree's horizon (one
    round) in Cave Troll; ``rollout=N`` and a longer ``horizon`` are kept."""
    view = PlayerView(mid_game("mountain_king", players=players), 0)
    assert make_agent("mcts:8").config_for(view).rollout_horizon == 2 * players
    assert make_agent("mcts:8?rollout=2").config_for(view).rollout_horizon == 2
    assert make_agent(f"mcts:8?horizon={3 * players}").config_for(view).rollout_horizon is None
    cave = PlayerView(mid_game("cave_troll", players=players), 0)
    assert make_agent("mcts:8").config_for(cave).rollout_horizon is None
    tree = Search(view, 0, np.random.default_rng(1), make_agent("mcts:8").config_for(view))
    assert tree.horizon == players and tree.rollout_horizon == 2 * players


def test_leaves_are_valued_at_the_rollout_horizon_beyond_the_tree() -> None:
    st = mid_game("cave_troll")
    seat = st.current_player()
    tree = Search(st, seat, np.random.default_rng(4), SearchConfig(horizon=1, rollout_horizon=3))
    ev = UniformEvaluator()
    for _ in range(40):
        leaf = tree.select()
        if leaf is None:
            continue
        changes = sum(1 for (a, _), (b, _) in zip(leaf.path, leaf.path[1:]) if a.player != b.player)
        changes += bool(leaf.path) and leaf.path[-1][0].player != leaf.player
        assert leaf.turns_left == 3 - changes and leaf.turns_left >= 2
        (p,), v = ev([leaf])
        tree.expand_backup(leaf, p, v[0])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_search_is_reproducible_with_a_seed(name: str) -> None:
    st = mid_game(name)
    view = PlayerView(st, st.current_player())
    runs = []
    for _ in range(2):
        tree = Search(view, view.seat, np.random.default_rng(11)).run(HeuristicEvaluator(), simulations=30)
        runs.append((tree.best_action(), tree.root_visits()[1].tolist()))
    assert runs[0] == runs[1]
    agent = make_agent("mcts:12")
    assert agent.act(view, np.random.default_rng(4)) == agent.act(view, np.random.default_rng(4))


def test_root_parallel_searches_give_the_sequential_decision_and_legal_actions() -> None:
    st = mid_game("mountain_king")
    view = PlayerView(st, st.current_player())
    agent = MCTSAgent(simulations=24, workers=3)
    try:
        action = agent.act(view, np.random.default_rng(8))
    finally:
        agent.close()
    seeds = [int(s) for s in np.random.default_rng(8).integers(2 ** 63, size=3)]
    shares = split_simulations(24, 3)
    results = [search_root(view, view.seat, seeds[i], agent.config, agent.evaluator, shares[i], None)
               for i in range(3)]
    assert action == most_visited(*merge_roots(results))
    assert st.is_legal(action)
    assert split_simulations(2, 3) == [1, 1, 1] and sum(split_simulations(400, 3)) == 400


def test_root_parallel_pickles_the_view_before_its_own_search_changes_shared_caches(monkeypatch) -> None:
    """The children's work is pickled in the calling thread before the local search starts (the executor's
    feeder thread once pickled it while that search filled the layout's trade memo: 'OrderedDict mutated
    during iteration'); the trade memo, a cache, does not travel."""
    st = mid_game("mountain_king")
    view = PlayerView(st, st.current_player())
    layout = st.game.layout
    layout.trade_memo[b"marker"] = np.zeros(1, dtype=np.int32)
    try:
        copy = pickle.loads(pickle.dumps(layout))
        assert len(copy.trade_memo) == 0 and copy.size == layout.size and b"marker" in layout.trade_memo
    finally:
        del layout.trade_memo[b"marker"]  # the layout is the table's, shared by every later test's games
    order: list[tuple[str, type]] = []
    real_search_root = search_parallel.search_root

    def local_search(*args, **kwargs):
        order.append(("search", type(args[0])))
        return real_search_root(*args, **kwargs)

    monkeypatch.setattr(search_parallel, "search_root", local_search)
    agent = MCTSAgent(simulations=8, workers=2)
    executor = agent._pool._pool()
    real_submit = executor.submit

    def submit(fn, *args, **kwargs):
        order.append(("submit", type(args[0])))
        return real_submit(fn, *args, **kwargs)

    monkeypatch.setattr(executor, "submit", submit)
    try:
        assert st.is_legal(agent.act(view, np.random.default_rng(3)))
    finally:
        agent.close()
    assert order == [("submit", bytes), ("search", PlayerView)]


def test_root_parallel_time_budget_plays_legal_decisions_in_cave_troll() -> None:
    seats = [Watched("mcts:0.02s?workers=2"), Watched("heuristic")]
    state = run_game(seats, seed=2, game=CaveTroll(2))
    seats[0].inner.close()
    assert state.is_terminal() and seats[0].decisions > 5


def test_spec_options_build_the_search() -> None:
    agent = make_agent("mcts:1.5s?workers=2&horizon=4&c=2.5&depth=30&lookahead=2&rollout=5")
    assert (agent.seconds, agent.simulations, agent.workers) == (1.5, None, 2)
    assert (agent.config.horizon, agent.config.c_puct, agent.config.max_depth) == (4, 2.5, 30)
    assert agent.config.rollout_horizon == 5
    assert agent.evaluator.lookahead_depth == 2 and agent.evaluator.scale is None
    assert make_agent("mcts:8").evaluator.lookahead_depth == "game"  # the game's default (search_eval)
    assert make_agent("mcts:8").config.c_puct == MCTSAgent().config.c_puct == 0.5
    assert make_agent("mcts").simulations == DEFAULT_SIMULATIONS
    assert make_agent("mcts:?workers=2").simulations == DEFAULT_SIMULATIONS
    assert make_agent("mcts:100").workers == 1


@pytest.mark.parametrize("spec, words", [
    ("mcts:0", "positive number"), ("mcts:-2s", "positive number"), ("mcts:infs", "positive number"),
    ("mcts:nans", "positive number"), ("mcts:1.5", "positive number"), ("az:default?0s", "positive number"),
    ("az:default?infs", "positive number"), ("mcts:1s?workers=0", "workers"),
    ("mcts:8?workers=two", "whole number >= 1"), ("mcts:8?threads=2", "unknown option 'threads=2'"),
    ("mcts:8?c=0", "number > 0"), ("mcts:8?scale=-1", "scale .* number > 0"),
    ("mcts:8?horizon=1&horizon=2", "given twice"), ("mcts:8?workers", "unknown"),
    ("mcts:8?horizon=3&rollout=2", "rollout_horizon must be a whole number >= the horizon"),
])
def test_bad_mcts_specs_are_refused_clearly(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_agent(spec)


def test_the_search_budget_is_simulations_or_seconds() -> None:
    assert search_budget("400") == (400, None)
    assert search_budget("0.25s") == (None, 0.25)
    for bad in ("0", "-1", "1.5", "0s", "-1s", "infs", "nans", "s", "", "ten"):
        with pytest.raises(ValueError):
            search_budget(bad)


def test_a_root_pool_refuses_a_bad_number_of_workers() -> None:
    with pytest.raises(ValueError, match="workers must be a whole number >= 1"):
        RootPool(0)


def test_in_a_daemonic_worker_the_root_searches_run_in_turn_with_a_warning(monkeypatch) -> None:
    import multiprocessing
    import types
    st = mid_game("cave_troll")
    view = PlayerView(st, st.current_player())
    config, evaluator = SearchConfig(), HeuristicEvaluator()
    parallel = RootPool(2)
    expected = parallel.search(view, np.random.default_rng(6), config, evaluator, 10, None)
    parallel.close()
    monkeypatch.setattr(multiprocessing, "current_process", lambda: types.SimpleNamespace(daemon=True))
    pool = RootPool(2)
    with pytest.warns(RuntimeWarning, match="one after another"):
        assert pool.search(view, np.random.default_rng(6), config, evaluator, 10, None) == expected
    assert pool._executor is None
