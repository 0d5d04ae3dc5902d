"""The environment as RL libraries meet it: observation styles, pickling, PettingZoo's state(), the
illegal-move warning, registration, and actions as libraries give them (issues 17 and 18)."""

from __future__ import annotations

import functools
import inspect
import pickle
import subprocess
import sys

import cloudpickle
import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.state_test import test_state as pettingzoo_state_test
from pettingzoo.utils import BaseWrapper

import mk_env
from mk_env.mountain_king.env import FlattenObservation, observation_slices
from mk_env.mountain_king.env.masks import random_legal_action
from mk_env.mountain_king.rules import IllegalActionError
from mk_env.mountain_king.rules.errors import ActionTypeError
from mk_env.mountain_king.env.version import ENV_NAME
from mk_env.games import game_entry

GYMNASIUM_ID = game_entry("mountain_king").gymnasium_id()

PLAYER_COUNTS = (2, 3, 4, 5)
STYLES = ("dict", "flat", "rllib")
WRONG_TYPES = [3.0, np.float32(3), True, np.bool_(True), "3", b"3", np.array([3]), np.array([[3]]),
               np.array(3.0), np.array(True), [3], None]


def _vector_and_mask(obs: dict) -> tuple[np.ndarray, np.ndarray]:
    return (obs["observations"] if "observations" in obs else obs["observation"]), obs["action_mask"]


def _run_python(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter (what a user's script sees); it must succeed."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out


def _same_observation(x: dict, y: dict) -> bool:
    """Two observations of any style hold the same arrays."""
    flat = {k: v for k, v in x.items() if not isinstance(v, dict)}
    nested = {k: v for k, v in x.items() if isinstance(v, dict)}
    return (x.keys() == y.keys() and all(np.array_equal(v, y[k]) for k, v in flat.items())
            and all(np.array_equal(a, y[k][name]) for k, d in nested.items() for name, a in d.items()))


def _play(env, seed: int, steps: int | None = None) -> tuple[list[int], dict]:
    """Masked random play through ``env`` (any style), to the end or for ``steps`` actions; the
    actions taken and each agent's final infos."""
    rng = np.random.default_rng(seed)
    taken, final = [], {}
    while env.agents and (steps is None or len(taken) < steps):
        agent = env.agent_selection
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = info
            env.step(None)
            continue
        taken.append(random_legal_action(_vector_and_mask(obs)[1], rng))
        env.step(taken[-1])
    return taken, final


# -- observation styles -------------------------------------------------------------------------------
class _Int8Mask(BaseWrapper):
    """The ``"rllib"`` style with its float32 mask cast back to int8 and nothing else changed:
    PettingZoo's test utilities sample with ``Discrete.sample(mask)``, which takes only int8 masks."""

    def __init__(self, env):
        super().__init__(env)
        space = env.observation_space(env.possible_agents[0])
        self._space = gymnasium.spaces.Dict({
            "observations": space["observations"],
            "action_mask": gymnasium.spaces.Box(0, 1, space["action_mask"].shape, np.int8)})

    def observe(self, agent):
        obs = self.env.observe(agent)
        return {"observations": obs["observations"], "action_mask": obs["action_mask"].astype(np.int8)}

    def observation_space(self, agent):
        return self._space


@pytest.mark.parametrize("style", ["flat", "rllib"])
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_and_seed_tests_pass_in_every_style(n, style):
    def make():
        e = mk_env.env(num_players=n, observation=style)
        return _Int8Mask(e) if style == "rllib" else e

    api_test(make(), num_cycles=30)
    seed_test(make, num_cycles=20)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_flat_vector_is_the_dict_flattened_in_the_spaces_key_order(n):
    dict_env = mk_env.raw_env(num_players=n)
    flat_env = mk_env.raw_env(num_players=n, observation="flat")
    rllib_env = mk_env.raw_env(num_players=n, observation="rllib")
    inner = dict_env.observation_space("player_0")["observation"]
    slices = observation_slices(num_players=n)
    assert slices == flat_env.observation_slices() == mk_env.env(num_players=n).observation_slices()
    assert list(slices) == list(inner.spaces)
    for e in (dict_env, flat_env, rllib_env):
        e.reset(seed=n)
    for k, agent in enumerate(dict_env.agent_iter()):
        if k >= 40 or dict_env.terminations[agent]:
            break
        d, f, r = (e.observe(agent) for e in (dict_env, flat_env, rllib_env))
        assert f["observation"].dtype == np.float32 and f["observation"].shape == (flat_env.observer.size,)
        assert np.array_equal(f["observation"], gymnasium.spaces.flatten(inner, d["observation"]))
        assert np.array_equal(r["observations"], f["observation"])
        assert r["action_mask"].dtype == np.float32 and np.array_equal(r["action_mask"], d["action_mask"])
        for key, (start, stop, shape) in slices.items():
            assert np.array_equal(f["observation"][start:stop].reshape(shape), d["observation"][key])
        assert flat_env.observation_space(agent).contains(f)
        assert rllib_env.observation_space(agent).contains(r)
        action = random_legal_action(d["action_mask"], np.random.default_rng(k))
        for e in (dict_env, flat_env, rllib_env):
            e.step(action)


def test_the_dict_is_views_onto_one_flat_buffer():
    env = mk_env.raw_env(num_players=2)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)["observation"]
    base = obs["board"].base
    assert base.shape == (env.observer.size,) and all(v.base is base for v in obs.values())
    assert env.observer.flatten(obs) is base  # flattening our own dict copies nothing
    copied = {k: v.copy() for k, v in obs.items()}
    assert np.array_equal(env.observer.flatten(copied), base)


@pytest.mark.parametrize("style", ["flat", "rllib"])
@pytest.mark.parametrize("inner_style", STYLES)
def test_flatten_observation_wrapper_on_any_of_our_aec_envs(style, inner_style):
    plain = mk_env.env(num_players=3, observation=style)
    for inner in (mk_env.env(num_players=3, observation=inner_style),
                  mk_env.raw_env(num_players=3, observation=inner_style)):
        wrapped = FlattenObservation(inner, style=style)
        assert wrapped.observation_space("player_1") == plain.observation_space("player_1")
        for e in (wrapped, plain):
            e.reset(seed=4)
        for agent in ("player_0", "player_1", "player_2"):
            a, b = wrapped.observe(agent), plain.observe(agent)
            assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype
                                                for k in a)
    wrapped = FlattenObservation(mk_env.env(num_players=2), style=style)
    api_test(_Int8Mask(wrapped) if style == "rllib" else wrapped, num_cycles=20)


