"""``mk-env`` garbage, refused the same way for every game of the card: each sub-command that takes ``--game``,
given a bad number, a player count the game does not allow, an unknown agent, a missing or corrupt file, a
record of another game or an unknown flag, ends in ONE line on stderr (``mk-env CMD: error: ...``) and exit
code 2: no traceback, nothing run, nothing written (the first game's full list: ``tests/training/
test_cli_misuse.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mk_env.games import GAMES, make_game
from mk_env.records import record_from_state, save_record
from training.cli import main

#: argv templates: {game}, {many} (one player more than the game allows), {two} (its smallest count as
#: agents), {file} an existing text file, {dir} a folder, {bad} a broken JSON file, {other} a record of another
#: game, {new} a path that does not exist yet
MISUSES = [
    ["play", "--game", "{game}", "--agents", "{two}", "--seed", "-1"],
    ["play", "--game", "{game}", "--agents", "{two}", "--seed", "x"],
    ["play", "--game", "{game}", "--agents", "random"],
    ["play", "--game", "{game}", "--agents", "{many_agents}"],
    ["play", "--game", "{game}", "--agents", "random,grandmaster"],
    ["play", "--game", "{game}", "--agents", "random,mcts:0"],
    ["play", "--game", "{game}", "--agents", ","],
    ["play", "--game", "{game}", "--agents", "{two}", "--replay", "{dir}"],
    ["play", "--game", "{game}", "--agents", "{two}", "--bogus"],
    ["play", "--game", "{game}", "--agents", "{two}", "--board-side", "mars"],
    ["play", "--game", "{game}", "--agents", "{two}", "--payment", "barter"],
    ["tournament", "--game", "{game}", "--games", "-1", "--out", "{new}"],
    ["tournament", "--game", "{game}", "--games", "10**12", "--out", "{new}"],
    ["tournament", "--game", "{game}", "--players", "{many}", "--out", "{new}"],
    ["tournament", "--game", "{game}", "--players", "1", "--out", "{new}"],
    ["tournament", "--game", "{game}", "--workers", "0", "--out", "{new}"],
    ["tournament", "--game", "{game}", "--out", "{file}"],
    ["tournament", "--game", "{game}", "--agents", "random,bogus:3", "--out", "{new}"],
    ["tournament", "--game", "{game}", "--agents", "random,random", "--out", "{new}"],
    ["tournament", "--game", "{game}", "--board-side", "mars", "--out", "{new}"],
    ["train", "--game", "{game}", "--players", "{many}", "--out", "{new}"],
    ["train", "--game", "{game}", "--timesteps", "0", "--out", "{new}"],
    ["train", "--game", "{game}", "--lr", "nan", "--out", "{new}"],
    ["train", "--game", "{game}", "--out", "{file}"],
    ["train", "--game", "{game}", "--resume", "--out", "{new}"],
    ["train", "--game", "{game}", "--algo", "dqn", "--out", "{new}"],
    ["replay", "--game", "{game}", "{new}"],
    ["replay", "--game", "{game}", "{bad}"],
    ["replay", "--game", "{game}", "{other}"],
    ["replay", "--game", "{game}", "{dir}"],
    ["replay", "--game", "{game}", "{new}", "--scale", "0"],
    ["bench", "--game", "{game}", "--players", "{many}"],
    ["bench", "--game", "{game}", "--seconds", "-3"],
    ["bench", "--game", "{game}", "--players", "1"],
    ["soak", "--game", "{game}", "--games", "0"],
    ["soak", "--game", "{game}", "--players", "{many}"],
    ["soak", "--game", "{game}", "--replay", "{bad}"],
    ["soak", "--game", "{game}", "--replay", "{other}"],
    ["soak", "--game", "{game}", "--out", "{file}"],
    ["evaluate", "--game", "{game}", "--out", "{new}"],
    ["evaluate", "grandmaster", "--game", "{game}", "--out", "{new}"],
    ["evaluate", "random", "--game", "{game}", "--players", "{many}", "--out", "{new}"],
    ["evaluate", "random", "--game", "{game}", "--rungs", "mcts:99", "--out", "{new}"],
    ["evaluate", "random", "--game", "{game}", "--seed-set", "7", "--out", "{new}"],
    ["evaluate", "random", "--game", "{game}", "--games-per-rung", "0", "--out", "{new}"],
    ["evaluate", "{bad}", "--game", "{game}", "--out", "{new}"],
    ["evaluate", "no_such_module_here:Agent", "--game", "{game}", "--out", "{new}"],
    ["evaluate", "random", "--game", "{game}", "--out", "{file}"],
]
CASES = [(name, argv) for name in GAMES for argv in MISUSES]


def _other(name: str) -> str:
    return next(g for g in GAMES if g != name)


@pytest.fixture
def paths(tmp_path) -> dict[str, Path]:
    (tmp_path / "notes.txt").write_text("not a folder\n")
    (tmp_path / "bad.json").write_text('{"format_version": 1, "pack_id": ')
    (tmp_path / "folder").mkdir()
    return {"file": tmp_path / "notes.txt", "dir": tmp_path / "folder", "bad": tmp_path / "bad.json",
            "new": tmp_path / "new", "root": tmp_path}


@pytest.mark.parametrize("name, argv", CASES, ids=[f"{n}: {a[0]} {' '.join(a[3:])}"
                                                   .replace("{game}", n) for n, a in CASES])
def test_garbage_is_one_line_and_exit_code_2_for_every_game(name, argv, paths, capsys):
    entry, other = GAMES[name], _other(name)
    record = paths["root"] / "other.json"
    save_record(record_from_state(make_game(other, 2).new_initial_state(1), 1, actions=[]), record)
    values = {"game": name, "many": str(max(entry.player_counts) + 1), "two": ",".join(["random"] * 2),
              "many_agents": ",".join(["random"] * (max(entry.player_counts) + 1)), "other": str(record),
              **{k: str(v) for k, v in paths.items()}}
    argv = [a.format(**values) for a in argv]
    before = sorted(p.name for p in paths["root"].iterdir())
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"mk-env {argv[0]}: error: "), err
    assert sorted(p.name for p in paths["root"].iterdir()) == before, "a refused command wrote a file"
    assert not json.dumps(err).count("\\u001b"), "escape codes reach the terminal"
