"""Game records: a small JSON file per game that the engine replays exactly.

A record holds what is needed to rebuild every state of a game: the record format version, the data
pack id, the game options (:meth:`Game.options_dict`), the integer seed of the game's generator and
every applied action (``state.history``: decisions whose only legal action was "pass" are applied
automatically by the engine and are not listed; replaying re-applies them the same way). Agent names
and the final scores are optional; when the scores are stored, replaying checks them.

>>> from mk_env.mountain_king.rules import Game
>>> state = Game(num_players=2).new_initial_state(seed=5)
>>> state.apply(int(state.legal_actions()[0]))
>>> record = record_from_state(state, seed=5)
>>> final_state(record).history == state.history
True

Pure: imports only :mod:`mk_env.core`, the table of games :mod:`mk_env.games` (which imports a game's rules
only when its record is replayed: every game's pack and ``Game`` come through its card), numpy and the
standard library. ``pack`` arguments are a pack folder, a loaded pack, or None for the game's default.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .core.errors import ConfigError, IllegalActionError, PackError
from .core.pack_json import short_repr
from .games import DEFAULT_GAME, GAMES, game_entry, game_name

#: the record format this module writes; it reads this version and older ones it knows
RECORD_FORMAT_VERSION = 1
#: the ``kind`` field that marks a file as a game record
RECORD_KIND = "mk_env game record"
REQUIRED_FIELDS = ("format_version", "pack_id", "options", "seed", "actions")
#: seeds are non-negative integers below this (numpy's generators refuse negative seeds)
MAX_SEED = 2**128


class RecordError(ValueError):
    """A game record that cannot be used: missing, corrupt, from another pack or a newer format,
    or whose actions do not replay. The message names the file or field and what was expected."""


@dataclass
class GameRecord:
    """One game, replayable by the engine (see the module docstring)."""

    pack_id: str
    options: dict[str, Any]
    seed: int
    actions: list[int] = field(default_factory=list)
    agents: list[str] | None = None  # one name per seat
    final_scores: list[int] | None = None  # total honour per seat, stored for finished games
    format_version: int = RECORD_FORMAT_VERSION
    game: str | None = None  # the suite's game (:mod:`mk_env.games`); None: the first game (old records)

    @property
    def num_players(self) -> int:
        return int(self.options["num_players"])

    def to_dict(self) -> dict[str, Any]:
        data = {"kind": RECORD_KIND, **asdict(self)}
        return {k: v for k, v in data.items() if v is not None}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any, source: str = "game record") -> GameRecord:
        """Validate and build; errors name ``source`` and the offending field."""
        if not isinstance(data, dict):
            raise RecordError(f"{source}: a game record must be a JSON object, got {type(data).__name__}")
        if "kind" in data and data["kind"] != RECORD_KIND:
            raise RecordError(f"{source}: kind is {short_repr(data['kind'])}, not {RECORD_KIND!r}: not a game "
                              f"record (a tournament's games.jsonl line, a saved state or another file?)")
        missing = [k for k in REQUIRED_FIELDS if k not in data]
        if missing:
            raise RecordError(f"{source}: missing fields {', '.join(missing)} "
                              f"(a record needs {', '.join(REQUIRED_FIELDS)})")
        version = data["format_version"]
        if not _is_int(version) or version < 1:
            raise RecordError(f"{source}: format_version must be a positive integer, got {version!r}")
        if version > RECORD_FORMAT_VERSION:
            raise RecordError(f"{source}: record format_version {version} is newer than this mk_env "
                              f"reads (up to {RECORD_FORMAT_VERSION}); upgrade mk_env to replay it")
        if not isinstance(data["pack_id"], str) or not data["pack_id"]:
            raise RecordError(f"{source}: pack_id must be a non-empty string, got {data['pack_id']!r}")
        if not isinstance(data["options"], dict) or "num_players" not in data["options"]:
            raise RecordError(f"{source}: options must be an object with num_players "
                              f"(Game.options_dict()), got {data['options']!r}")
        if not _is_int(data["seed"]) or not 0 <= data["seed"] < MAX_SEED:
            raise RecordError(f"{source}: seed must be an integer in 0..2**128-1 (the game generator's seed), "
                              f"got {short_repr(data['seed'])}")
        actions = data["actions"]
        if not isinstance(actions, list) or not all(_is_int(a) and a >= 0 for a in actions):
            raise RecordError(f"{source}: actions must be a list of non-negative integers")
        n = data["options"]["num_players"]
        agents = data.get("agents")
        if agents is not None and (not isinstance(agents, list) or len(agents) != n
                                   or not all(isinstance(a, str) for a in agents)):
            raise RecordError(f"{source}: agents must be a list of {n} names, got {agents!r}")
        scores = data.get("final_scores")
        if scores is not None and (not isinstance(scores, list) or len(scores) != n
                                   or not all(_is_int(s) for s in scores)):
            raise RecordError(f"{source}: final_scores must be a list of {n} integers, got {scores!r}")
        return cls(pack_id=data["pack_id"], options=dict(data["options"]), seed=int(data["seed"]),
                   actions=[int(a) for a in actions], agents=agents,
                   final_scores=None if scores is None else [int(s) for s in scores],
                   format_version=int(version), game=_game_field(data.get("game"), source))


def _game_field(game: Any, source: str) -> str | None:
    """The record's ``game``: absent for the first game's records, else one of the suite's games."""
    if game is None or game == DEFAULT_GAME:
        return None
    if game not in GAMES:
        raise RecordError(f"{source}: game must be one of the suite's games ({', '.join(GAMES)}), got "
                          f"{short_repr(game)}")
    return game


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def final_scores(state: Any) -> list[int]:
    """Total honour of each seat (the engine's score breakdown)."""
    return [int(state.score_breakdown(p)["total"]) for p in range(state.num_players)]


