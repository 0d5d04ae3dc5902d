"""The compiled observation writer writes the Python encoder's bytes (issue 51, "the observation written straight
into a caller's numpy buffer"): every decision of random games at every player count, team play, the other
board side and both workshop selections, every seat in turn; ``encode``, ``encode_flat`` and ``encode_into``
agree; observers it does not serve keep Python and say why; a wrong buffer is refused."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.mountain_king.env import features
from mk_env.mountain_king.env.native_observation import compiled_writer, why_not_compiled
from mk_env.mountain_king.env.observation import Observer, _views
from mk_env.mountain_king.rules import Game
from tests.rules_helpers import random_action

pytest.importorskip("mk_env.mountain_king.rules._native", reason="the compiled engine is not built")

TABLES = [({"num_players": 2}, range(12)), ({"num_players": 3}, range(30, 38)), ({"num_players": 4}, range(50, 56)),
          ({"num_players": 5}, range(65, 70)), ({"num_players": 4, "team_mode": True}, range(80, 85)),
          ({"num_players": 3, "board_side": "autumn"}, range(95, 103)),
          ({"num_players": 2, "workshops": "no_duplicates"}, range(115, 125))]


@pytest.mark.parametrize("options,seeds", TABLES, ids=lambda x: str(x) if isinstance(x, dict) else "")
def test_compiled_writer_writes_the_python_encoders_bytes(options, seeds):
    game = Game(**options, backend="native")
    observer = Observer(game)
    writer = compiled_writer(observer)
    assert writer is not None, why_not_compiled(observer)
    buffer = np.empty(observer.size, np.float32)
    n, layout = game.num_players, game.layout
    trade = layout.offset["trade"], layout.offset["trade"] + layout.sizes["trade"]
    decisions = 0
    for seed in seeds:
        st = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while True:
            seat = decisions % n
            expected = observer._template(st, seat).copy()  # the Python encoder, reading the compiled fields
            observer._fill_per_call(st, seat, _views(expected, observer._per_call_specs))
            writer.write(st._n, seat, buffer)
            assert np.array_equal(expected.view(np.uint32), buffer.view(np.uint32)), \
                (seed, decisions, _where(observer, expected, buffer))
            decisions += 1
            if st.is_terminal():
                break
            st.apply(random_action(rng, st.legal_actions(), trade))
    assert decisions > 100 * len(seeds)  # whole games, not openings


def _where(observer: Observer, a: np.ndarray, b: np.ndarray) -> list[tuple[str, int, float, float]]:
    """The first differing entries: (array, index in it, Python's value, the compiled value)."""
    out = []
    for i in np.nonzero(a != b)[0][:5]:
        key = next(k for k, (lo, hi, _) in observer.slices.items() if lo <= i < hi)
        out.append((key, int(i - observer.slices[key][0]), float(a[i]), float(b[i])))
    return out


def test_every_encoding_route_agrees_on_a_compiled_state():
    game = Game(3, backend="native")
    observer = Observer(game)
    reference = Observer(Game(3, backend="python"))
    st = game.new_initial_state(4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    python = reference.encode_flat(st.to_python(), 1)
    flat = observer.encode_flat(st, 1)
    assert np.array_equal(flat, python)
    as_dict = observer.encode(st, 1)
    assert observer.flatten(as_dict) is not None and np.array_equal(observer.flatten(as_dict), python)
    row = np.zeros((2, observer.size), np.float32)
    assert np.shares_memory(observer.encode_into(st, 1, row[1]), row)
    assert np.array_equal(row[1], python) and not row[0].any()
    assert np.array_equal(reference.encode_into(st.to_python(), 1, row[0]), python)  # the Python route too


def test_a_wrong_buffer_is_refused_and_left_alone():
    game = Game(2, backend="native")
    observer = Observer(game)
    st = game.new_initial_state(0)
    for bad in (np.zeros(observer.size, np.float64), np.zeros(observer.size - 1, np.float32),
                np.zeros((2, observer.size), np.float32)[:, 0], [0.0] * observer.size):
        with pytest.raises(ValueError, match="C-contiguous float32"):
            observer.encode_into(st, 0, bad)
    writer = compiled_writer(observer)
    with pytest.raises(ValueError, match="too small"):
        writer.write(st._n, 0, np.zeros(10, np.float32))
    with pytest.raises(TypeError):
        writer.write(st._n, 0, np.zeros(observer.size, np.float64))  # never a silent converted copy
    with pytest.raises(ValueError, match="no such player"):
        writer.write(st._n, 2, np.zeros(observer.size, np.float32))


def test_observers_the_writer_does_not_serve_keep_python(monkeypatch):
    choose = Observer(Game(2, payment="choose"))
    assert "payment='choose'" in why_not_compiled(choose) and compiled_writer(choose) is None
    extra = features.Feature("extra", ("honour",), "players", count=lambda st, ob: st.honour)
    players = next(p for p in features.PARTS if p.key == "players")
    patched = tuple(features.Part(p.key, p.lead, p.meaning, p.features + (extra,)) if p is players else p
                    for p in features.PARTS)
    monkeypatch.setattr("mk_env.mountain_king.env.observation.PARTS", patched)
    monkeypatch.setattr("mk_env.mountain_king.env.native_observation.PARTS", patched)
    game = Game(2, backend="native")
    observer = Observer(game)
    assert "declared count" in why_not_compiled(observer)
    st = game.new_initial_state(0)
    assert observer.encode_flat(st, 0).shape == (observer.size,)  # the Python encoder serves it


def test_a_state_of_another_game_object_of_the_same_options_is_compiled_too():
    observer = Observer(Game(2, backend="native"))
    st = Game(2, backend="native").new_initial_state(3)
    assert observer._writer_for(st) is not None
    assert np.array_equal(observer.encode_flat(st, 0), Observer(st.game).encode_flat(st.to_python(), 0))
    other = Game(2, board_side="autumn", backend="native").new_initial_state(3)
    assert observer._writer_for(other) is None  # another board: not this observer's layout
