"""Every misuse of ``mk-env`` ends in ONE line on stderr (``mk-env CMD: error: ...`` saying what is wrong
and what is allowed) and exit code 2: no traceback, nothing run, nothing written."""

from __future__ import annotations

import json
import os

import pytest

from mk_env.records import record_from_state, save_record
from mk_env.mountain_king.rules import Game
from training.cli import UsageError, main

# (argv, what the one line must say); {file} is an existing file, {dir} an existing folder, {bad} a
# file that is not a game record, {record} a game record, {new} a path that does not exist yet
MISUSES = [
    # mk-env play
    (["play", "--agents", "random,random", "--seed", "-1"], "argument --seed: -1 is not allowed; a seed is"),
    (["play", "--agents", "random,random", "--seed", "x"], "'x' is not a whole number"),
    (["play", "--agents", "random"], "the game is for 2 to 5 players, got 1 agents"),
    (["play", "--agents", "random,grandmaster"], "unknown agent spec 'grandmaster'"),
    (["play", "--agents", "random,mcts:0"], "the budget must be a positive number"),
    (["play", "--agents", ","], "give agent specs separated by commas"),
    (["play", "--agents", "random,random", "--board-side", "mars"], "board_side='mars' is not allowed"),
    (["play", "--agents", "random,random", "--board-side", "[/x]"], "board_side='[/x]' is not allowed"),
    (["play", "--agents", "random,random,random", "--teams"], "team play is for 4 agents"),
    (["play", "--agents", "random,random", "--replay", "{dir}"], "is a folder; give a file name"),
    (["play", "--agents", "random,random", "--replay", "{file}/game.json"], "a part of the path is a file"),
    (["play"], "the following arguments are required: --agents"),
    # mk-env tournament
    (["tournament", "--games", "-1", "--out", "{new}"], "argument --games: -1 is not allowed; use 1 to 10,000,000 games"),
    (["tournament", "--games", "0", "--out", "{new}"], "argument --games: 0 is not allowed"),
    (["tournament", "--games", "10**12", "--out", "{new}"], "'10**12' is not a whole number"),
    (["tournament", "--games", "1000000000000", "--out", "{new}"], "1000000000000 is not allowed; use 1 to 10,000,000 games"),
    (["tournament", "--players", "7", "--out", "{new}"], "argument --players: 7 is not allowed; the game is for 2 to 5"),
    (["tournament", "--players", "two", "--out", "{new}"], "'two' is not a whole number"),
    (["tournament", "--workers", "0", "--out", "{new}"], "argument --workers: 0 is not allowed; use 1 to"),
    (["tournament", "--seed", "-3", "--out", "{new}"], "argument --seed: -3 is not allowed"),
    (["tournament", "--out", "{file}"], "argument --out: '{file}' is a file; give a folder"),
    (["tournament", "--agents", "", "--out", "{new}"], "give agent specs separated by commas"),
    (["tournament", "--agents", "random,random", "--out", "{new}"], "each agent may be listed once"),
    (["tournament", "--agents", "random,bogus:3", "--out", "{new}"], "unknown agent spec 'bogus:3'"),
    (["tournament", "--board-side", "mars", "--out", "{new}"], "board_side='mars' is not allowed"),
    (["tournament", "--backend", "spark", "--out", "{new}"], "invalid choice: 'spark'"),
    (["tournament", "--address", "10.0.0.1:6379", "--out", "{new}"], "is for --backend ray"),
    (["tournament", "--teams", "--players", "3", "--out", "{new}"], "team play is for exactly 4 players"),
    (["tournament", "--teams", "--agents", "random+random+random", "--out", "{new}"], "use AGENT or AGENT+AGENT"),
    (["tournament", "--teams", "--agents", ",", "--out", "{new}"], "give team pairings"),
    (["tournament", "--games", "2", "--bogus", "--out", "{new}"], "unrecognized arguments: --bogus"),
    # mk-env train
    (["train", "--players", "7", "--out", "{new}"], "argument --players: 7 is not allowed"),
    (["train", "--timesteps", "0", "--out", "{new}"], "argument --timesteps: 0 is not allowed"),
    (["train", "--envs", "0", "--out", "{new}"], "argument --envs: 0 is not allowed"),
    (["train", "--seed", "-1", "--out", "{new}"], "argument --seed: -1 is not allowed"),
    (["train", "--lr", "-1", "--out", "{new}"], "argument --lr: -1 is not allowed; use a number > 0"),
    (["train", "--lr", "nan", "--out", "{new}"], "argument --lr: 'nan' is not allowed; use a finite number"),
    (["train", "--ent-coef", "-0.5", "--out", "{new}"], "argument --ent-coef: -0.5 is not allowed"),
    (["train", "--n-epochs", "0", "--out", "{new}"], "argument --n-epochs: 0 is not allowed"),
    (["train", "--threads", "0", "--out", "{new}"], "argument --threads: 0 is not allowed"),
    (["train", "--eval-every", "-5", "--out", "{new}"], "argument --eval-every: -5 is not allowed"),
    (["train", "--out", "{file}"], "argument --out: '{file}' is a file; give a folder"),
    (["train", "--reward", "gold", "--out", "{new}"], "invalid choice: 'gold'"),
    (["train", "--imitate", "heuristic:lots", "--out", "{new}"], "give AGENT:DECISIONS"),
    (["train", "--n-steps", "1", "--out", "{new}"], "need at least 2 each"),
    (["train", "--address", "x", "--threads", "-1", "--out", "{new}"], "argument --threads: -1 is not allowed"),
    (["train", "--algo", "az", "--ent-coef", "0.5", "--out", "{new}"], "--ent-coef 0.5: not an option of --algo az"),
    (["train", "--algo", "az", "--trust", "--out", "{new}"], "--trust: not an option of --algo az"),
    (["train", "--algo", "ppo", "--extractor", "flat", "--out", "{new}"], "it is an option of --algo maskable-ppo"),
    (["train", "--algo", "ppo", "--az-simulations", "4", "--out", "{new}"], "it is an option of --algo az"),
    (["train", "--algo", "az-ppo", "--game", "cave_troll", "--out", "{new}"], "not an option of --algo az-ppo"),
    (["train", "--resume", "--envs", "4", "--out", "{azrun}"], "--envs 4: not an option of --algo az"),
    # mk-env replay
    (["replay"], "give a record FILE or --demo PLAYERS"),
    (["replay", "{new}"], "no game record at"),
    (["replay", "{bad}"], "not a valid JSON game record"),
    (["replay", "{file}", "--demo", "2"], "not both"),
    (["replay", "--demo", "7"], "argument --demo: 7 is not allowed; the game is for 2 to 5 players"),
    (["replay", "--demo", "2", "--scale", "3"], "argument --scale: 3 is not allowed; use a number in (0, 2]"),
    (["replay", "--demo", "2", "--scale", "0"], "argument --scale: 0 is not allowed; use a number > 0"),
    (["replay", "--demo", "2", "--html", "{dir}"], "argument --html: '{dir}' is a folder"),
    (["replay", "--demo", "2", "--frames", "every"], "invalid choice: 'every'"),
    (["replay", "--demo", "2", "--seed", "-2"], "argument --seed: -2 is not allowed"),
    (["replay", "{file}", "--seed", "3"], "--seed is the seed of a --demo game"),
    (["replay", "{record}", "--pack", "{new}"], "cannot load data pack"),
    # mk-env bench
    (["bench", "--seconds", "-3"], "argument --seconds: -3 is not allowed; use a number > 0"),
    (["bench", "--seconds", "0"], "argument --seconds: 0 is not allowed"),
    (["bench", "--seconds", "inf"], "'inf' is not allowed; use a finite number"),
    (["bench", "--players", "7"], "player counts are 2..5"),
    (["bench", "--players", "two"], "use 'all' or numbers 2..5"),
    (["bench", "--json", "{dir}"], "argument --json: '{dir}' is a folder"),
    # mk-env serve
    (["serve", "--port", "-1"], "argument --port: -1 is not allowed; a port is a whole number from 0"),
    (["serve", "--port", "http"], "argument --port: 'http' is not a whole number"),
    # mk-env soak
    (["soak", "--games", "-1"], "argument --games: -1 is not allowed"),
    (["soak", "--games", "0"], "argument --games: 0 is not allowed"),
    (["soak", "--games", "99999999999"], "is not allowed; use 1 to 10,000,000 games"),
    (["soak", "--players", "7"], "players='7' is not allowed; use 'all' or one of 2, 3, 4, 5"),
    (["soak", "--workers", "0"], "argument --workers: 0 is not allowed"),
    (["soak", "--seed", "-1"], "argument --seed: -1 is not allowed"),
    (["soak", "--out", "{file}"], "argument --out: '{file}' is a file"),
    (["soak", "--replay", "{new}"], "no game record at"),
    (["soak", "--replay", "{bad}"], "not a valid JSON game record"),
    # the command itself
    (["dance"], "invalid choice: 'dance'"),
]