def record_from_state(state: Any, seed: int, agents: list[str] | None = None,
                      actions: list[int] | None = None) -> GameRecord:
    """The record of the game that led to ``state``, which must have been created with
    ``game.new_initial_state(seed)`` (an integer seed: a Generator cannot be written down).
    ``actions``: the applied actions, for a game whose state keeps no ``history`` (Cave Troll).
    Final scores are stored when the game is over."""
    if not _is_int(seed):
        raise RecordError(f"seed must be the integer the game was started with, got {seed!r}")
    n = state.num_players
    if agents is not None and len(agents) != n:
        raise RecordError(f"agents: need {n} names (one per seat), got {len(agents)}")
    if actions is None and not hasattr(state, "history"):
        raise RecordError(f"a {game_name(state.game)} state keeps no history: pass the applied actions "
                          f"(actions=...)")
    record = record_of_game(state.game, seed, state.history if actions is None else actions)
    record.agents = None if agents is None else [str(a) for a in agents]
    record.final_scores = final_scores(state) if state.is_terminal() else None
    return record


def record_of_game(game: Any, seed: int, actions: list[int]) -> GameRecord:
    """The record of ``actions`` played in ``game`` (any game of the suite) from ``seed``: its game, pack
    and options (``options_dict()`` where the game has options, else its player count)."""
    name = game_name(game)
    options = game.options_dict() if hasattr(game, "options_dict") else {"num_players": game.num_players}
    return GameRecord(pack_id=game.pack.pack_id, options=options, seed=int(seed), actions=[int(a) for a in actions],
                      game=None if name == DEFAULT_GAME else name)


