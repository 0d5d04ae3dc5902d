"""Model files as an attacker or a careless user would hand them over (docs/security.md, "Model files").

A Stable-Baselines3 zip unpickles code on load: every path that loads a model (``ppo:PATH``, the
evaluation command, ``mk-env train --resume``, ``mk-env convert-model``) refuses one unless it is
trusted explicitly, and says why and how to convert it. The safe format (``.safetensors`` weights
with a JSON description) loads without trust, and every field of it is checked: a file for another
layout, version, extractor or activation, torn or mismatched weights each get a clear error. The
shipped ``ppo:default`` plays exactly as the zip it was converted from.
"""

from __future__ import annotations

import base64
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="model files need the [train] extra")
pytest.importorskip("safetensors", reason="model files need the [train] extra")

import torch  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

from agents import make_agent  # noqa: E402
from agents.policy_file import (METADATA_KEY, ModelFileError, convert_zip, load_policy,  # noqa: E402
                                read_config)
from agents.ppo import DEFAULT_CHECKPOINT, trust_agents, with_trust  # noqa: E402
from golden import PPO_GAMES, ppo_default_game  # noqa: E402
from mk_env.mountain_king.env.version import ENV_NAME  # noqa: E402
from training.cli import main  # noqa: E402
from training.play import run_game  # noqa: E402

torch.set_num_threads(1)
DATA = Path(__file__).resolve().parents[1] / "data"


class _WriteMarker:
    """Unpickling this writes a file: the harmless stand-in for any code an attacker wants run."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({str(self.marker)!r}, 'w').write('pwned')",))


def crafted_zip(path: Path, marker: Path) -> Path:
    """An SB3-shaped zip whose ``data`` holds a pickled object that runs code when loaded."""
    payload = base64.b64encode(pickle.dumps(_WriteMarker(marker))).decode()
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps({"policy_class": {":type:": "<class>", ":serialized:": payload}}))
        z.writestr("_stable_baselines3_version", "2.3.0")
    return path


@pytest.fixture
def evil(tmp_path) -> tuple[Path, Path]:
    marker = tmp_path / "marker.txt"
    return crafted_zip(tmp_path / "model.zip", marker), marker


def with_metadata(tmp_path: Path, name: str, **changes) -> Path:
    """A copy of the shipped policy whose JSON description has ``changes``."""
    config = read_config(DEFAULT_CHECKPOINT)
    config.update(changes)
    path = tmp_path / name
    save_file(load_file(DEFAULT_CHECKPOINT), path, metadata={METADATA_KEY: json.dumps(config)})
    return path


# ---- SB3 zips: refused without trust, with the reason and the way out ------------------------------
def test_the_crafted_zip_really_runs_code_when_trusted(evil):
    """The test's zip is hostile: with trust, SB3's loader runs its payload (then fails)."""
    path, marker = evil
    with pytest.raises(Exception):
        load_policy(path, trust=True)
    assert marker.read_text() == "pwned"


@pytest.mark.parametrize("load", [
    lambda p: make_agent(f"ppo:{p}"),
    lambda p: load_policy(p),
    lambda p: read_config(p),
    lambda p: convert_zip(p, p.with_name("out.safetensors")),
], ids=["agent spec", "load_policy", "read_config", "convert_zip"])
def test_a_crafted_zip_is_refused_without_trust_and_runs_nothing(evil, load):
    path, marker = evil
    with pytest.raises(ModelFileError) as error:
        load(path)
    text = str(error.value)
    assert "unpickles" in text and "can run any code" in text
    assert "convert-model" in text and "--trust" in text
    assert not marker.exists()


def test_a_zip_named_like_a_safe_file_is_still_refused(evil, tmp_path):
    path, marker = evil
    disguised = path.rename(tmp_path / "model.safetensors")
    with pytest.raises(ModelFileError, match="Stable-Baselines3 zip"):
        make_agent(f"ppo:{disguised}")
    assert not marker.exists()


def test_the_command_line_refuses_a_crafted_zip_in_one_line(evil, tmp_path, capsys):
    path, marker = evil
    assert main(["convert-model", str(path), str(tmp_path / "out.safetensors")]) == 2
    assert main(["play", "--agents", f"ppo:{path},random"]) == 2
    from training.evaluate import main as evaluate_main
    assert evaluate_main([str(path), "--games", "1"]) == 2
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    path.rename(run / "checkpoints" / "model_512.zip")
    assert main(["train", "--out", str(run), "--resume"]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert (out.out + out.err).count("unpickles") == 4
    assert not marker.exists()


def test_ppo_spec_options_after_the_path():
    assert with_trust("ppo:x.zip") == "ppo:x.zip?trust" and with_trust("random") == "random"
    assert with_trust("ppo:x.zip?trust") == "ppo:x.zip?trust"
    assert trust_agents("ppo:a.zip+random, heuristic,ppo:b.zip") == \
        "ppo:a.zip?trust+random,heuristic,ppo:b.zip?trust"
    with pytest.raises(ValueError, match=r"allowed: ppo:PATH\?trust"):
        make_agent("ppo:default?yes")


# ---- the safe format ---------------------------------------------------------------------------
def test_the_shipped_policy_replays_its_recorded_games():
    """Every action of four games of ppo:default against random (tests/data/ppo_default_games.json, written
    by ``python -m tests.golden --update``). Under v0 they were recorded with the SB3 zip before its
    conversion; v1's rules changed the games, so they were recorded anew with the same weights."""
    recorded = json.loads(PPO_GAMES.read_text())
    assert ENV_NAME in recorded["about"], "record the games under this version: python -m tests.golden --update"
    for game in recorded["games"]:
        assert ppo_default_game(game["seed"], game["ppo_seat"]) == game, f"seed {game['seed']}, seat {game['ppo_seat']}"


