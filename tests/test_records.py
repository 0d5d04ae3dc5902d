"""Game records: save, load and replay exactly; clear errors for bad records."""

from __future__ import annotations

import json

import pytest

from mk_env.records import (RECORD_FORMAT_VERSION, GameRecord, RecordError, final_state, load_record,
                            record_from_state, replay, save_record)
from mk_env.mountain_king.rules import Game
from training.replay import demo_record


@pytest.fixture(scope="module")
def finished() -> GameRecord:
    return demo_record(3, seed=4)


def test_a_finished_game_replays_to_the_same_state(finished, tmp_path):
    path = save_record(finished, tmp_path / "game.json")
    loaded = load_record(path)
    assert loaded == finished
    assert loaded.final_scores is not None and loaded.agents == finished.agents
    end = final_state(loaded)
    assert end.is_terminal()
    assert end.history == finished.actions
    assert [end.score_breakdown(p)["total"] for p in range(3)] == finished.final_scores


def test_replay_yields_every_state_independently(finished):
    states = list(replay(finished))
    assert len(states) == len(finished.actions) + 1
    assert states[0] == Game(**finished.options).new_initial_state(finished.seed)
    assert states[10].history == finished.actions[:10]
    assert states[-1] == final_state(finished)


def test_a_record_is_small_json(finished, tmp_path):
    path = save_record(finished, tmp_path / "game.json")
    data = json.loads(path.read_text())
    assert data["format_version"] == RECORD_FORMAT_VERSION
    assert set(data) >= {"pack_id", "options", "seed", "actions"}
    assert path.stat().st_size < 20 * len(finished.actions) + 1000


def test_an_unfinished_game_has_no_final_scores():
    state = Game(num_players=2).new_initial_state(9)
    for _ in range(5):
        state.apply(int(state.legal_actions()[-1]))
    record = record_from_state(state, 9)
    assert record.final_scores is None
    assert final_state(record) == state


def test_record_from_state_needs_the_integer_seed_and_one_name_per_seat():
    state = Game(num_players=2).new_initial_state(1)
    with pytest.raises(RecordError, match="integer"):
        record_from_state(state, seed=1.5)
    with pytest.raises(RecordError, match="2 names"):
        record_from_state(state, seed=1, agents=["only one"])


def _write(tmp_path, data) -> str:
    path = tmp_path / "r.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("actions"), "missing fields actions"),
    (lambda d: d.update(format_version=RECORD_FORMAT_VERSION + 1), "newer than this mk_env reads"),
    (lambda d: d.update(pack_id="other-pack@9"), "data pack 'other-pack@9'"),
    (lambda d: d.update(seed="seven"), "seed must be an integer"),
    (lambda d: d.update(actions=[1, -2]), "actions must be a list"),
    (lambda d: d.update(final_scores=[1]), "final_scores must be a list of 3"),
    (lambda d: d.update(seed=-1), r"seed must be an integer in 0\.\.2\*\*128-1 .*got -1"),
    (lambda d: d.update(seed=True), r"seed must be an integer in 0\.\.2\*\*128-1 .*got True"),
    (lambda d: d.update(seed=2**200), r"seed must be an integer .*got an integer of 201 bits"),
    (lambda d: d.update(actions=[1.5]), "actions must be a list of non-negative integers"),
])
def test_bad_records_get_clear_errors(finished, tmp_path, change, message):
    data = finished.to_dict()
    change(data)
    with pytest.raises(RecordError, match=message):
        load_record(_write(tmp_path, data))


def test_missing_file_and_bad_json(tmp_path):
    with pytest.raises(RecordError, match="file not found"):
        load_record(tmp_path / "nope.json")
    with pytest.raises(RecordError, match="not a valid JSON"):
        load_record(_write(tmp_path, '{"format_version": 1, "pack'))
    with pytest.raises(RecordError, match="must be a JSON object"):
        load_record(_write(tmp_path, "[1, 2]"))


@pytest.mark.parametrize("text", ['{"seed": ' + "9" * 5000 + "}", "[" * 100_000 + "]" * 100_000])
def test_hostile_json_record_is_refused(tmp_path, text):
    with pytest.raises(RecordError, match="not a valid JSON game record"):
        load_record(_write(tmp_path, text))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(actions=[10**7]), r"record action 0 \(10000000: outside the action space\) does not replay"),
    (lambda d: d["options"].update(num_players=9), "are not valid game options"),
])
def test_a_loaded_record_that_cannot_be_played_is_refused(finished, tmp_path, change, message):
    data = finished.to_dict()
    change(data)
    data.pop("final_scores")
    data.pop("agents")
    record = load_record(_write(tmp_path, data))
    with pytest.raises(RecordError, match=message):
        final_state(record)


def test_a_tampered_record_does_not_replay(finished):
    wrong = GameRecord(**{**finished.__dict__, "final_scores": [s + 1 for s in finished.final_scores]})
    with pytest.raises(RecordError, match="differ from the recorded"):
        final_state(wrong)
    illegal = GameRecord(**{**finished.__dict__, "actions": [0] + finished.actions, "final_scores": None})
    with pytest.raises(RecordError, match="record action 0"):
        list(replay(illegal))
    longer = GameRecord(**{**finished.__dict__, "actions": finished.actions + [0], "final_scores": None})
    with pytest.raises(RecordError, match="after the end of the game"):
        final_state(longer)