def test_bad_observation_styles_are_refused_clearly():
    with pytest.raises(ValueError, match="observation='vector' is not allowed; use one of 'dict', 'flat', 'rllib'"):
        mk_env.env(num_players=2, observation="vector")
    with pytest.raises(ValueError, match="observation='rllib' is not allowed; use one of 'dict', 'flat'"):
        mk_env.single_seat_env(num_players=2, observation="rllib")
    with pytest.raises(ValueError, match="use one of 'flat', 'rllib'"):
        FlattenObservation(mk_env.env(num_players=2), style="dict")


def test_single_seat_flat_observation_is_one_box():
    env = mk_env.single_seat_env(num_players=2, observation="flat", seat=0)
    assert env.observation_space == gymnasium.spaces.Box(0, 1, (env.aec.observer.size,), np.float32)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    ref = mk_env.single_seat_env(num_players=2, seat=0)
    ref_obs, _ = ref.reset(seed=1)
    assert np.array_equal(obs, env.aec.observer.flatten(ref_obs))
    start, stop, shape = env.observation_slices()["board"]
    assert np.array_equal(obs[start:stop].reshape(shape), ref_obs["board"])
    from gymnasium.utils.env_checker import check_env
    check_env(env, skip_render_check=True)


# -- pickling -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
def test_the_factories_pickle(dumps):
    assert pickle.loads(dumps(mk_env.env)) is mk_env.env
    assert pickle.loads(dumps(mk_env.raw_env)) is mk_env.raw_env
    assert pickle.loads(dumps(mk_env.single_seat_env)) is mk_env.single_seat_env
    make = pickle.loads(dumps(functools.partial(mk_env.env, num_players=2, observation="flat")))
    assert make().observation_space("player_0")["observation"].shape == (make().unwrapped.observer.size,)
    assert pickle.loads(cloudpickle.dumps(lambda: mk_env.env(num_players=2)))().possible_agents == ["player_0", "player_1"]
    assert len(pickle.loads(cloudpickle.dumps(lambda: mk_env.raw_env(num_players=3)))().possible_agents) == 3


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
@pytest.mark.parametrize("make", [
    lambda: mk_env.env(num_players=3, observation="flat"),
    lambda: mk_env.env(num_players=4, team_mode=True, reward="dense"),
    lambda: FlattenObservation(mk_env.env(num_players=2), style="rllib"),
    lambda: mk_env.raw_env(num_players=2, observation="rllib"),
], ids=["env-flat", "env-team-dense", "wrapper-rllib", "raw-rllib"])
def test_an_env_mid_game_pickles_and_continues_the_same_game(dumps, make):
    env = make()
    env.reset(seed=3)
    _play(env, seed=3, steps=60)
    copy = pickle.loads(dumps(env))
    assert type(copy) is type(env) and copy.unwrapped.game_state == env.unwrapped.game_state
    assert copy.agent_selection == env.agent_selection
    for a in env.possible_agents:
        assert _same_observation(env.observe(a), copy.observe(a))
    future = _play(env, seed=9)
    assert _play(copy, seed=9) == future  # the same future: same legal sets, same chance
    assert copy.unwrapped.game_state == env.unwrapped.game_state and copy.rewards == env.rewards
    assert copy.infos == env.infos and copy._cumulative_rewards == env._cumulative_rewards
    # after the end: the copy is still a working environment
    copy.reset(seed=1)
    env.reset(seed=1)
    assert copy.unwrapped.game_state == env.unwrapped.game_state