def test_the_shipped_policy_loads_without_trust_and_describes_itself():
    config = read_config(DEFAULT_CHECKPOINT)
    assert DEFAULT_CHECKPOINT.suffix == ".safetensors"
    assert not DEFAULT_CHECKPOINT.with_suffix(".zip").exists()
    assert (config["env"], config["players"], config["game_options"]) == (ENV_NAME, 2, {})
    assert config["policy_kwargs"]["extractor"] == "cnn" and config["optimizer"] is None
    with open(DEFAULT_CHECKPOINT, "rb") as f:
        assert f.read(4) != b"PK\x03\x04"


def test_building_a_ppo_agent_leaves_torch_threads_alone():
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        make_agent("ppo:default")
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize("changes, message", [
    ({"layout_fingerprint": "0123456789abcdef"}, r"layout 0123456789abcdef .*this mk_env has "
                                                 rf"{ENV_NAME} with layout [0-9a-f]{{16}}"),
    ({"env": "mountain_king_v9"}, f"trained on mountain_king_v9 .* this mk_env has {ENV_NAME}"),
    ({"players": 3}, rf"3 players\).*this mk_env has {ENV_NAME} with layout"),
    ({"format_version": 2}, "format version 2; this mk_env reads version 1"),
    ({"format": "pickle"}, "not an mk_env.policy description"),
    ({"policy_kwargs": {"extractor": "os.system"}}, "extractor 'os.system'; allowed: cnn, flat"),
    ({"policy_kwargs": {"extractor": "cnn", "activation": "__import__"}},
     "activation '__import__'; allowed: Tanh, ReLU"),
    ({"policy_kwargs": {"extractor": "cnn", "net_arch": {"pi": ["x"]}}}, "net_arch"),
    ({"policy_kwargs": {"extractor": "cnn", "optimizer_class": "torch.optim.SGD"}},
     "'optimizer_class'.* is not allowed"),
    ({"policy_kwargs": {"extractor": "flat"}}, "the weights do not fit the policy described"),
    ({"hyperparameters": {"learning_rate": "0.1"}}, "learning_rate='0.1' must be a finite number"),
    ({"players": "2"}, "field 'players' must be of type int, got '2'"),
    ({"observation_space": {"board": {"shape": [10 ** 6, 10 ** 6], "dtype": "float32", "low": 0,
                                      "high": 1}}}, "spaces are not those of this mk_env"),
    ({"action_space": {"n": 10 ** 12, "start": 0}}, "spaces are not those of this mk_env"),
    ({"policy_kwargs": {"extractor": "cnn", "extractor_kwargs": {"cnn_channels": 10 ** 9}}},
     "whole numbers from 1 to 1024"),
    ({"policy_kwargs": {"extractor": "cnn", "net_arch": {"pi": [64] * 100, "vf": [64]}}},
     "at most 8 whole numbers"),
])
def test_a_tampered_description_is_refused_with_a_clear_error(tmp_path, changes, message):
    path = with_metadata(tmp_path, "tampered.safetensors", **changes)
    with pytest.raises(ModelFileError, match=message):
        load_policy(path)
    with pytest.raises(ValueError, match=message):
        make_agent(f"ppo:{path}")


