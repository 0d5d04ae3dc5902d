"""The factorised policy of ``--algo ppo`` (agents/factorised_policy.py): exact under the mask, its
log-probabilities and entropy equal to a brute-force flat computation, its model files loading through
``ppo:PATH``; and the pieces of the PPO loop (the games' shaped reward, GAE game by game)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

from agents import make_agent  # noqa: E402
from agents.factorised_file import build_policy, save_factorised  # noqa: E402
from agents.factorised_policy import FactorisedHead, block_sizes  # noqa: E402
from agents.policy_file import ModelFileError, load_policy, read_config  # noqa: E402
from mk_env.mountain_king.env.observation import Observer  # noqa: E402
from mk_env.mountain_king.rules import Game  # noqa: E402
from mk_env.core.view import PlayerView  # noqa: E402
from training.fast_ppo import Rollout  # noqa: E402
from training.fast_ppo_env import VecGames  # noqa: E402
from training.selfplay import OpponentPool  # noqa: E402

torch.set_num_threads(1)
SIZES = (1, 3, 0, 5, 2)  # a pass, three blocks of arguments and an empty one: 11 actions


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(num_players=2)


@pytest.fixture(scope="module")
def states(game):
    """(observations, masks) of the decisions of two random and one heuristic game (digs and halls
    come up in the heuristic's)."""
    observer, rng, obs, masks = Observer(game), np.random.default_rng(0), [], []
    heuristic = make_agent("heuristic")
    for seed, player in ((1, "random"), (2, "random"), (3, "heuristic")):
        st = game.new_initial_state(seed)
        while not st.is_terminal():
            seat = st.current_player()
            obs.append(observer.encode_flat(st, seat))
            mask = np.zeros(game.layout.size, bool)
            mask[st.legal_actions()] = True
            masks.append(mask)
            st.apply(int(rng.choice(st.legal_actions())) if player == "random"
                     else int(heuristic.act(PlayerView(st, seat), rng)))
    return np.stack(obs), np.stack(masks)


def brute_force(head: FactorisedHead, h: torch.Tensor, mask: np.ndarray) -> np.ndarray:
    """P(a) of every flat action, from the two softmaxes written out in numpy."""
    w, b = head.arguments.weight.detach().numpy(), head.arguments.bias.detach().numpy()
    bw, bb = head.blocks.weight.detach().numpy(), head.blocks.bias.detach().numpy()
    hv = h.detach().numpy()
    legal = np.array([mask[lo:lo + n].any() for lo, n in zip(head.offsets, head.sizes)])
    block = np.where(legal, hv @ bw.T + bb, -np.inf)
    p_block = np.exp(block - block.max())
    p_block /= p_block.sum()
    p = np.zeros(head.n_actions)
    for k, (lo, n) in enumerate(zip(head.offsets, head.sizes)):
        if legal[k]:
            logits = np.where(mask[lo:lo + n], hv @ w[lo:lo + n].T + b[lo:lo + n], -np.inf)
            q = np.exp(logits - logits.max())
            p[lo:lo + n] = p_block[k] * q / q.sum()
    return p


def small_cases(rows: int = 8):
    torch.manual_seed(0)
    head = FactorisedHead(4, SIZES)
    rng = np.random.default_rng(0)
    mask = rng.random((rows, head.n_actions)) < 0.4
    mask[:, 0] |= ~mask.any(1)
    return head, torch.randn(rows, 4) * 2, mask


def test_block_sizes_follow_the_layout_in_order(game):
    sizes = block_sizes(game.layout)
    assert sum(sizes) == game.layout.size == 9790
    assert [game.layout.offset[b] for b in game.layout.offset] == list(np.cumsum((0,) + sizes[:-1]))


def test_log_probabilities_equal_the_log_of_the_brute_force_masked_flat_distribution():
    head, h, mask = small_cases()
    flat = head.flat_log_probs(h, mask).exp().detach().numpy()
    for i in range(len(mask)):
        p = brute_force(head, h[i], mask[i])
        assert p.sum() == pytest.approx(1.0) and not p[~mask[i]].any()
        np.testing.assert_allclose(flat[i], p, atol=1e-6)
        legal = np.flatnonzero(mask[i])
        log_p = head.log_prob(h[i:i + 1], mask[i:i + 1], torch.as_tensor(legal)[None]).detach().numpy()[0]
        np.testing.assert_allclose(log_p, np.log(p[legal]), atol=1e-5)  # [B, K] actions at once


def test_the_entropy_is_exact_under_the_mask():
    head, h, mask = small_cases()
    entropy = head.entropy(h, mask).detach().numpy()
    for i in range(len(mask)):
        p = brute_force(head, h[i], mask[i])
        assert entropy[i] == pytest.approx(-(p[p > 0] * np.log(p[p > 0])).sum(), abs=1e-5)


def test_sampling_follows_the_distribution_and_greedy_takes_its_mode():
    head, h, mask = small_cases(3)
    draws = 20_000
    for i in range(3):
        p = brute_force(head, h[i], mask[i])
        actions, log_p = head.sample(h[i:i + 1].expand(draws, 4), np.repeat(mask[i:i + 1], draws, 0),
                                     generator=torch.Generator().manual_seed(i))
        freq = np.bincount(actions.numpy(), minlength=head.n_actions) / draws
        assert not freq[~mask[i]].any()
        assert np.abs(freq - p).max() < 4 * np.sqrt(0.25 / draws)  # 4 standard errors at most
        np.testing.assert_allclose(log_p.numpy(), np.log(p[actions.numpy()]), atol=1e-5)
        greedy, best = head.sample(h[i:i + 1], mask[i:i + 1], greedy=True)
        assert int(greedy) == int(p.argmax()) and float(best) == pytest.approx(np.log(p.max()), abs=1e-5)


def test_the_policy_never_samples_an_illegal_action_over_many_game_states(game, states):
    obs, masks = states
    policy = build_policy("mountain_king", 2)
    generator = torch.Generator().manual_seed(0)
    for _ in range(5):
        actions = policy.act(obs, masks, generator=generator)[0]
        assert masks[np.arange(len(actions)), actions].all()
    assert masks[np.arange(len(obs)), policy.act(obs, masks, greedy=True)[0]].all()


def test_on_the_real_layout_the_distribution_sums_to_one_and_matches_the_log_probs(states):
    obs, masks = states
    policy = build_policy("mountain_king", 2)
    rows = np.linspace(0, len(obs) - 1, 24).astype(int)
    with torch.no_grad():
        h, _ = policy(torch.from_numpy(obs[rows]))
        flat = policy.head.flat_log_probs(h, masks[rows])
        actions, log_p = policy.head.sample(h, masks[rows])
        again, entropy = policy.head.evaluate(h, masks[rows], actions)
    np.testing.assert_allclose(flat.exp().sum(1).numpy(), 1.0, atol=1e-5)
    np.testing.assert_allclose(log_p.numpy(), flat.gather(1, actions[:, None]).squeeze(1).numpy(), atol=1e-4)
    np.testing.assert_allclose(again.numpy(), log_p.numpy(), atol=1e-5)
    p = flat.exp().numpy()
    exact = -(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0)).sum(1)
    np.testing.assert_allclose(entropy.numpy(), exact, atol=1e-4)