@pytest.fixture
def paths(tmp_path) -> dict[str, str]:
    (tmp_path / "notes.txt").write_text("not a folder\n")
    (tmp_path / "bad.json").write_text('{"format_version": 1, "pack_id": ')
    (tmp_path / "folder").mkdir()
    save_record(record_from_state(Game(2).new_initial_state(1), 1), tmp_path / "record.json")
    (tmp_path / "azrun").mkdir()
    (tmp_path / "azrun" / "config.json").write_text(json.dumps({"algo": "az"}))  # a run of --algo az
    return {"file": str(tmp_path / "notes.txt"), "dir": str(tmp_path / "folder"), "bad": str(tmp_path / "bad.json"),
            "record": str(tmp_path / "record.json"), "new": str(tmp_path / "new"), "azrun": str(tmp_path / "azrun")}


@pytest.mark.parametrize("argv, says", MISUSES, ids=[" ".join(a) for a, _ in MISUSES])
def test_a_misuse_is_one_line_and_exit_code_2(argv, says, paths, capsys):
    argv = [a.format(**paths) for a in argv]
    code = main(argv)
    out, err = capsys.readouterr()
    command = argv[0] if argv[0] in ("play", "tournament", "train", "replay", "bench", "soak", "serve", "evaluate") else None
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"mk-env {command}: error: " if command else "mk-env: error: "), err
    assert says.format(**paths) in err
    assert out == ""  # nothing ran
    assert not os.path.exists(paths["new"])  # nothing written


