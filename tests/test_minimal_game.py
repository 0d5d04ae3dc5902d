"""A new game is its own folder plus one row of the game card: *Take-away* (``tests/data/take_away/``, a pile of
stones taken 1 to 3 at a time) is plugged in by its row alone (:mod:`take_away.plug_in`, as a row written in
``mk_env/games.py`` would be), and the suite's contract runs over it unchanged: PettingZoo's API, seed and
pickling tests, every render mode, misuse before ``reset()`` and after the end, hostile saves, both registries'
ids, the versioned module and the version rule; then the commands every game has (play with the heuristic and
the search, a record replayed to a page, a soak, a tournament). Each runs in a fresh process, so the row
never leaks into the other tests."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUG_IN = ROOT / "tests" / "data" / "take_away" / "plug_in.py"
#: the suite's contract, parametrised over every game of the card
CONTRACT = ["tests/contract/test_env_contract.py", "tests/contract/test_contract_saves.py",
            "tests/test_registration.py", "tests/test_engine_protocol.py"]


def with_the_row(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``python plug_in.py ARGS``: pytest or mk-env with Take-away's row plugged into the game card."""
    return subprocess.run([sys.executable, str(PLUG_IN), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_the_whole_contract_passes_for_a_game_plugged_in_by_one_row():
    run = with_the_row("pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *CONTRACT, "-k", "take_away")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", run.stdout)[1])
    assert passed >= 20 and "failed" not in run.stdout, run.stdout[-2000:]


def test_the_commands_play_replay_soak_and_rate_the_new_game(tmp_path):
    record = tmp_path / "game.json"
    play = with_the_row("mk-env", "play", "--game", "take_away", "--agents", "heuristic,mcts:8,random", "--seed", "1",
                        "--replay", str(record), cwd=tmp_path)
    assert play.returncode == 0 and record.exists(), play.stdout[-2000:] + play.stderr[-2000:]
    page = tmp_path / "game.html"
    replay = with_the_row("mk-env", "replay", "--game", "take_away", str(record), "--html", str(page), cwd=tmp_path)
    assert replay.returncode == 0 and "final scores match the record" in replay.stdout, replay.stderr[-2000:]
    assert "Take-away" in page.read_text()
    soak = with_the_row("mk-env", "soak", "--game", "take_away", "--games", "20", cwd=tmp_path)
    assert soak.returncode == 0, soak.stdout[-2000:] + soak.stderr[-2000:]
    rated = with_the_row("mk-env", "tournament", "--game", "take_away", "--agents", "heuristic,random", "--games",
                         "4", "--players", "2", cwd=tmp_path)
    assert rated.returncode == 0 and "Leaderboard" in rated.stdout, rated.stdout[-2000:] + rated.stderr[-2000:]


def test_no_shared_module_compares_a_game_by_its_name():
    """The game card is the only shared place a game is named: no module outside the games' own packages
    compares a game's name (an if-chain a new game would have to join) or keys a table by it (constants a new
    game would have to be added to: they belong on its card or in its evaluation module); a game may name
    itself."""
    games = ("mountain_king", "cave_troll", "fall_of_the_mountain_king")
    name = "|".join(games)
    compare = re.compile(rf"""(==|!=|\bin\b)\s*[(\[{{]?\s*["']({name})["']|["']({name})["']\s*(==|!=|:\s)""")
    chains = []
    for package in ("mk_env", "agents", "training"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if any(part in games for part in path.relative_to(ROOT).parts[1:2]) or path.name == "games.py":
                continue  # the game's own package, or the card itself
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if compare.search(line):
                    chains.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not chains, "\n".join(chains)