def test_a_mask_without_a_legal_action_is_refused():
    head, h, mask = small_cases(2)
    mask[1] = False
    with pytest.raises(ValueError, match="no legal action"):
        head.sample(h, mask)


def test_a_saved_policy_loads_through_the_ppo_spec_and_plays_as_before(game, states, tmp_path):
    obs, masks = states
    policy = build_policy("mountain_king", 2)
    path = save_factorised(policy, tmp_path / "p.safetensors", 2, {}, num_timesteps=7)
    config = read_config(path)
    assert (config["policy"], config["algorithm"], config["num_timesteps"]) == ("FactorisedPolicy", "ppo", 7)
    loaded = load_policy(path)
    for name, tensor in policy.state_dict().items():
        assert torch.equal(tensor, loaded.state_dict()[name]), name
    np.testing.assert_array_equal(loaded.act(obs, masks, greedy=True)[0], policy.act(obs, masks, greedy=True)[0])
    agent = make_agent(f"ppo:{path}")
    st, rng = game.new_initial_state(5), np.random.default_rng(0)
    while not st.is_terminal():
        seat = st.current_player()
        view = PlayerView(st, seat)
        action = agent.act(view, rng)
        if seat == 0 and len(view.legal_actions()) > 1:  # the agent's observation: the policy's greedy pick
            assert action == int(policy.predict(agent.observation(view), view.legal_mask(), True)[0])
        st.apply(action)


def test_a_factorised_file_with_unknown_sizes_or_for_maskable_ppo_is_refused(tmp_path):
    import json
    import struct
    path = save_factorised(build_policy("mountain_king", 2), tmp_path / "p.safetensors", 2, {})
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + size])
    config = json.loads(header["__metadata__"]["mk_env"])
    config["policy_kwargs"] = {"features_dim": 10 ** 9}
    header["__metadata__"]["mk_env"] = json.dumps(config)
    text = json.dumps(header).encode()
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(struct.pack("<Q", len(text)) + text + raw[8 + size:])
    with pytest.raises(ModelFileError, match="features_dim"):
        load_policy(bad)
    from agents.policy_file import load_model
    with pytest.raises(ModelFileError, match="--algo ppo"):
        load_model(path, env=None)


def test_the_lead_rewards_of_a_game_sum_to_its_final_lead_and_the_win_reward():
    games = VecGames(2, 2, OpponentPool("random:1"), reward="lead", seed=3)
    rng, totals, first = np.random.default_rng(0), np.zeros(2), np.ones(2, bool)
    while len(games.finished) < 3:
        ready, rewards, ended = games.poll()
        records = games.finished[len(games.finished) - len(ended):]  # in the order of ``ended``
        for (i, last), record in zip(ended, records):
            win = 1.0 if record["won"] else -1.0
            assert totals[i] + last == pytest.approx((record["honour"] - record["best_other_honour"]) / 100 + win)
            totals[i], first[i] = 0.0, True
        for i, reward in zip(ready.tolist(), rewards.tolist()):
            if first[i]:  # nobody has scored before the learner's first decision (setup)
                assert reward == 0.0
            totals[i] += reward
            first[i] = False
        if len(ready):
            _, mask = games.observe(ready)
            games.apply(ready, np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
        games.opponents_move()


def test_gae_runs_game_by_game_and_stops_at_a_game_end():
    rollout = Rollout(4, 1, 8, 1)
    pending = Rollout(2, 1, 8, 1)
    pending.values[:] = [0.5, 0.25]
    rollout.add(pending, np.array([0, 1]), np.array([1.0, 0.0]), np.array([False, False]), np.array([0.0, 2.0]))
    pending.values[:] = [0.0, 2.0]
    rollout.add(pending, np.array([0, 1]), np.array([0.0, 1.0]), np.array([True, False]), np.array([9.0, 3.0]))
    rollout.finish(gamma=0.5, lam=0.5)
    d = [1.0 + 0.5 * 0.0 - 0.5, 0.0 + 0.5 * 2.0 - 0.25, 0.0 - 0.0, 1.0 + 0.5 * 3.0 - 2.0]
    np.testing.assert_allclose(rollout.advantages, [d[0] + 0.25 * d[2], d[1] + 0.25 * d[3], d[2], d[3]])
