"""Hostile content packs, refused the same way in every game: a manifest naming a file outside the pack folder
(by ``..``, an absolute path or a link; the first game followed a link out until this contract covered it),
JSON nested 200,000 deep or holding a 5,000-digit integer, each a ``PackError`` naming the file; an edited pack
is read again (packs are cached by content, not by folder)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mk_env.core.errors import PackError
from mk_env.games import make_game

#: game -> (its default pack folder, a data file its manifest names under ``files``, the manifest's name field)
PACKS = {
    "mountain_king": (Path("mk_env/mountain_king/data/default"), "tunnels", "name"),
    "cave_troll": (Path("mk_env/cave_troll/data/default"), "lair", "pack_id"),
    "fall_of_the_mountain_king": (Path("mk_env/fall_of_the_mountain_king/data/default"), "wheel", "pack_id"),
}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=sorted(PACKS))
def pack(request, tmp_path):
    """(game, a copy of its default pack, the manifest, the data file key)."""
    folder, key, _ = PACKS[request.param]
    copy = tmp_path / "pack"
    shutil.copytree(ROOT / folder, copy)
    return request.param, copy, json.loads((copy / "pack.json").read_text()), key


def _write_manifest(folder: Path, manifest: dict) -> None:
    (folder / "pack.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize("where", ["../outside.json", "{tmp}/outside.json", "sub/../../outside.json"])
def test_a_manifest_path_out_of_the_pack_folder_is_refused(pack, where):
    game, folder, manifest, key = pack
    (folder.parent / "outside.json").write_text((folder / manifest["files"][key]).read_text())
    manifest["files"][key] = where.format(tmp=folder.parent)
    _write_manifest(folder, manifest)
    with pytest.raises(PackError, match=rf"pack\.json: files(\.{key})?: .* inside the pack folder"):
        make_game(game, 2, pack=str(folder))


def test_a_link_out_of_the_pack_folder_is_refused(pack):
    game, folder, manifest, key = pack
    outside = folder.parent / "outside.json"
    outside.write_text((folder / manifest["files"][key]).read_text())
    (folder / "link.json").symlink_to(outside)
    manifest["files"][key] = "link.json"
    _write_manifest(folder, manifest)
    with pytest.raises(PackError, match="leads out of the pack folder"):
        make_game(game, 2, pack=str(folder))


@pytest.mark.parametrize("text, message", [("[" * 200_000 + "]" * 200_000, "bad JSON|nested"),
                                           ('{"x": ' + "9" * 5000 + "}", "bad JSON"),
                                           ("[" * 40 + "]" * 40, "nested more than")])
def test_deep_or_huge_json_is_a_pack_error_naming_the_file(pack, text, message):
    game, folder, manifest, key = pack
    (folder / manifest["files"][key]).write_text(text)
    with pytest.raises(PackError, match=rf"^{manifest['files'][key]}: .*({message})"):
        make_game(game, 2, pack=str(folder))


def test_an_edited_pack_is_read_again(pack):
    game, folder, manifest, _ = pack
    first = make_game(game, 2, pack=str(folder)).pack
    assert make_game(game, 2, pack=str(folder)).pack is first  # unchanged: the same object
    manifest[PACKS[game][2]] = "edited"
    _write_manifest(folder, manifest)
    assert make_game(game, 2, pack=str(folder)).pack.pack_id.startswith("edited")


@pytest.mark.parametrize("gnomes", [[0, 0, 0], [1, 1, 0]])
def test_fall_refuses_too_few_gnomes_for_its_setup(tmp_path, gnomes):
    """``rules.gnomes [0, 0, 0]`` passed the range checks and crashed every game at setup."""
    folder = tmp_path / "pack"
    shutil.copytree(ROOT / PACKS["fall_of_the_mountain_king"][0], folder)
    manifest = json.loads((folder / "pack.json").read_text())
    manifest["rules"]["gnomes"] = gnomes
    _write_manifest(folder, manifest)
    with pytest.raises(PackError, match=r"pack\.json: rules\.gnomes: .* at least 6 are needed"):
        make_game("fall_of_the_mountain_king", 2, pack=str(folder))


def test_fall_refuses_a_list_of_thousands_of_items(tmp_path):
    """A list the loader walks item by item is bounded, as in the other games (five thousand were read)."""
    folder = tmp_path / "pack"
    shutil.copytree(ROOT / PACKS["fall_of_the_mountain_king"][0], folder)
    manifest = json.loads((folder / "pack.json").read_text())
    manifest["rules"]["desperation_spaces"] = [6] * 5_000
    _write_manifest(folder, manifest)
    with pytest.raises(PackError, match=r"rules\.desperation_spaces: 5000 items; at most 100"):
        make_game("fall_of_the_mountain_king", 2, pack=str(folder))
