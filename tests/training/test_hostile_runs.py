"""Runs that meet dead workers and hostile names: a tournament or soak whose worker is killed (SIGKILL)
reports it and loses and doubles nothing, a resume completes it; names with terminal escape codes in a
data pack or on the command line never reach the terminal raw."""

from __future__ import annotations

import json
import os
import shutil
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import training.soak as soak_mod
import training.tournament as tour
from mk_env.records import record_from_state, save_record
from mk_env.mountain_king.rules import Game, PackError, load_pack
from mk_env.mountain_king.rules.pack_loader import DEFAULT_PACK_DIR
from training.cli import main
from training.replay import lively_action
from training.workers import WorkerDied, WorkerPool
from tournament_checks import strip

AGENTS = ["random", "heuristic"]
#: a title change, a screen clear, a bell and a right-to-left override: what a hostile name may hold
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\u202e"

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the kill hooks reach the workers by fork")


def kill_worker(parent: int) -> None:
    """SIGKILL this process, which must be a worker (never the test's own process)."""
    assert os.getpid() != parent, "the kill hook ran in the test process"
    os.kill(os.getpid(), signal.SIGKILL)


def killing_play_game(monkeypatch: pytest.MonkeyPatch, job: dict, once: Path | None = None) -> None:
    """Make the worker that plays ``job`` die by SIGKILL (every time, or only the first if ``once``
    names a marker file). Workers are forked, so they inherit the patched ``play_game``."""
    real, parent = tour.play_game, os.getpid()

    def play_game(specs, seed, options=None):
        if list(specs) == job["agents"] and seed == job["seed"] and not (once and once.exists()):
            if once:
                once.touch()
            kill_worker(parent)
        return real(specs, seed, options)

    monkeypatch.setattr(tour, "play_game", play_game)


def log_indices(out: Path) -> list[int]:
    return sorted(json.loads(line)["index"] for line in (out / "games.jsonl").read_text().splitlines())


# ------------------------------------------------------------------------------------------ tournaments
@needs_fork
def test_a_killed_worker_is_reported_and_its_game_played_again(tmp_path, monkeypatch):
    full = tour.run_tournament(AGENTS, 2, 8, seed=4, workers=1, out=tmp_path / "full", progress=False,
                               charts=False)
    job = tour.schedule(AGENTS, 2, 8, seed=4)[3]
    killing_play_game(monkeypatch, job, once=tmp_path / "killed-once")
    with pytest.warns(RuntimeWarning, match=r"worker process \d+ died \(killed by SIGKILL\) while playing "
                                            r"game 3 .*playing it again"):
        res = tour.run_tournament(AGENTS, 2, 8, seed=4, workers=2, out=tmp_path / "run", progress=False,
                                  charts=False)
    assert (tmp_path / "killed-once").exists()
    assert log_indices(tmp_path / "run") == list(range(8))
    assert strip(res) == strip(full)


@needs_fork
def test_a_worker_killed_from_outside_in_the_middle_of_a_game(tmp_path, monkeypatch):
    """SIGKILL from another process (as the kernel's out-of-memory killer would) while the worker is
    busy in a game: the run goes on and its results are an uninterrupted run's."""
    full = tour.run_tournament(AGENTS, 2, 6, seed=8, workers=1, out=tmp_path / "full", progress=False,
                               charts=False)
    job, pidfile, real = tour.schedule(AGENTS, 2, 6, seed=8)[2], tmp_path / "busy.pid", tour.play_game

    def play_game(specs, seed, options=None):
        if list(specs) == job["agents"] and seed == job["seed"] and not pidfile.exists():
            (tmp_path / "pid.tmp").write_text(str(os.getpid()))
            (tmp_path / "pid.tmp").rename(pidfile)
            time.sleep(120)  # busy until killed
        return real(specs, seed, options)

    def kill_when_busy() -> None:
        deadline = time.monotonic() + 120
        while not pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(int(pidfile.read_text()), signal.SIGKILL)

    monkeypatch.setattr(tour, "play_game", play_game)
    killer = threading.Thread(target=kill_when_busy, daemon=True)
    killer.start()
    with pytest.warns(RuntimeWarning, match=r"killed by SIGKILL\) while playing game 2 "):
        res = tour.run_tournament(AGENTS, 2, 6, seed=8, workers=2, out=tmp_path / "run", progress=False,
                                  charts=False)
    killer.join(1)
    assert log_indices(tmp_path / "run") == list(range(6))
    assert strip(res) == strip(full)


@needs_fork
def test_a_game_that_kills_its_worker_twice_stops_the_run_and_a_resume_completes_it(tmp_path, monkeypatch):
    full = tour.run_tournament(AGENTS, 2, 8, seed=4, workers=1, out=tmp_path / "full", progress=False,
                               charts=False)
    out = tmp_path / "run"
    job = tour.schedule(AGENTS, 2, 8, seed=4)[5]
    killing_play_game(monkeypatch, job)
    with pytest.warns(RuntimeWarning, match="game 5"), \
            pytest.raises(WorkerDied, match=r"killed by SIGKILL\) while playing game 5 .*twice.* games are "
                                            r"saved in .*games.jsonl: run the same command"):
        tour.run_tournament(AGENTS, 2, 8, seed=4, workers=2, out=out, progress=False, charts=False)
    saved = log_indices(out)
    assert 5 not in saved and len(saved) == len(set(saved))
    monkeypatch.undo()
    calls = []
    real = tour.play_game
    monkeypatch.setattr(tour, "play_game", lambda *a: calls.append(a) or real(*a))
    res = tour.run_tournament(AGENTS, 2, 8, seed=4, workers=1, out=out, progress=False, charts=False)
    assert len(calls) == 8 - len(saved)
    assert log_indices(out) == list(range(8))  # every game exactly once
    assert strip(res) == strip(full)


