"""Memo keys cover what is read: a memoised part of the observation (or of the rules) that reads a
state field its key does not hold would give stale results with no error.

The observation's memo keys are built from the fields each feature declares
(:mod:`mk_env.mountain_king.env.features`); the rules' memoised sets (``digging.legal_digs``,
``trades.trade_actions``) declare the fields their keys stand for beside them (``board_version``
stands for :data:`mk_env.mountain_king.rules.board.BOARD_FIELDS`). These tests play real games and run the
encoder and the memoised sets on their states through a stand-in for the state that logs every field
read (in the observation: attributed to the memo group whose fill method is running), and fail when
something reads a field its declaration does not hold. A broken declaration is caught (the tests of
the check).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mk_env.mountain_king.env import features
from mk_env.mountain_king.env.features import MEMO_FILLS, memo_reads
from mk_env.mountain_king.env.observation import MEMO_GROUPS, Observer
from mk_env.mountain_king.rules import Game, GameState, digging, economy, trades
from mk_env.mountain_king.rules.board import BOARD_FIELDS
from mk_env.mountain_king.rules.fields import FIELD_NAMES

OPTIONS = ({"num_players": 2}, {"num_players": 5}, {"num_players": 4, "team_mode": True},
           {"num_players": 3, "payment": "choose"})


class ReadLog:
    """Stands for a :class:`GameState`: each attribute read is passed to the state and logged under
    the memo group whose fill method is running (``groups``: the innermost last)."""

    __slots__ = ("_state", "groups", "reads")

    def __init__(self, state: GameState):
        self._state = state
        self.groups: list[str] = []
        self.reads: dict[str, set[str]] = {}

    def __getattr__(self, name: str):
        if self.groups:
            self.reads.setdefault(self.groups[-1], set()).add(name)
        return getattr(self._state, name)


def _logging(log: ReadLog, group: str, fill):
    def logged(*args, **kwargs):
        log.groups.append(group)
        try:
            return fill(*args, **kwargs)
        finally:
            log.groups.pop()
    return logged


def observation_reads(st: GameState) -> dict[str, set[str]]:
    """The state fields each memo group's fill methods read while a fresh observer (every memo
    empty, so every fill runs) encodes ``st`` for every seat."""
    observer = Observer(st.game)
    log = ReadLog(st)
    for group, (methods, _) in MEMO_FILLS.items():
        for name in methods:
            setattr(observer, name, _logging(log, group, getattr(observer, name)))
    for seat in range(st.num_players):
        observer.encode(log, seat)
    return {group: names & set(FIELD_NAMES) for group, names in log.reads.items()}


def undeclared(reads: dict[str, set[str]]) -> dict[str, set[str]]:
    """Per memo group, the fields read that its key does not hold (``"<field>:len"`` holds the field)."""
    out = {}
    for group, names in reads.items():
        missing = names - {r.partition(":")[0] for r in memo_reads(group)}
        if missing:
            out[group] = missing
    return out


def game_states(options: dict, seed: int, every: int = 4) -> list[GameState]:
    """Every ``every``-th state of a random game played to its end (and the end)."""
    st = Game(**options).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    while not st.is_terminal():
        if len(st.history) % every == 0:
            out.append(st.clone())
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    return out + [st]


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    return [s for i, options in enumerate(OPTIONS) for s in game_states(options, 11 + i)]


@pytest.fixture(scope="module")
def reads(states) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for st in states:
        for group, names in observation_reads(st).items():
            out.setdefault(group, set()).update(names)
    return out


def test_every_memo_group_is_filled_and_read(reads):
    """The games reach every fill method (so the check below sees what each reads), and the observer
    builds a key for every memo group."""
    assert set(reads) == set(MEMO_FILLS)
    assert set(MEMO_GROUPS) == set(MEMO_FILLS) - {"call"}


def test_each_observation_memo_key_holds_every_field_its_fill_reads(reads):
    assert undeclared(reads) == {}


def test_declared_reads_are_read(reads):
    """No feature declares a field its group never reads (a key that is larger than it needs to be
    only costs misses, but it means the declaration is out of date)."""
    for group, names in reads.items():
        own = {r.partition(":")[0] for r in features.own_reads(group)}
        assert own <= names, (group, own - names)


def _without_read(part: features.Part, feature: str, field: str) -> tuple[features.Part, ...]:
    """PARTS with ``field`` taken out of the reads of ``part``'s feature ``feature``."""
    def drop(f: features.Feature) -> features.Feature:
        return dataclasses.replace(f, reads=tuple(r for r in f.reads if r != field)) if f.name == feature else f
    broken = dataclasses.replace(part, features=tuple(drop(f) for f in part.features))
    return tuple(broken if p is part else p for p in features.PARTS)


