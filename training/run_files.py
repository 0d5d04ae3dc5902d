"""The files of a training run (``mk-env train --out DIR``): checkpoints, ``eval.csv`` and the learning
curve drawn from it. The folder's layout is described in :mod:`training.train`."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

from agents.policy_file import SUFFIX, save_model

from .selfplay import snapshot_step

#: the columns of ``eval.csv``: one row per gauntlet opponent per evaluation
EVAL_FIELDS = ("timesteps", "seconds", "opponent", "games", "wins", "win_rate", "mean_honour",
               "opponent_mean_honour")
CHECKPOINTS_KEPT = 2


def save_checkpoint(model: Any, out: Path, seconds: float, settings: dict[str, Any],
                    keep: int = CHECKPOINTS_KEPT) -> Path:
    """``DIR/checkpoints/model_<steps>.safetensors``: weights, Adam's moments, the run's settings and
    the wall time so far; older checkpoints beyond ``keep`` go."""
    path = Path(out) / "checkpoints" / f"model_{model.num_timesteps}{SUFFIX}"
    save_model(model, path, settings["players"], settings["game_options"], optimizer=True,
               training={"settings": settings, "seconds": round(seconds, 1)}, game=settings["game"])
    for old in checkpoints(out)[:-keep]:
        old.unlink()
    return path


def record_threads(out: str | Path, threads: int) -> None:
    """Keep ``threads`` (``mk-env train --threads``) in ``DIR/config.json``, when the run has one, so that
    ``--resume`` without ``--threads`` carries it."""
    config = Path(out) / "config.json"
    try:
        data = json.loads(config.read_text()) if config.is_file() else None
    except (OSError, ValueError):  # unreadable: the run's own checks say so; this note is not worth an error
        return
    if isinstance(data, dict) and data.get("threads") != threads:
        config.write_text(json.dumps({**data, "threads": threads}, indent=2))


def run_checkpoints(out: Path, resume: bool, imitate: bool = False) -> list[Path]:
    """The checkpoints of the run in ``out`` (oldest first), once ``out`` fits the request: a new run
    needs a folder without checkpoints, ``--resume`` one with some, and ``--imitate`` a new run."""
    found = checkpoints(out)
    if found and not resume:
        raise ValueError(f"--out {out} already holds a training run (checkpoints/); use --resume "
                         f"to continue it or another --out")
    if resume and not found:
        raise ValueError(f"--resume: no checkpoint in {out}/checkpoints to continue from")
    if resume and imitate:
        raise ValueError("--imitate warms up a new run; a resumed run continues from its checkpoint")
    return found


def checkpoints(out: Path) -> list[Path]:
    """Saved checkpoints, oldest first (``.zip`` ones of older versions too)."""
    folder = Path(out) / "checkpoints"
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob("model_*") if p.suffix in (SUFFIX, ".zip")]
    return sorted(found, key=snapshot_step)


def read_eval(out: Path) -> list[dict[str, Any]]:
    path = Path(out) / "eval.csv"
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def append_eval(out: Path, rows: list[dict[str, Any]]) -> None:
    path = Path(out) / "eval.csv"
    new = not path.exists()
    with open(path, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
        if new:
            writer.writeheader()
        writer.writerows(rows)


def truncate_eval(out: Path, step: int) -> int:
    """Drop ``eval.csv`` rows after ``step`` (evaluations of steps a resume will redo); how many."""
    rows = read_eval(out)
    keep = [r for r in rows if int(r["timesteps"]) <= step]
    if len(keep) < len(rows):
        path = Path(out) / "eval.csv"
        tmp = path.with_name(".eval.csv.tmp")
        with open(tmp, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
            writer.writeheader()
            writer.writerows(keep)
        os.replace(tmp, path)
    return len(rows) - len(keep)


def plot_learning_curve(out: str | Path, png: str | Path | None = None,
                        title: str | None = None) -> Path:
    """Win rates against each gauntlet agent over steps (and minutes, top axis) from ``eval.csv``."""
    from matplotlib.figure import Figure  # object API: leaves the caller's backend (e.g. notebooks) alone
    rows = read_eval(Path(out))
    if not rows:
        raise ValueError(f"{out}/eval.csv holds no evaluations yet")
    png = Path(png) if png else Path(out) / "learning_curve.png"
    fig = Figure(figsize=(6.4, 3.8))
    ax = fig.subplots()
    for spec in dict.fromkeys(r["opponent"] for r in rows):
        pts = [(int(r["timesteps"]), float(r["win_rate"])) for r in rows if r["opponent"] == spec]
        ax.plot(*zip(*pts), marker="o", ms=3, label=f"vs {spec}")
    ax.axhline(0.9, color="gray", ls=":", lw=1)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (seat-rotated)")
    ax.set_ylim(-0.02, 1.02)
    steps = [int(r["timesteps"]) for r in rows]
    secs = [float(r["seconds"]) for r in rows]
    if steps[-1] > 0 and secs[-1] > 0:
        rate = steps[-1] / secs[-1]  # mean steps per second, for the minutes axis
        top = ax.secondary_xaxis("top", functions=(lambda s: s / rate / 60, lambda m: m * 60 * rate))
        top.set_xlabel("minutes (wall clock)")
    ax.legend(loc="lower right")
    ax.set_title(title or "MaskablePPO self-play, 2 players")
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    return png
