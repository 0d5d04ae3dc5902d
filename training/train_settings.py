"""The settings of a training run: their defaults, the checks of a new run's, and what a resumed run
keeps, takes again or refuses (see :mod:`training.train`, "Resuming")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.policy_file import is_sb3_zip, read_config, refuse_untrusted_zip
from mk_env.games import DEFAULT_GAME, game_entry

from .selfplay import DEFAULT_OPPONENTS, parse_opponents

DEFAULT_OUT = "runs/train"
VEC_KINDS = ("dummy", "subproc")
DEFAULT_VEC = "dummy"  # measured faster on 2 cores: docs/training.md
REWARDS = ("win", "margin", "dense")
#: a run's settings and their defaults for a new run (a resumed run keeps its own)
DEFAULTS: dict[str, Any] = dict(
    game=DEFAULT_GAME, players=2, opponents=DEFAULT_OPPONENTS, envs=2, vec=DEFAULT_VEC, seed=0, reward="dense",
    extractor="cnn", n_steps=512, batch_size=256, n_epochs=4, learning_rate=3e-4, ent_coef=0.01,
    gamma=0.99, snapshot_every=20_000, keep_snapshots=10, checkpoint_every=20_000, eval_every=10_000,
    eval_games=40, gauntlet=["random", "heuristic"], game_options={})
#: settings a resumed run cannot change: the network's shape and the game it reads
FIXED_ON_RESUME = ("game", "players", "extractor", "game_options")
#: settings PPO itself holds (the others shape the envs, the pool and the bookkeeping)
PPO_SETTINGS = ("n_steps", "batch_size", "n_epochs", "learning_rate", "ent_coef", "gamma")
#: command-line spelling of settings whose flag is not ``--`` + the name with dashes
FLAGS = {"learning_rate": "--lr", "game_options": "--board-side"}


def stored_settings(out: Path, checkpoint: Path, trust: bool = False) -> tuple[dict[str, Any], float]:
    """The settings a run was trained with and its wall time so far, from its last checkpoint (or,
    for a ``.zip`` checkpoint of an older version, from ``config.json``; that needs ``trust``)."""
    if is_sb3_zip(checkpoint):
        if not trust:
            refuse_untrusted_zip(checkpoint, "pass --trust to mk-env train --resume")
        config = Path(out) / "config.json"
        stored = json.loads(config.read_text()) if config.exists() else {}
        meta = checkpoint.with_suffix(".json")
        seconds = json.loads(meta.read_text())["seconds"] if meta.exists() else 0.0
    else:
        training = read_config(checkpoint).get("training") or {}
        stored, seconds = training.get("settings") or {}, float(training.get("seconds") or 0.0)
    return {k: stored.get(k, v) for k, v in DEFAULTS.items()}, seconds


def resume_settings(stored: dict[str, Any], given: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    """The settings of a resumed run: its own, with the options given again applied; and what
    changed (``{name: {"was": ..., "now": ...}}``). Settings of :data:`FIXED_ON_RESUME` that differ
    are refused."""
    changed = {k: {"was": stored[k], "now": v} for k, v in given.items() if stored[k] != v}
    fixed = [k for k in changed if k in FIXED_ON_RESUME]
    if fixed:
        what = ", ".join(f"{flag(k)} {changed[k]['was']!r} -> {changed[k]['now']!r}" for k in fixed)
        raise ValueError(f"--resume cannot change {what}: these settings shape the network and the "
                         f"game it reads; start a new run in another --out")
    return {**stored, **given}, changed


def new_run_settings(given: dict[str, Any]) -> dict[str, Any]:
    """The settings of a new run: :data:`DEFAULTS` with ``given`` applied (the extractor by game)."""
    game = given.get("game") or DEFAULT_GAME
    return {**DEFAULTS, "extractor": game_entry(game).extractors[0], **given}


def flag(name: str) -> str:
    """The command-line flag of setting ``name`` (``learning_rate`` -> ``--lr``)."""
    return FLAGS.get(name, "--" + name.replace("_", "-"))


def check_settings(s: dict[str, Any], timesteps: int, threads: int) -> None:
    """Refuse a setting out of its range, naming its flag and what is allowed."""
    from agents.networks import EXTRACTORS
    entry = game_entry(s["game"])
    if s["players"] not in entry.player_counts:
        counts = entry.player_counts
        raise ValueError(f"--players {s['players']}: {entry.title} is for {counts[0]} to {counts[-1]} "
                         f"players")
    if timesteps < 1:
        raise ValueError(f"--timesteps {timesteps}: need at least 1")
    if s["reward"] not in REWARDS:
        raise ValueError(f"--reward {s['reward']!r}: allowed: {', '.join(REWARDS)}")
    allowed = tuple(x for x in game_entry(s["game"]).extractors if x in EXTRACTORS)
    if s["extractor"] not in allowed:
        raise ValueError(f"--extractor {s['extractor']!r}: allowed for {s['game']}: {', '.join(allowed)}")
    if s["vec"] not in VEC_KINDS:
        raise ValueError(f"--vec {s['vec']!r}: allowed: {', '.join(VEC_KINDS)}")
    if s["n_steps"] < 2 or s["batch_size"] < 2:
        raise ValueError(f"--n-steps {s['n_steps']} / --batch-size {s['batch_size']}: need at least 2 each")
    for name in ("envs", "n_epochs", "eval_games", "keep_snapshots"):
        if s[name] < 1:
            raise ValueError(f"{flag(name)} {s[name]}: need at least 1")
    for name in ("snapshot_every", "checkpoint_every", "eval_every"):
        if s[name] < 0:
            raise ValueError(f"{flag(name)} {s[name]}: need 0 (never) or more")
    if not s["learning_rate"] > 0:
        raise ValueError(f"--lr {s['learning_rate']}: need a positive learning rate")
    if threads < 1:
        raise ValueError(f"--threads {threads}: need at least 1")
    parse_opponents(s["opponents"])