def save_record(record: GameRecord, path: str | os.PathLike) -> Path:
    """Write the record as JSON (parent folders are created). Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.to_json() + "\n", encoding="utf-8")
    return path


def load_record(path: str | os.PathLike, pack: Any = None,
                game: str = DEFAULT_GAME) -> GameRecord:
    """Read a record; check it against ``pack`` (a path, a loaded pack, or None for the default
    pack). Raises :class:`RecordError` for a missing file, bad JSON, missing or malformed fields,
    a newer format version, or a record made with another data pack."""
    path = Path(path)
    if not path.is_file():
        raise RecordError(f"no game record at {path} (file not found)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as e:  # bad JSON, a huge integer, deep nesting
        raise RecordError(f"{path}: not a valid JSON game record (truncated or corrupt?): "
                          f"{str(e)[:200] or type(e).__name__}") from None
    record = GameRecord.from_dict(data, source=str(path))
    if (record.game or DEFAULT_GAME) != game:
        raise RecordError(f"{path}: the record is a game of {record.game or DEFAULT_GAME}, not {game} "
                          f"(replay it with --game {record.game or DEFAULT_GAME})")
    check_pack(record, _pack(pack, game), source=str(path))
    return record


def _pack(pack: Any, game: str | None = None) -> Any:
    """The data pack of ``game`` (None: the first game): ``pack`` itself, loaded from a path, or the default,
    through the game's ``Game`` (which loads and checks it)."""
    name = game or DEFAULT_GAME
    try:
        return game_entry(name).game_class()(pack=pack).pack
    except (PackError, ConfigError, ValueError) as e:
        raise RecordError(f"cannot load data pack {pack!r} of {name} to replay the record: {e}") from None


def check_pack(record: GameRecord, pack: Any, source: str = "game record") -> None:
    if record.pack_id != pack.pack_id:
        raise RecordError(f"{source}: the record was made with data pack {record.pack_id!r}, but the "
                          f"pack in use is {pack.pack_id!r}; replay it with that pack (pack=...)")


def game_of(record: GameRecord, pack: Any = None) -> Any:
    """The ``Game`` the record was played in (its game of the suite, same options and pack)."""
    content = _pack(pack, record.game)
    check_pack(record, content)
    game_class = game_entry(record.game or DEFAULT_GAME).game_class()
    try:
        return game_class(**record.options, pack=content)
    except (ConfigError, TypeError) as e:
        raise RecordError(f"record options {record.options!r} are not valid game options: {e}") from None


def replay(record: GameRecord, pack: Any = None) -> Iterator[Any]:
    """Yield the initial state and then the state after each recorded action (independent copies,
    so ``list(replay(record))`` keeps them all). Raises :class:`RecordError` if an action is illegal
    or stored final scores differ from the replayed ones."""
    state = game_of(record, pack).new_initial_state(record.seed)
    yield state.clone()
    for state in _steps(record, state):
        yield state.clone()


def final_state(record: GameRecord, pack: Any = None) -> Any:
    """The state after every recorded action (checked like :func:`replay`, without the copies)."""
    state = game_of(record, pack).new_initial_state(record.seed)
    for state in _steps(record, state):
        pass
    return state


def _steps(record: GameRecord, state: Any) -> Iterator[Any]:
    """Apply each action to ``state`` in place, yielding it after each; check the end."""
    layout = state.game.layout
    for i, a in enumerate(record.actions):
        if state.is_terminal():
            raise RecordError(f"record action {i} ({a}) comes after the end of the game "
                              f"({len(record.actions)} actions recorded, the game ended after {i})")
        try:
            state.apply(a)
        except (IllegalActionError, ValueError) as e:
            what = layout.describe(a) if 0 <= a < layout.size else "outside the action space"
            raise RecordError(f"record action {i} ({a}: {what}) does not replay: {e}") from None
        yield state
    if record.final_scores is not None:
        if not state.is_terminal():
            raise RecordError(f"the record stores final scores but its {len(record.actions)} actions "
                              f"do not finish the game")
        got = final_scores(state)
        if got != record.final_scores:
            raise RecordError(f"replayed final scores {got} differ from the recorded {record.final_scores}")