@pytest.mark.parametrize("part, feature, field, group", [
    (features.PLAYERS, "acting", "phase", "players"),  # the acting flag is cleared once the game is over
    (features.BOARD, "same_tunnel", "region", "board"),
    (features.SUPPLY, "deck", "decks:len", "supply"),
])
def test_a_key_missing_a_read_field_is_caught(reads, monkeypatch, part, feature, field, group):
    """The check of the check: a declaration that forgets a field its fill reads is reported."""
    monkeypatch.setattr(features, "PARTS", _without_read(part, feature, field))
    assert undeclared(reads) == {group: {field.partition(":")[0]}}


def test_a_read_that_is_not_a_state_field_is_refused():
    with pytest.raises(ValueError, match="not a field of the state"):
        features.memo_keys({"players": ("storage", "stroage")}, Game(2))
    with pytest.raises(ValueError, match="':len' of a field that is not a list"):
        features.memo_keys({"players": ("storage:len",)}, Game(2))


# -- the rules' memoised sets ------------------------------------------------------------------------
def _legal_digs(st, p: int) -> None:
    digging.legal_digs(st, p)


def _trade_actions(st, p: int) -> None:
    trades.trade_actions(st, economy.owned(st, p))  # its memo is keyed by what p owns


#: memoised set -> (a call computing it for a seat, the fields its key stands for: read when called)
RULES_MEMOS = {
    "legal_digs": (_legal_digs, lambda: digging.LEGAL_DIGS_READS),
    "trade_actions": (_trade_actions, lambda: trades.TRADE_ACTIONS_READS),
}


def rules_reads(states: list[GameState]) -> dict[str, set[str]]:
    """The state fields each memoised set reads, computed afresh (caches dropped) for every seat."""
    out: dict[str, set[str]] = {name: set() for name in RULES_MEMOS}
    for st in states:
        for name, (compute, _) in RULES_MEMOS.items():
            for p in range(st.num_players):
                st.invalidate_caches()
                log = ReadLog(st)
                log.groups.append(name)
                compute(log, p)
                out[name] |= log.reads.get(name, set()) & set(FIELD_NAMES)
    return out


def rules_undeclared(reads: dict[str, set[str]]) -> dict[str, set[str]]:
    """Per memoised set, the fields read that its declaration does not hold."""
    out = {}
    for name, names in reads.items():
        declared = set(RULES_MEMOS[name][1]())
        if "board_version" in declared:  # every board memo's key: it changes with every board field
            declared |= set(BOARD_FIELDS)
        if names - declared:
            out[name] = names - declared
    return out


@pytest.fixture(scope="module")
def rule_reads(states) -> dict[str, set[str]]:
    return rules_reads([s for s in states if not s.is_terminal()])


def test_each_memoised_rules_set_reads_only_what_its_key_stands_for(rule_reads):
    assert all(rule_reads.values()), rule_reads  # each was computed and read something
    assert rules_undeclared(rule_reads) == {}


@pytest.mark.parametrize("module, name, memo, field", [
    (digging, "LEGAL_DIGS_READS", "legal_digs", "tunnel_supply"),
    (digging, "LEGAL_DIGS_READS", "legal_digs", "ignore_rubble"),
    (trades, "TRADE_ACTIONS_READS", "trade_actions", "supply"),
])
def test_a_rules_memo_missing_a_read_field_is_caught(rule_reads, monkeypatch, module, name, memo, field):
    monkeypatch.setattr(module, name, tuple(f for f in getattr(module, name) if f != field))
    assert rules_undeclared(rule_reads) == {memo: {field}}
