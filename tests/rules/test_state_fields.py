"""The state's fields are declared once (``mk_env.mountain_king.rules.fields``): setup, ``clone`` and saves cover
exactly the declared fields, and a clone shares nothing mutable with its original."""

from __future__ import annotations

import json

import numpy as np
import pytest
from rules_helpers import play_random

from mk_env.mountain_king.rules import Game, GameState
from mk_env.mountain_king.rules.fields import ARRAY, BOOL, FIELD_NAMES, FIELDS, INT, INTS, LISTS, PENDING
from mk_env.mountain_king.rules.vocabulary import Pending

#: the Python engine's own memos and representation (the compiled engine's parity: tests/native/)
pytestmark = pytest.mark.usefixtures("python_engine")

HEADER = ("format_version", "pack_id", "options", "rng")


@pytest.fixture(scope="module")
def played() -> GameState:
    """A state some way into a 3-player game (every kind of field holds something)."""
    return play_random(Game(3).new_initial_state(5), np.random.default_rng(5), 120)


def test_the_state_has_exactly_the_declared_fields():
    private = ("game", "_rng", "_rng_state", "_cache")
    assert GameState.__slots__ == private + FIELD_NAMES
    assert len(set(FIELD_NAMES)) == len(FIELD_NAMES)
    assert all(f.meaning for f in FIELDS)


def test_setup_gives_every_field_a_value_of_its_kind():
    st = Game(4).new_initial_state(1)
    types = {INT: int, BOOL: bool, INTS: list, LISTS: list, PENDING: Pending}
    for f in FIELDS:
        value = getattr(st, f.name)
        if f.kind == ARRAY:
            assert value.dtype == f.dtype and value.shape == f.shape(st.game), f.name
        else:
            assert isinstance(value, types[f.kind]), f.name
        if f.kind == LISTS:
            assert len(value) == f.shape(st.game)[0] and all(type(x) is list for x in value), f.name


def test_a_save_holds_exactly_the_declared_fields_in_their_order(played):
    data = played.to_dict()
    assert tuple(data) == HEADER + FIELD_NAMES
    assert played.game.state_from_json(json.loads(played.to_json())) == played


def _change(value, kind):
    """A changed copy-in-place of a mutable field value (arrays, lists, lists of lists)."""
    if kind == ARRAY:
        value.reshape(-1)[0] = not value.reshape(-1)[0] if value.dtype == np.bool_ else value.reshape(-1)[0] + 1
    elif kind == INTS:
        value.append(0)
    elif kind == LISTS:
        value[0].append(0)


@pytest.mark.parametrize("field", [f for f in FIELDS if f.kind in (ARRAY, INTS, LISTS)], ids=lambda f: f.name)
def test_clone_copies_every_mutable_field(played, field):
    """Changing a clone's field in place leaves the original as it was (and the clone equals it before)."""
    before = played.to_dict()
    other = played.clone()
    assert other.to_dict() == before
    _change(getattr(other, field.name), field.kind)
    assert played.to_dict() == before
    assert other.to_dict()[field.name] != before[field.name]


def test_clone_shares_only_immutable_values(played):
    other = played.clone()
    for f in FIELDS:
        mine, theirs = getattr(played, f.name), getattr(other, f.name)
        if f.kind in (ARRAY, INTS, LISTS):
            assert mine is not theirs, f.name
        else:
            assert type(mine) in (int, bool, Pending) or isinstance(mine, int), f.name


def test_invalidate_caches_forgets_the_memos(played):
    st = played.clone()
    st.legal_actions()
    assert st._cache
    st.invalidate_caches()
    assert not st._cache
    assert np.array_equal(st.legal_actions(), played.legal_actions())