def test_soak_replay_of_a_missing_record_is_not_a_reproduction(paths, capsys):
    assert main(["soak", "--replay", paths["new"]]) == 2
    out, err = capsys.readouterr()
    assert "reproduced" not in out + err and "no game record" in err


def test_a_usage_error_raised_inside_a_command_is_one_line_too(monkeypatch, capsys):
    import training.replay as replay

    def refuse(*args, **kwargs):
        raise UsageError("--demo 2 and --pack: the sample game uses the built-in pack")

    monkeypatch.setattr(replay, "demo_record", refuse)
    assert main(["replay", "--demo", "2"]) == 2
    assert capsys.readouterr().err == ("mk-env replay: error: --demo 2 and --pack: the sample game uses the "
                                       "built-in pack\n")


def test_a_genuine_bug_still_shows_its_traceback(monkeypatch):
    import training.replay as replay

    def broken(*args, **kwargs):
        raise KeyError("a bug, not a misuse")

    monkeypatch.setattr(replay, "demo_record", broken)
    with pytest.raises(KeyError, match="a bug"):
        main(["replay", "--demo", "2", "--quiet"])


def test_a_record_with_escape_codes_in_its_error_prints_them_as_text(paths, capsys):
    path = paths["bad"].replace("bad.json", "escape.json")
    with open(path, "w") as f:
        json.dump({"format_version": 1, "pack_id": "x\x1b[2Jy", "options": {"num_players": 2}, "seed": 1,
                   "actions": []}, f)
    assert main(["replay", path]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.count("\n") == 1


@pytest.mark.parametrize("error, one_line", [
    (ModuleNotFoundError("No module named 'ray'", name="ray"), True),
    (ImportError("the ray backend needs Ray: pip install 'mk-env[rllib]'"), True),
    (ImportError("cannot import name 'gone' from 'mk_env.mountain_king.rules'", name="mk_env.mountain_king.rules"), False),
    (ModuleNotFoundError("No module named 'agents.gone'", name="agents.gone"), False),
])
def test_a_missing_extra_is_one_line_but_a_broken_import_of_ours_is_a_bug(error, one_line, monkeypatch, capsys):
    import training.replay as replay

    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(replay, "demo_record", fail)
    if one_line:
        assert main(["replay", "--demo", "2"]) == 2
        assert capsys.readouterr().err.count("\n") == 1
    else:
        with pytest.raises(ImportError):
            main(["replay", "--demo", "2"])