def test_a_fresh_env_pickles_before_reset():
    copy = pickle.loads(pickle.dumps(mk_env.env(num_players=2)))
    copy.reset(seed=0)
    assert copy.agent_selection == "player_0"


# -- PettingZoo's state() -----------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_state_is_inside_state_space_and_passes_pettingzoos_state_test(n):
    env = mk_env.env(num_players=n)
    pettingzoo_state_test(env, num_cycles=5)
    env.reset(seed=n)
    for _ in range(3):
        _play(env, seed=n, steps=20)
        s = env.state()
        assert s.dtype == np.float32 and env.state_space.contains(s)


def test_state_holds_every_hidden_part_and_does_not_depend_on_who_acts():
    env = mk_env.raw_env(num_players=3)
    env.reset(seed=2)
    st = env.game_state
    s = env.state()
    part = {k: s[a:b].reshape(shape) for k, (a, b, shape) in env.state_slices().items()}
    assert np.array_equal(part["observation"], env.observer.encode_flat(st, 0))
    for p in range(3):
        assert sorted(np.flatnonzero(part["draft_hands"][p])) == sorted(st.draft_hand[p])
        if st.draft_deck[p]:
            assert part["draft_decks"][p, st.draft_deck[p][0]] == 1.0
    for deck in st.decks:
        assert part["horde_decks"][deck[0]] == 1.0 and part["horde_decks"][deck[-1]] == pytest.approx(1 / len(deck))
    assert part["spell_deck"][st.spell_deck[0]] == 1.0
    # two states that differ only in what is hidden differ in state(), not in observations
    other = st.determinize(0, np.random.default_rng(5))
    assert not np.array_equal(env.observer.encode_state(other), s)
    # the seat that acts changes nothing of the layout: state() of a state is the same from any env
    again = mk_env.env(num_players=3)
    again.reset(seed=2)
    assert np.array_equal(again.state(), s)


def test_old_state_attribute_reads_explain_the_rename():
    env = mk_env.env(num_players=2)
    env.reset(seed=0)
    message = "`state` is now PettingZoo's state\\(\\) method; the game state is `game_state`"
    for e in (env, env.unwrapped):
        with pytest.raises(AttributeError, match=message):
            e.state.legal_actions()
    assert env.game_state is env.unwrapped.game_state
    with pytest.raises(RuntimeError, match="reset"):
        mk_env.raw_env(num_players=2).state()


