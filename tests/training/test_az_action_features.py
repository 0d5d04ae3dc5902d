"""The policy head's action features: each legal action scored also from the observation entries it
refers to (``mk_env.mountain_king.env.references``, ``agents.az_net.ActionFeatures``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from agents.az_net import (PolicyValueNet, SparseBatch, load_net, new_net, pad_legal, read_net_config, save_net,
                           unpad)
from mk_env.games import make_game
from mk_env.mountain_king.env.references import action_references
from mk_env.mountain_king.env.observation import Observer
from mk_env.mountain_king.rules.actions import N_SMOOT, N_TOKEN_KINDS, STORAGE_SOURCE
from training.az.settings import AZSettings

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def game():
    return make_game("mountain_king", 2, payment="choose")


@pytest.fixture(scope="module")
def table(game):
    return action_references(game)


def refs(table, action: int) -> set[int]:
    pointer, index = table
    return set(index[pointer[action]:pointer[action + 1]].tolist())


def test_each_action_refers_to_the_entries_of_what_it_chooses(game, table):
    ob, layout, geo = Observer(game), game.layout, game.geo
    pointer, index = table
    assert len(pointer) == layout.size + 1 and index.min() >= 0 and index.max() < ob.size
    horde, smoots = ob.views(np.arange(ob.size, dtype=np.float64))["horde"], \
        ob.views(np.arange(ob.size, dtype=np.float64))["trollsmoots"]
    recruit = layout.recruit_index(4, 6)
    assert refs(table, recruit) == set(horde[4].astype(int)) | set(smoots[0, 6].astype(int))
    board = ob.views(np.arange(ob.size, dtype=np.float64))["board"].reshape(len(ob.channels), -1)
    p = 17
    cells = [c for c in geo.tunnel_placements.cells[p] if c < geo.n_squares]
    assert len(cells) >= 2
    assert refs(table, layout.index("dig", p)) == set(board[:, cells].astype(int).ravel())
    assert refs(table, layout.index("move_statue", 40)) == set(board[:, 40].astype(int))
    spellbook = ob.views(np.arange(ob.size, dtype=np.float64))["spellbook"]
    assert refs(table, layout.index("cast", 2)) == set(spellbook[2].astype(int))
    storage = ob.slices["players"][0] + np.arange(ob.slices["players"][2][1])[ob.at["players"].storage]
    assert refs(table, layout.index("pay_token", STORAGE_SOURCE * N_TOKEN_KINDS + 1)) == set(storage)
    assert refs(table, layout.index("pay_token", 3 * N_TOKEN_KINDS)) == set(smoots[0, 3].astype(int))
    for block in ("pass", "trade", "bribe", "mineral", "establish", "pedestal"):
        assert refs(table, layout.index(block, 0)) == set(), block
    assert STORAGE_SOURCE == N_SMOOT


def test_an_actions_features_change_with_its_entries_and_no_others(game, table):
    torch.manual_seed(0)
    net = new_net(game, hidden=16, action_dim=8)
    features = net.policy.action_features
    assert features is not None and net.shape.action_references == len(table[1])
    ob = Observer(game)
    dense = torch.zeros(2, ob.size)
    recruit, cast = game.layout.recruit_index(4, 6), game.layout.index("cast", 0)
    legal, valid = pad_legal([np.array([recruit, cast]), np.array([recruit])])
    actions, rows = unpad(legal, valid)  # the real entries: row 0's recruit and cast, row 1's recruit
    assert actions.tolist() == [recruit, cast, recruit] and rows.tolist() == [0, 0, 1]
    before = features(dense, actions, rows)
    entry = min(refs(table, recruit) - refs(table, cast))
    dense[:, entry] = 1.0
    after = features(dense, actions, rows)
    assert not torch.allclose(after[0], before[0]) and torch.allclose(after[1], before[1])
    assert torch.allclose(after[0], after[2])  # row by row: the same observation, the same features


def test_sparse_and_dense_batches_agree_and_gradients_reach_the_features(game):
    torch.manual_seed(1)
    net = new_net(game, hidden=16, action_dim=8)
    st = game.new_initial_state(seed=3)
    rng = np.random.default_rng(0)
    ob = Observer(game)
    rows, legal_lists = [], []
    while len(rows) < 6:
        legal = st.legal_actions()
        if len(legal) > 1:
            rows.append(ob.encode_flat(st, st.current_player()).copy())
            legal_lists.append(legal)
        st.apply(int(rng.choice(legal)))
    obs = np.array(rows)
    batch = SparseBatch.from_dense(obs)
    assert torch.equal(batch.dense(ob.size), torch.from_numpy(obs))
    legal, valid = pad_legal(legal_lists)
    logits, _ = net(batch, legal, valid)
    logits.masked_fill(~valid, 0).sum().backward()
    assert net.policy.action_features.bag.weight.grad.abs().sum() > 0


def test_a_network_with_action_features_round_trips_and_an_old_file_still_loads(game, table, tmp_path):
    torch.manual_seed(2)
    net = new_net(game, hidden=16, action_dim=8)
    path = save_net(net, tmp_path / "net.safetensors", game, {"payment": "choose"})
    loaded, config, _ = load_net(path)
    assert config["network"]["action_references"] == len(table[1])
    assert torch.equal(loaded.policy.action_features.index, net.policy.action_features.index)
    plain = make_game("mountain_king", 2)
    old = PolicyValueNet(new_net(plain, hidden=16, action_dim=8, action_features=False).shape)
    old_path = save_net(old, tmp_path / "old.safetensors", plain)
    from safetensors.torch import load_file, save_file
    config = read_net_config(old_path)
    del config["network"]["action_references"]  # a file written before the field existed
    save_file(load_file(str(old_path)), str(old_path), metadata={"mk_env": json.dumps(config)})
    again, _, _ = load_net(old_path)
    assert again.shape.action_references == 0 and again.policy.action_features is None


def test_settings_default_to_action_features_and_old_runs_keep_none():
    assert AZSettings().action_features is True
    assert AZSettings.from_json({"hidden": 16}, "config.json").action_features is False
    with pytest.raises(ValueError, match="action_features must be true or false"):
        AZSettings(action_features="yes").check()


def test_a_corrupt_reference_table_is_refused_in_one_line(game, tmp_path):
    from safetensors.torch import load_file, save_file

    from agents.az_net import ModelFileError
    torch.manual_seed(3)
    path = save_net(new_net(game, hidden=16, action_dim=8), tmp_path / "net.safetensors", game,
                    {"payment": "choose"})
    metadata = {"mk_env": json.dumps(read_net_config(path))}
    for key, edit, message in (("net/policy.action_features.index", lambda t: t.fill_(10 ** 7), "outside the"),
                               ("net/policy.action_features.pointer", lambda t: t.flip(0), "does not rise")):
        tensors = load_file(str(path))
        tensors[key] = edit(tensors[key].clone()).contiguous()
        bad = tmp_path / "bad.safetensors"
        save_file(tensors, str(bad), metadata=metadata)
        with pytest.raises(ModelFileError, match=message):
            load_net(bad)


def test_the_logits_score_each_legal_action_as_written(game):
    """query(features) . (embedding + out(features of the action)) + bias, row by row, for the real entries
    only (the head scores the unpadded entries and folds the last layer into the query)."""
    torch.manual_seed(3)
    net = new_net(game, hidden=16, action_dim=8)
    ob, rng = Observer(game), np.random.default_rng(0)
    rows, legal_lists = [], []
    for seed in range(3):
        st = game.new_initial_state(seed)
        for _ in range(int(rng.integers(5, 40))):
            st.apply(int(rng.choice(st.legal_actions())))
        rows.append(ob.encode_flat(st, st.current_player()).copy())
        legal_lists.append(np.asarray(st.legal_actions()))
    dense = torch.from_numpy(np.stack(rows))
    legal, valid = pad_legal(legal_lists)
    batch = SparseBatch.from_dense(np.stack(rows))
    logits, _ = net(batch, legal, valid)
    head = net.policy
    features = net.trunk(torch.relu(net.embed(batch.index, batch.offsets, per_sample_weights=batch.weights)
                                    + net.embed_bias))
    for b, actions in enumerate(legal_lists):
        for k, a in enumerate(actions):
            vector = head.embedding.weight[a] + head.action_features(dense[b:b + 1], torch.tensor([a]),
                                                                      torch.tensor([0]))[0]
            expected = head.query(features[b]) @ vector + head.bias.weight[a, 0]
            assert torch.isclose(logits[b, k], expected, atol=1e-5), (b, k)
    assert torch.isinf(logits[~valid]).all()
