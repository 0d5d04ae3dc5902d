"""A model file is carried over a version bump only when its game's layouts are unchanged: the same tensors,
the new version's description, and the old one kept in ``earlier_versions`` with a note."""

from __future__ import annotations

import json

import pytest
from safetensors.numpy import load_file, save

from agents.model_versions import describe_for_current
from agents.policy_file import METADATA_KEY, ModelFileError, read_metadata
from agents.ppo import DEFAULT_CHECKPOINT
from mk_env.mountain_king.env.version import ENV_NAME, ENV_VERSION, PINNED_LAYOUTS


def _as_earlier_version(tmp_path, changes):
    """The shipped policy described as if for the previous version (its fingerprint then)."""
    config = read_metadata(DEFAULT_CHECKPOINT)
    earlier = {"env": f"mountain_king_v{ENV_VERSION - 1}",
               "layout_fingerprint": PINNED_LAYOUTS[ENV_VERSION - 1][(2, "winter")], **changes}
    config.update(earlier)
    path = tmp_path / "earlier.safetensors"
    path.write_bytes(save(load_file(str(DEFAULT_CHECKPOINT)), metadata={METADATA_KEY: json.dumps(config)}))
    return path


def test_a_file_of_the_previous_version_with_the_same_layouts_is_described_for_the_current_one(tmp_path):
    src = _as_earlier_version(tmp_path, {})
    out = describe_for_current(src, tmp_path / "now.safetensors", "rules only")
    config = read_metadata(out)
    assert config["env"] == ENV_NAME and config["layout_fingerprint"] == PINNED_LAYOUTS[ENV_VERSION][(2, "winter")]
    assert config["earlier_versions"][-1] == {"env": f"mountain_king_v{ENV_VERSION - 1}", "note": "rules only",
                                              "layout_fingerprint": PINNED_LAYOUTS[ENV_VERSION - 1][(2, "winter")]}
    before, after = load_file(str(src)), load_file(str(out))
    assert before.keys() == after.keys() and all((before[k] == after[k]).all() for k in before)


def test_a_changed_layout_an_empty_note_or_a_current_file_is_refused(tmp_path):
    with pytest.raises(ModelFileError, match="layout differs .* retrain"):
        describe_for_current(_as_earlier_version(tmp_path, {"layout_fingerprint": "0" * 16}), tmp_path / "x", "n")
    with pytest.raises(ModelFileError, match="note"):
        describe_for_current(_as_earlier_version(tmp_path, {}), tmp_path / "x", " ")
    with pytest.raises(ModelFileError, match=f"already described for {ENV_NAME}"):
        describe_for_current(DEFAULT_CHECKPOINT, tmp_path / "x", "n")


def test_the_shipped_files_say_what_they_were_carried_over():
    for path in (DEFAULT_CHECKPOINT, DEFAULT_CHECKPOINT.with_name("aznet_default.safetensors")):
        config = read_metadata(path)
        assert config["env"] == ENV_NAME
        assert [e["env"] for e in config["earlier_versions"]][-1] == f"mountain_king_v{ENV_VERSION - 1}"