# -- the illegal-move warning --------------------------------------------------------------------------
def test_an_illegal_action_prints_one_warning_and_is_counted():
    """In a fresh process, as a user sees it: three games lost by an illegal action, one warning."""
    code = ("import numpy as np, mk_env\n"
            "env = mk_env.env(num_players=2)\n"
            "for seed in range(3):\n"
            "    env.reset(seed=seed)\n"
            "    agent = env.agent_selection\n"
            "    env.step(int(np.flatnonzero(env.observe(agent)['action_mask'] == 0)[-1]))\n"
            "    print('count', env.infos[agent]['illegal_actions'], env.infos[agent]['illegal_action']['agent'])\n")
    out = _run_python(code)
    printed = out.stdout + out.stderr
    assert printed.count("[WARNING]") == 1, printed
    assert "player_0 chose an illegal action" in printed and "not allowed" in printed
    assert [line for line in out.stdout.splitlines() if line.startswith("count")] == [
        "count 1 player_0", "count 2 player_0", "count 3 player_0"]


def test_final_infos_count_illegal_actions_of_earlier_games(caplog):
    env = mk_env.env(num_players=2)
    for seed in range(2):
        env.reset(seed=seed)
        env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[-1]))
    env.reset(seed=7)
    _, final = _play(env, seed=7)  # a game that ends normally reports the count too
    assert final["player_0"]["illegal_actions"] == 2 and final["player_1"]["illegal_actions"] == 0
    assert len([r for r in caplog.records if "illegal action" in r.getMessage()]) == 1


def test_single_seat_illegal_action_warns_once(caplog):
    env = mk_env.single_seat_env(num_players=2, seat=0)
    for seed in range(2):
        env.reset(seed=seed)
        _, reward, term, _, info = env.step(int(np.flatnonzero(~env.action_masks())[-1]))
        assert term and reward == -1.0 and "illegal_action" in info
    assert len([r for r in caplog.records if "illegal action" in r.getMessage()]) == 1
    assert env.illegal_actions == 2


# -- registration -------------------------------------------------------------------------------------
def test_import_mk_env_registers_without_importing_gymnasium_or_pettingzoo():
    code = ("import sys, mk_env, mk_env.rules\n"
            "assert 'gymnasium' not in sys.modules and 'pettingzoo' not in sys.modules, 'heavy import'\n"
            "import pettingzoo, gymnasium\n"
            f"e = pettingzoo.make('aec', '{ENV_NAME}', num_players=2); e.reset(seed=0)\n"
            f"g = gymnasium.make('{GYMNASIUM_ID}', num_players=3, observation='flat'); g.reset(seed=0)\n"
            "print(e.possible_agents, g.observation_space.shape)\n")
    assert "['player_0', 'player_1']" in _run_python(code).stdout
    code = ("import gymnasium\n"  # Gymnasium's "module:id" form imports mk_env, which registers
            f"print(gymnasium.make('mk_env:{GYMNASIUM_ID}', num_players=2).reset(seed=0)[1])\n")
    assert "'seat'" in _run_python(code).stdout


def test_gymnasium_make_vec_runs_episodes_with_a_mask_never_empty():
    envs = gymnasium.make_vec(GYMNASIUM_ID, num_envs=2, num_players=2, observation="flat")
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(3000):
        masks = envs.call("action_masks")
        assert all(m.any() for m in masks)
        actions = np.array([random_legal_action(m, rng) for m in masks])
        obs, rewards, terms, truncs, _ = envs.step(actions)
        ended += int(terms.sum())
        if ended >= 2:
            break
    assert ended >= 2 and obs.shape == (2, envs.single_observation_space.shape[0])
    envs.close()


def test_single_seat_factory_signature_and_team_infos():
    params = inspect.signature(mk_env.single_seat_env).parameters
    assert "render_mode" in params and "observation" in params
    assert mk_env.single_seat_env(num_players=2, render_mode="ansi").render_mode == "ansi"
    env = mk_env.env(num_players=4, team_mode=True)
    env.reset(seed=0)
    _, final = _play(env, seed=0)
    assert {a: (i["team"], i["teammates"]) for a, i in final.items()} == {
        "player_0": (0, ["player_3"]), "player_1": (1, ["player_2"]),
        "player_2": (1, ["player_1"]), "player_3": (0, ["player_0"])}
    plain = mk_env.env(num_players=2)
    plain.reset(seed=0)
    assert "team" not in _play(plain, seed=0)[1]["player_0"]


