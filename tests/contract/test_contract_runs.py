"""Interrupted and hostile runs, the same for every game of the card: a tournament whose log was torn by a cut
write resumes and ends with the results of an uninterrupted run, replaying only what was lost; a worker killed
by SIGKILL mid-run is reported, its game played again, and the results are an uninterrupted run's."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

import training.tournament as tour
from mk_env.games import GAMES
from training.tournament_schedule import schedule
from tournament_checks import strip

AGENTS = ["random", "heuristic"]
needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the kill hook reaches the workers by fork")


def run(game: str, out: Path, games: int = 6, workers: int = 1) -> dict:
    return tour.run_tournament(AGENTS, 2, games, seed=3, workers=workers, out=out, progress=False, charts=False,
                               game=game)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_torn_tournament_log_resumes_to_the_uninterrupted_results(game, tmp_path, monkeypatch):
    full = run(game, tmp_path / "full")
    out = tmp_path / "torn"
    run(game, out)
    lines = (out / "games.jsonl").read_text().splitlines()
    (out / "games.jsonl").write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])  # a write cut short
    calls, real = [], tour.play_game
    monkeypatch.setattr(tour, "play_game", lambda *a, **k: calls.append(a) or real(*a, **k))
    with pytest.warns(RuntimeWarning, match="dropped a torn last line"):
        resumed = run(game, out)
    assert len(calls) == 3 and strip(resumed) == strip(full)
    assert sorted(json.loads(x)["index"] for x in (out / "games.jsonl").read_text().splitlines()) == list(range(6))


@needs_fork
@pytest.mark.parametrize("game", list(GAMES))
def test_a_worker_killed_mid_run_is_reported_and_its_game_played_again(game, tmp_path, monkeypatch):
    full = run(game, tmp_path / "full", games=4)
    job, once, real, parent = schedule(AGENTS, 2, 4, seed=3)[2], tmp_path / "killed-once", tour.play_game, os.getpid()

    def play_game(specs, seed, options=None, **kwargs):
        if list(specs) == job["agents"] and seed == job["seed"] and not once.exists():
            once.touch()
            assert os.getpid() != parent, "the kill hook ran in the test process"
            os.kill(os.getpid(), signal.SIGKILL)
        return real(specs, seed, options, **kwargs)

    monkeypatch.setattr(tour, "play_game", play_game)
    with pytest.warns(RuntimeWarning, match=r"killed by SIGKILL\) while playing game 2 .*playing it again"):
        res = run(game, tmp_path / "run", games=4, workers=2)
    assert once.exists() and strip(res) == strip(full)