@needs_fork
def test_the_cli_says_in_one_line_which_game_killed_its_worker(tmp_path, monkeypatch, capsys):
    job = tour.schedule(AGENTS, 2, 4, seed=0)[2]
    killing_play_game(monkeypatch, job)
    argv = ["tournament", "--agents", ",".join(AGENTS), "--games", "4", "--workers", "2", "--out",
            str(tmp_path)]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("mk-env tournament: warning: worker process")
    assert err[-1].startswith("mk-env tournament: error: worker process")
    assert "game 2" in err[-1] and "same --out" in err[-1] and "Traceback" not in "\n".join(err)
    monkeypatch.undo()
    assert main(argv) == 0
    assert log_indices(tmp_path) == [0, 1, 2, 3]


@needs_fork
def test_an_error_inside_a_worker_is_raised_in_the_parent_with_its_traceback():
    with WorkerPool(int, 2, "fork") as pool:
        pool.submit("bad", "not a number")
        with pytest.raises(ValueError, match="invalid literal") as caught:
            list(pool.results())
    assert any("in worker process" in note for note in caught.value.__notes__)


# ------------------------------------------------------------------------------------------ soaks
@needs_fork
def test_a_soak_chunk_whose_worker_dies_is_replayed_game_by_game(tmp_path, monkeypatch):
    clean = soak_mod.soak(6, "all", seed=3, workers=1)
    monkeypatch.setattr(soak_mod, "START_METHOD", "fork")
    monkeypatch.setattr(soak_mod, "CHUNK", 3)
    target = soak_mod.game_plan(4, "all", 3)[1]
    marker, parent, real = tmp_path / "killed-once", os.getpid(), soak_mod.play_checked

    def play_checked(options, seed, policy, **kwargs):
        if seed == target and not marker.exists():
            marker.touch()
            kill_worker(parent)
        return real(options, seed, policy, **kwargs)

    monkeypatch.setattr(soak_mod, "play_checked", play_checked)
    with pytest.warns(RuntimeWarning, match=r"killed by SIGKILL\) while playing games 3-5; playing them again"):
        report = soak_mod.soak(6, "all", seed=3, workers=2, out=tmp_path / "failures")
    assert report.failures == [] and marker.exists()
    assert (report.games, report.decisions, report.blocks) == (clean.games, clean.decisions, clean.blocks)


@needs_fork
def test_a_soak_game_that_always_kills_its_worker_is_a_failure_counted_once(tmp_path, monkeypatch):
    monkeypatch.setattr(soak_mod, "START_METHOD", "fork")
    monkeypatch.setattr(soak_mod, "CHUNK", 3)
    target, parent, real = soak_mod.game_plan(1, "all", 3)[1], os.getpid(), soak_mod.play_checked
    monkeypatch.setattr(soak_mod, "play_checked", lambda options, seed, policy, **kw: (
        kill_worker(parent) if seed == target else real(options, seed, policy, **kw)))
    with pytest.warns(RuntimeWarning, match="games 0-2"):
        report = soak_mod.soak(6, "all", seed=3, workers=2, out=tmp_path / "failures")
    assert report.games == 6 and sum(report.games_by_players.values()) == 6
    assert [f.game_index for f in report.failures] == [1]
    assert "killed by SIGKILL" in report.failures[0].error and report.failures[0].record_path is None
    assert "FAILURE game 1" in report.summary()


# ------------------------------------------------------------------------------------------ hostile names
@pytest.fixture(scope="module")
def hostile_pack(tmp_path_factory) -> Path:
    """The default pack with escape codes in front of every troll, spell, workshop and tunnel name."""
    root = tmp_path_factory.mktemp("hostile") / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, root)
    for rel, keys in (("trolls.json", ("starters", "horde")), ("spells.json", ("spells",)),
                      ("workshops.json", ("workshops",)), ("tunnels.json", ("tunnels",))):
        data = json.loads((root / rel).read_text(encoding="utf-8"))
        for key in keys:
            for entry in data.get(key, []):
                entry["name"] = ESCAPES + entry["name"]
        (root / rel).write_text(json.dumps(data), encoding="utf-8")
    return root


def assert_no_raw_escapes(text: str) -> None:
    for ch in ("\x1b", "\x07", "\u202e"):
        assert ch not in text, f"{ch!r} reached the terminal"


def test_pack_names_with_escape_codes_are_printed_as_text_by_replay(hostile_pack, tmp_path, capsys):
    try:
        pack = load_pack(hostile_pack)
    except PackError as e:  # a pack that refuses such names is just as safe
        assert_no_raw_escapes(str(e))
        return
    state = Game(2, pack=pack).new_initial_state(5)
    rng = np.random.default_rng(5)
    while not state.is_terminal() and len(state.history) < 80:
        state.apply(lively_action(state, rng))
    record = save_record(record_from_state(state, 5, agents=[ESCAPES + "a", "b"]), tmp_path / "game.json")
    assert main(["replay", str(record), "--pack", str(hostile_pack)]) == 0
    out = capsys.readouterr().out
    assert_no_raw_escapes(out)
    assert "\\x1b]0;pwned\\x07" in out  # the names are there, as text
    from mk_env.mountain_king.env.render import render_ansi
    coloured = render_ansi(state, color=True)
    assert "\x1b]0;" not in coloured and "\x1b[2J" not in coloured and "\u202e" not in coloured


def test_escape_codes_on_the_command_line_come_back_as_text(capsys):
    assert main(["play", "--agents", "random," + ESCAPES]) == 2
    err = capsys.readouterr().err
    assert_no_raw_escapes(err)
    assert err.startswith("mk-env play: error:") and err.count("\n") == 1
