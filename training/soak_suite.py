"""The soak of the suite's other games (``mk-env soak --game cave_troll``): random games over the engine
protocol with the game's invariant checker (:mod:`mk_env.games`: ``invariants``) after every decision.

The first game's soak (:mod:`training.soak`) adds its own checks (component totals, the step and end
checks) and its game records; a game of the suite without those is soaked here: each game draws its player
count and one of :data:`POLICIES`, and a failure is saved as a small JSON record (game, player count,
seed, policy, actions, error) that ``mk-env soak --replay FILE`` plays again with every check.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from collections.abc import Callable
from typing import Any

import numpy as np

from mk_env.core.text import printable
from mk_env.games import DEFAULT_GAME, game_entry, make_game
from mk_env.records import game_of, load_record

from . import cli

#: ``uniform``: uniform over the legal decisions; ``busy``: the same but never giving up the turn's
#: actions while anything else is legal (longer turns: more moves, pushes, Orcs and artifacts per game)
POLICIES = ("uniform", "busy")
#: the key of a record's game, and the format of a failure record
RECORD_KIND = "mk_env soak failure"


def plan(index: int, players: str | int, seed: int, game: str) -> tuple[dict, int, str]:
    """(options, game seed, policy) of game ``index`` of a soak run of ``game``: a pure function."""
    counts = game_entry(game).player_counts
    rng = np.random.default_rng([seed, index])
    n = counts[index % len(counts)] if players == "all" else int(players)
    policy = POLICIES[(index // len(counts)) % len(POLICIES)]
    return {"game": game, "num_players": n}, int(rng.integers(2**31)), policy


def choose(state: Any, policy: str, rng: np.random.Generator) -> int:
    """One decision of a random ``policy``."""
    legal = state.legal_actions()
    if policy == "busy" and len(legal) > 1:
        layout = state.game.layout
        keep = legal[[layout.decode(int(a))[0] != "end_turn" for a in legal]]
        legal = keep if len(keep) else legal
    return int(legal[rng.integers(len(legal))])


def play_checked(options: dict, seed: int, policy: str, *, blocks: Counter | None = None,
                 actions: list[int] | None = None) -> Any:
    """Play one random game of ``options["game"]``, its invariants checked after every decision; raises
    the first failure. ``actions`` (if given) receives every decision."""
    entry = game_entry(options["game"])
    check = entry.check_invariants()
    state = make_game(entry.name, options["num_players"]).new_initial_state(seed)
    rng = np.random.default_rng(seed + 1)
    actions = [] if actions is None else actions
    check(state)
    while not state.is_terminal():
        a = choose(state, policy, rng)
        actions.append(a)
        state.apply(a)
        if blocks is not None:
            blocks[str(state.game.layout.decode(a)[0])] += 1
        check(state)
    return state


def save_failure(path: Path, options: dict, seed: int, actions: list[int], notes: dict) -> str:
    """Write the record of a failed game to ``path``; returns the path."""
    data = {"kind": RECORD_KIND, **options, "seed": seed, "actions": [int(a) for a in actions], "soak": notes}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return str(path)


def read_record(path: str | Path) -> dict | None:
    """The failure record of this module at ``path`` (None: not one, or not readable here)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("kind") == RECORD_KIND else None


def replay(data: dict) -> tuple[Any, int]:
    """Replay a failure record with the invariants after every action: (state, actions applied); raises
    what the game raised."""
    entry = game_entry(data["game"])
    check = entry.check_invariants()
    state = make_game(entry.name, data["num_players"]).new_initial_state(data["seed"])
    check(state)
    for a in data["actions"]:
        state.apply(int(a))
        check(state)
    return state, len(data["actions"])


def replay_main(data: dict) -> int:
    """``mk-env soak --replay FILE`` for a record of this module: 1 and the failure if it reproduces, 0 if
    the game plays through clean. A record whose fields are not a game is a ``ValueError`` naming the field."""
    for key, kind in (("game", str), ("num_players", int), ("seed", int), ("actions", list)):
        if not isinstance(data.get(key), kind):
            raise ValueError(f"soak record: field {key!r} must be a {kind.__name__}, got {data.get(key)!r}")
    game_entry(data["game"])
    try:
        state, n = replay(data)
    except Exception as e:  # noqa: BLE001 - the point is to show it
        print(f"reproduced: {type(e).__name__}: {printable(str(e))}")
        return 1
    print(f"replayed {n} decisions: no failure ({printable(repr(state))})")
    return 0


def replay_file(path: str, game: str | None, replay_actions: Callable[[Any, list[int]], Any]) -> int:
    """``mk-env soak --replay FILE [--game G]``: a record of either soak (this module's, or the first
    game's :mod:`mk_env.records` kind, replayed by ``replay_actions(state, actions)``); a record of another
    game than an explicit ``--game`` is refused naming its game."""
    data = read_record(path)
    own = data.get("game") if data is not None else None
    if data is not None and game is not None and own != game:
        raise cli.UsageError(f"{path} is a record of {printable(str(own))}, not {game}: replay it with "
                             f"--game {printable(str(own))}")
    if data is not None:
        return replay_main(data)
    record = load_record(path, game=game or _record_game(path))
    try:
        state = replay_actions(game_of(record).new_initial_state(record.seed), record.actions)
    except Exception as e:  # noqa: BLE001 - the point is to show it
        print(f"reproduced: {type(e).__name__}: {printable(str(e))}")
        return 1
    print(f"replayed {len(state.history)} decisions: no failure ({printable(repr(state))})")
    return 0


def _record_game(path: str) -> str:
    """The game a game record names (the first game's when it names none or cannot be read here: then
    :func:`mk_env.records.load_record` says what is wrong)."""
    try:
        game = json.loads(Path(path).read_text(encoding="utf-8")).get("game")
    except (OSError, ValueError, AttributeError, RecursionError):
        return DEFAULT_GAME
    return game if isinstance(game, str) else DEFAULT_GAME