def test_torn_and_foreign_files_are_refused(tmp_path):
    torn = tmp_path / "torn.safetensors"
    torn.write_bytes(DEFAULT_CHECKPOINT.read_bytes()[:100_000])
    with pytest.raises(ModelFileError, match="unreadable tensors"):
        load_policy(torn)
    for name, data in (("empty", b""), ("text", b"hello world, not a model"),
                       ("huge_header", (2 ** 60).to_bytes(8, "little") + b"{}"),
                       ("deep_json", (200_002).to_bytes(8, "little") + b"[" * 100_001 + b"]" * 100_001)):
        (tmp_path / name).write_bytes(data)
        with pytest.raises(ModelFileError, match="is not an mk_env model file"):
            load_policy(tmp_path / name)
    plain = tmp_path / "plain.safetensors"
    save_file({"x": torch.zeros(2)}, plain)
    with pytest.raises(ModelFileError, match="is not an mk_env model file"):
        load_policy(plain)
    with pytest.raises(ModelFileError, match="no model file"):
        load_policy(tmp_path / "missing.safetensors")


def test_weights_of_the_wrong_shape_are_refused(tmp_path):
    tensors = load_file(DEFAULT_CHECKPOINT)
    tensors["policy/action_net.bias"] = torch.zeros(3)
    path = tmp_path / "bad_weights.safetensors"
    save_file(tensors, path, metadata={METADATA_KEY: json.dumps(read_config(DEFAULT_CHECKPOINT))})
    with pytest.raises(ModelFileError, match="do not fit"):
        load_policy(path)


def test_a_policy_refuses_a_game_of_another_layout():
    agent = make_agent("ppo:default")
    with pytest.raises(ValueError, match=r"trained for 2 players .* this game has 3 players and layout"):
        run_game([agent, "random", "random"], seed=1)


# ---- conversion of a trusted zip ------------------------------------------------------------------
def test_a_trusted_zip_converts_to_a_safe_file_that_acts_the_same(tmp_path, capsys):
    from sb3_contrib import MaskablePPO

    from agents.networks import FlatExtractor
    from mk_env.mountain_king.env import single_seat_env
    env = single_seat_env(2, seat=0)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=8, batch_size=8, seed=0, device="cpu",
                        policy_kwargs=dict(features_extractor_class=FlatExtractor,
                                           features_extractor_kwargs=dict(features_dim=16),
                                           net_arch=dict(pi=[8], vf=[8])))
    zipped = tmp_path / "tiny.zip"
    model.save(zipped)
    out = tmp_path / "tiny.safetensors"
    assert main(["convert-model", str(zipped), str(out), "--trust"]) == 0
    assert f"use it as ppo:{out}" in capsys.readouterr().out
    assert read_config(out)["policy_kwargs"]["extractor_kwargs"] == {"features_dim": 16}
    safe, trusted = load_policy(out), load_policy(zipped, trust=True)
    obs, _ = env.reset(seed=4)
    for _ in range(20):
        mask = env.action_masks()
        a, _ = safe.predict(obs, action_masks=mask, deterministic=True)
        b, _ = trusted.predict(obs, action_masks=mask, deterministic=True)
        assert int(a) == int(b)
        obs, _, done, _, _ = env.step(int(a))
        if done:
            obs, _ = env.reset(seed=5)
    bias = [p.state_dict()["action_net.bias"] for p in (safe, trusted)]
    assert np.array_equal(bias[0].numpy(), bias[1].numpy())
    assert make_agent(f"ppo:{zipped}?trust").config is None
    half = tmp_path / "tiny_half.safetensors"
    assert main(["convert-model", str(zipped), str(half), "--trust", "--half"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.safetensors", "tiny.zip", "tiny_half.safetensors"]
    assert half.stat().st_size < out.stat().st_size and make_agent(f"ppo:{half}").config is not None
    assert main(["convert-model", str(zipped), str(tmp_path / "x.zip"), "--trust"]) == 2
    with pytest.raises(ModelFileError, match="no model file"):
        convert_zip(tmp_path / "missing.zip", tmp_path / "y.safetensors", trust=True)
    with pytest.raises(ModelFileError, match="not a Stable-Baselines3 zip"):
        convert_zip(out, tmp_path / "y.safetensors", trust=True)
    # --trust lets the game commands name the zip
    assert main(["play", "--agents", f"ppo:{zipped},random", "--seed", "1", "--trust"]) == 0
    assert main(["tournament", "--agents", f"ppo:{zipped},random", "--games", "2", "--workers", "1",
                 "--out", str(tmp_path / "tournament"), "--trust"]) == 0
