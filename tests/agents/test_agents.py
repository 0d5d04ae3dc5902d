"""Agents: spec strings, legal decisions over whole games, heuristic strength."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.heuristic import evaluate
from agents.mcts import MCTSAgent
from mk_env.mountain_king.rules import Game
from mk_env.core.view import PlayerView


class CheckedAgent:
    """Wraps an agent and asserts every decision is legal and leaves the true state untouched."""

    def __init__(self, inner):
        self.inner, self.name, self.decisions = inner, inner.name, 0

    def reset(self, seat: int, num_players: int) -> None:
        self.inner.reset(seat, num_players)

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        before = view._state.to_json()
        a = self.inner.act(view, rng)
        assert view._state.to_json() == before, f"{self.name} changed the true state"
        assert int(a) in set(view.legal_actions().tolist()), f"{self.name} chose illegal {a}"
        self.decisions += 1
        return a


def play(specs: list[str], seed: int):
    from training.play import run_game
    agents = [CheckedAgent(make_agent(s)) for s in specs]
    return run_game(agents, seed), agents


def test_spec_strings_build_agents():
    assert make_agent("random").name == "random"
    assert make_agent("heuristic").name == "heuristic"
    assert make_agent("mcts").simulations > 0
    assert make_agent("mcts:400").simulations == 400
    a = make_agent("mcts:2s")
    assert a.seconds == 2.0 and a.simulations is None


@pytest.mark.parametrize("spec, words", [
    ("alphazero", "unknown agent spec"), ("", "non-empty"), ("mcts:-3", "positive"),
    ("mcts:abc", "positive"), ("random:5", "takes no argument"), ("ppo", "needs a model path"),
    ("ppo:/no/such/model.zip", "no model file"),
])
def test_bad_specs_are_refused_clearly(spec, words):
    with pytest.raises(ValueError, match=words):
        make_agent(spec)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_heuristic_play_legal_games(players):
    specs = ["heuristic" if p % 2 == 0 else "random" for p in range(players)]
    state, agents = play(specs, seed=players)
    assert state.is_terminal()
    assert all(a.decisions > 0 for a in agents)


@pytest.mark.slow
def test_heuristic_self_play_five_players():
    state, _ = play(["heuristic"] * 5, seed=11)
    assert state.is_terminal()
    assert min(state.score_breakdown(p)["total"] for p in range(5)) > 10


def test_mcts_plays_a_legal_game_with_a_tiny_budget():
    state, agents = play(["mcts:2", "random"], seed=5)
    assert state.is_terminal() and agents[0].decisions > 10


def test_mcts_seconds_budget_is_respected():
    import time
    game = Game(3)
    st = game.new_initial_state(2)
    rng = np.random.default_rng(0)
    while st.decision_kind() != "step2_recruit_or_dig" or len(st.legal_actions()) < 3:
        st.apply(int(st.legal_actions()[rng.integers(len(st.legal_actions()))]))
    agent = MCTSAgent(simulations=None, seconds=0.2)
    t0 = time.perf_counter()
    a = agent.act(PlayerView(st, st.current_player()), rng)
    assert time.perf_counter() - t0 < 1.5
    assert st.is_legal(a)


def test_heuristic_beats_random_in_two_player_games():
    from training.play import run_game
    wins = 0
    for seed in range(10):
        specs = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        state = run_game(specs, seed)
        wins += state.ranks()[specs.index("heuristic")] == 0
    assert wins >= 8


def test_evaluation_counts_honour_on_the_table():
    state, _ = play(["heuristic", "heuristic"], seed=3)
    for p in range(2):  # at the end the evaluation is the final honour
        assert evaluate(state, p) == state.score_breakdown(p)["total"]


# ------------------------------------------------------------------------------------------------
# the registry: a table of entry points
# ------------------------------------------------------------------------------------------------
@pytest.fixture
def registry(monkeypatch):
    """agents.registry with its table restored after the test."""
    from agents import registry as R
    monkeypatch.setattr(R, "_TABLE", dict(R._TABLE))
    monkeypatch.setattr(R, "_FACTORIES", dict(R._FACTORIES))
    monkeypatch.setattr(R, "_installed_read", False)
    return R


def test_make_agent_imports_only_the_module_of_its_kind():
    import subprocess
    import sys
    code = ("import sys; from agents import make_agent, agent_kinds; agent_kinds(); make_agent('random'); "
            "print(sorted(m for m in sys.modules if m.startswith('agents.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['agents.base', 'agents.random_agent', 'agents.registry']"


def test_builtin_help_names_the_mcts_default_budget():
    from agents import agent_kinds
    from agents.mcts import DEFAULT_SIMULATIONS
    kinds = agent_kinds()
    assert list(kinds)[:4] == ["random", "heuristic", "mcts", "ppo"]
    assert f"(default {DEFAULT_SIMULATIONS})" in kinds["mcts"]


def test_a_registered_entry_point_string_builds_the_agent(registry):
    registry.register_agent("uniform", "agents.random_agent:RandomAgent", "the random agent's class")
    registry.register_agent("quick", lambda arg: registry.make_agent("random"), "a callable factory")
    assert registry.agent_kinds()["uniform"] == "the random agent's class"
    with pytest.raises(TypeError):  # the class takes no argument: the factory gets the spec's one
        registry.make_agent("uniform")
    registry.register_agent("uniform", "agents.random_agent:from_spec", "the random agent")
    agent = registry.make_agent("uniform")
    assert type(agent).__name__ == "RandomAgent" and agent.name == "uniform"
    assert registry.make_agent("quick").name == "quick"


@pytest.mark.parametrize("kind, entry, words", [
    ("a:b", "agents.random_agent:from_spec", "no ':'"), ("", "agents.random_agent:from_spec", "name"),
    ("x", "agents.random_agent", "package.module:factory"), ("x", 3, "string or a callable"),
])
def test_bad_registrations_are_refused_clearly(registry, kind, entry, words):
    with pytest.raises((ValueError, TypeError), match=words):
        registry.register_agent(kind, entry, "help")
    assert kind not in registry.agent_kinds()


@pytest.mark.parametrize("entry, words", [
    ("no_such_package.agent:make", "not installed"), ("agents.random_agent:nothing", "has no 'nothing'"),
    ("agents.random_agent:__doc__", "not callable"),
])
def test_an_entry_point_that_cannot_load_names_the_kind(registry, entry, words):
    registry.register_agent("broken", entry, "help")
    with pytest.raises(ValueError, match=f"agent kind 'broken'.*{words}"):
        registry.make_agent("broken")


def test_a_missing_dependency_inside_an_agent_module_is_not_hidden(registry, tmp_path, monkeypatch):
    (tmp_path / "needs_more.py").write_text("import no_such_dependency_of_this_agent\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register_agent("needy", "needs_more:from_spec", "help")
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_of_this_agent"):
        registry.make_agent("needy")


def test_installed_entry_points_add_kinds(registry, monkeypatch):
    from importlib import metadata
    eps = [metadata.EntryPoint("uniform", "agents.random_agent:from_spec", registry.ENTRY_POINT_GROUP),
           metadata.EntryPoint("random", "elsewhere:make", registry.ENTRY_POINT_GROUP),
           metadata.EntryPoint("bad kind", "x:y", registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(registry.metadata, "entry_points",
                        lambda group: [ep for ep in eps if ep.group == group])
    with pytest.warns(UserWarning) as caught:
        agent = registry.make_agent("uniform:")
    assert {str(w.message).split(" (")[0] for w in caught} == {"installed agent kind 'random'",
                                                               "installed agent kind 'bad kind'"}
    assert type(agent).__name__ == "RandomAgent" and agent.name == "uniform:"
    assert registry.agent_kinds()["random"] == "uniform over legal actions"  # built-ins win


# ------------------------------------------------------------------------------------------------
# what a view gives: no observation in the rules layer; the ppo agent encodes its own
# ------------------------------------------------------------------------------------------------
def test_the_rules_view_carries_no_observation_encoder():
    st = Game(2).new_initial_state(0)
    view = PlayerView(st, 0)
    assert not hasattr(view, "observation") and not hasattr(view, "_observe")


def test_ppo_encodes_the_observation_the_env_shows_its_seat():
    pytest.importorskip("safetensors")
    from mk_env.mountain_king.env import raw_env
    agent, env = make_agent("ppo:default"), raw_env(2)  # the shipped policy reads 2-player games
    rng, checked = np.random.default_rng(2), 0
    env.reset(seed=2)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mine = agent.observation(PlayerView(env.game_state, env.possible_agents.index(name)))
        assert mine.keys() == obs["observation"].keys()
        assert all(np.array_equal(mine[k], obs["observation"][k]) for k in mine), name
        checked += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game_state.is_terminal() and checked > 50
