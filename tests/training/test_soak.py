"""The soak (training/soak.py): random games with every invariant checked after every decision."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mk_env.mountain_king.soak as mk_soak
from mk_env.invariants import InvariantError
from mk_env.records import RecordError, load_record, record_from_state, save_record
from training.cli import main as cli_main
from training.play import run_game
from mk_env.mountain_king.soak import POLICIES
from training.soak import game_plan, replay_record, soak

#: CI soak: every player count, both policies, invariants after every decision (about 15 s on 2 cores)
CI_GAMES = 120
#: blocks that the no-trade policy must reach in a CI soak: digs, halls, statues, spells, workshops
EXERCISED = ("gate", "draft", "cast", "activate_workshop", "workshop_use", "trade", "recruit", "pedestal",
             "dig", "mineral", "establish", "hall", "select_statue", "move_statue", "smoot_slot", "horde_slot")


def test_soak_of_all_player_counts_finds_no_failure(tmp_path: Path) -> None:
    report = soak(CI_GAMES, "all", seed=2024, workers=2, out=tmp_path)
    assert report.failures == [], report.summary()
    assert report.games == CI_GAMES
    assert dict(report.games_by_players) == {n: CI_GAMES // 4 for n in (2, 3, 4, 5)}
    assert set(report.games_by_policy) == set(POLICIES)
    assert report.decisions > 100 * CI_GAMES  # every decision of every game was checked
    unused = [b for b in EXERCISED if report.blocks[b] == 0]
    assert not unused, f"blocks never used: {unused}\n{report.summary()}"
    assert not list(tmp_path.iterdir())  # no failure record


@pytest.mark.slow
def test_long_soak_finds_no_failure(tmp_path: Path) -> None:
    report = soak(1000, "all", seed=7, workers=2, out=tmp_path)
    assert report.failures == [], report.summary()


def test_game_plan_is_a_pure_function_and_varies_options() -> None:
    plans = [game_plan(i, "all", 5) for i in range(40)]
    assert plans == [game_plan(i, "all", 5) for i in range(40)]
    assert {p[0]["num_players"] for p in plans} == {2, 3, 4, 5}
    assert {p[0]["board_side"] for p in plans if p[0]["num_players"] == 2} == {"winter", "autumn"}
    assert any(p[0]["team_mode"] for p in plans)
    assert {type(p[0]["workshops"]) for p in plans} == {str, list}
    assert {p[2] for p in plans} == set(POLICIES)
    assert {p[0]["num_players"] for p in (game_plan(i, 3, 5) for i in range(8))} == {3}


@pytest.mark.parametrize("players", ["six", 6, 1, "", None])
def test_bad_player_count_is_refused(players: object) -> None:
    with pytest.raises(ValueError, match="players=.*not allowed; use 'all' or one of 2, 3, 4, 5"):
        soak(1, players)  # type: ignore[arg-type]


def test_a_failure_is_reported_with_a_record_that_reproduces_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Plant a fake invariant that breaks on turn 3: the soak reports it with a record; replaying the
    record under the same fault fails at the same decision, and without it replays cleanly."""
    real = mk_soak.check_invariants

    def broken(state, baseline=None):
        real(state, baseline)
        if state.turn >= 3:
            raise InvariantError(f"planted: turn {state.turn}")

    monkeypatch.setattr(mk_soak, "check_invariants", broken)
    report = soak(2, 2, seed=1, workers=1, out=tmp_path)
    assert len(report.failures) == 2
    failure = report.failures[0]
    assert failure.error == "InvariantError: planted: turn 3"
    record = load_record(failure.record_path)
    assert record.options == failure.options | {"workshops": record.options["workshops"]}
    assert record.seed == failure.seed and len(record.actions) == failure.decision
    notes = json.loads(Path(failure.record_path).read_text())["soak"]
    assert notes["error"] == failure.error and notes["policy"] == failure.policy and "Traceback" in notes["traceback"]
    with pytest.raises(InvariantError, match="planted: turn 3"):
        replay_record(failure.record_path)
    monkeypatch.setattr(mk_soak, "check_invariants", real)
    state = replay_record(failure.record_path)
    assert state.turn == 3 and len(state.history) == failure.decision
    assert "FAILURE game 0" in report.summary() and failure.record_path in report.summary()


def test_an_engine_crash_is_a_failure_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(before, after):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(mk_soak, "check_step", crash)
    report = soak(1, 3, seed=0, workers=1, out=tmp_path)
    assert [f.error for f in report.failures] == ["RuntimeError: engine exploded"]
    assert Path(report.failures[0].record_path).is_file()


def test_cli_soak_prints_the_summary_table(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code = cli_main(["soak", "--games", "4", "--players", "all", "--workers", "1", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "soak of mountain_king: 4 games" in out and "0 failures" in out
    for header in ("players", "policy", "action block", "dig", "hall", "select_statue"):
        assert header in out


def test_cli_soak_bad_players_exits_2(capsys: pytest.CaptureFixture) -> None:
    assert cli_main(["soak", "--games", "1", "--players", "7", "--workers", "1"]) == 2
    assert "players='7' is not allowed" in capsys.readouterr().err


def test_cli_replay_reports_a_clean_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(mk_soak, "check_step", lambda before, after: (_ for _ in ()).throw(
        InvariantError("planted")))
    report = soak(1, 2, seed=0, workers=1, out=tmp_path)
    path = report.failures[0].record_path
    assert cli_main(["soak", "--replay", path]) == 1
    assert "reproduced: InvariantError: planted" in capsys.readouterr().out
    monkeypatch.undo()
    assert cli_main(["soak", "--replay", path]) == 0
    assert "no failure" in capsys.readouterr().out


def test_cli_replay_refuses_a_record_of_another_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    """A first-game record replayed with ``--game cave_troll`` is refused naming its game (it was replayed as
    the first game and reported clean)."""
    monkeypatch.setattr(mk_soak, "check_step", lambda before, after: (_ for _ in ()).throw(
        InvariantError("planted")))
    path = soak(1, 2, seed=0, workers=1, out=tmp_path).failures[0].record_path
    monkeypatch.undo()
    assert cli_main(["soak", "--game", "cave_troll", "--replay", path]) == 2
    err = capsys.readouterr().err
    assert "a game of mountain_king, not cave_troll" in err and "--game mountain_king" in err


def test_a_record_of_another_kind_is_refused(tmp_path: Path) -> None:
    """A file whose ``kind`` is not a game record's (it was read as one) is refused naming both kinds."""
    path = tmp_path / "r.json"
    save_record(record_from_state(run_game(["random", "random"], seed=1), seed=1), path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "kind": "mk_env saved state"}))
    with pytest.raises(RecordError, match="kind is 'mk_env saved state', not 'mk_env game record'"):
        load_record(path)