# -- actions as libraries give them -------------------------------------------------------------------
@pytest.mark.parametrize("kind", [int, np.int64, np.int32, np.uint16, np.array, lambda a: np.array(a, np.int16)],
                         ids=["int", "int64", "int32", "uint16", "0d-int64", "0d-int16"])
def test_integer_actions_of_every_kind_are_the_same_action(kind):
    ref, env, raw = mk_env.env(num_players=2), mk_env.env(num_players=2), mk_env.raw_env(num_players=2)
    for e in (ref, env, raw):
        e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(30):
        a = random_legal_action(ref.observe(ref.agent_selection)["action_mask"], rng)
        action = kind(a)
        assert ref.unwrapped.game_state.is_legal(action)
        for e in (ref, env, raw):
            e.step(a if e is ref else action)
        assert env.unwrapped.game_state == ref.unwrapped.game_state == raw.game_state
    assert not any(env.terminations.values())


@pytest.mark.parametrize("bad", WRONG_TYPES, ids=[repr(x) for x in WRONG_TYPES])
def test_other_action_types_raise_a_clear_error_and_change_nothing(bad):
    for make in (lambda: mk_env.env(num_players=2), lambda: mk_env.raw_env(num_players=2, strict=False),
                 lambda: mk_env.raw_env(num_players=2)):
        env = make()
        env.reset(seed=0)
        before = env.unwrapped.game_state.to_json()
        agent = env.agent_selection
        if bad is None:  # PettingZoo's bounds wrapper (env()) or raw_env's "must act"
            with pytest.raises((AssertionError, ValueError), match="action space|must act"):
                env.step(bad)
        else:
            with pytest.raises(ActionTypeError, match="an action must be an integer action number") as err:
                env.step(bad)
            assert type(bad).__name__ in str(err.value)
            assert isinstance(err.value, TypeError) and isinstance(err.value, IllegalActionError)
        assert env.unwrapped.game_state.to_json() == before and env.agent_selection == agent
        assert not any(env.terminations.values())
    if bad is None:
        return
    single = mk_env.single_seat_env(num_players=2)
    single.reset(seed=0)
    before = single.aec.game_state.to_json()
    with pytest.raises(ActionTypeError):
        single.aec.game_state.is_legal(bad)
    with pytest.raises(ActionTypeError):
        single.step(bad)
    assert single.aec.game_state.to_json() == before


def test_an_opponent_returning_numpy_actions_plays():
    def opponent(obs, rng):
        return np.array(random_legal_action(obs["action_mask"], rng))  # what model.predict returns

    env = mk_env.single_seat_env(num_players=3, opponents=opponent, seat=1)
    env.reset(seed=0)
    term = False
    while not term:
        _, _, term, _, info = env.step(np.int64(random_legal_action(env.action_masks(), np.random.default_rng())))
    assert "illegal_action" not in info and env.aec.game_state.is_terminal()

    def floaty(obs, rng):
        return float(random_legal_action(obs["action_mask"], rng))

    with pytest.raises(TypeError, match="opponent of seat 0: an action must be an integer"):
        mk_env.single_seat_env(num_players=2, opponents=floaty, seat=1).reset(seed=0)  # seat 0 starts


def test_maskable_ppo_predict_plays_full_games_without_a_forfeit():
    """Issue 17: an untrained MaskablePPO's ``predict`` output (0-d integer arrays) through the
    single-seat view and through ``mk_env.mountain_king.env``."""
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch.set_num_threads(1)
    single = mk_env.single_seat_env(num_players=2, observation="flat")
    model = sb3_contrib.MaskablePPO("MlpPolicy", single, n_steps=64, batch_size=64, seed=0,
                                    policy_kwargs={"net_arch": [16]})
    obs, _ = single.reset(seed=0)
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=single.action_masks(), deterministic=False)
        assert isinstance(action, np.ndarray) and action.shape == ()
        obs, _, done, _, info = single.step(action)
    assert "illegal_action" not in info and single.aec.game_state.is_terminal()
    env = mk_env.env(num_players=2, observation="flat")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action, _ = model.predict(obs["observation"], action_masks=obs["action_mask"].astype(bool))
        env.step(action)
    assert env.unwrapped.game_state.is_terminal() and "illegal_action" not in info
