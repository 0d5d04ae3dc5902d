"""``mk-env train --algo ppo``: a run of :class:`training.fast_ppo.FastPPO` in ``--out DIR``.

The run's files follow :mod:`training.train`'s (the MaskablePPO route): ``config.json`` (its settings,
``"algo": "ppo"``), ``config_resume.json``, ``eval.csv`` and ``learning_curve.png`` (the gauntlet:
``random`` and ``heuristic``, seat-rotated, seeds 10000+i, the learner greedy, every ``--eval-every``
steps), ``tb/`` (TensorBoard: ``eval/*``, ``train/*`` losses, ``rollout/*`` of the training games,
all and those against the heuristic alone), ``games.csv`` (every finished training game: the steps
trained on when its rollout began, won, the learner's honour, the best opponent's, the opponents;
those against the heuristic drawn in ``training_games.png``),
``snapshots/`` (the opponent pool's, every ``--snapshot-every`` steps), ``checkpoints/`` (weights,
Adam's moments, the settings and the wall time, every ``--checkpoint-every`` steps; the last two
kept) and ``final_model.safetensors`` (``ppo:DIR/final_model.safetensors``). Every model file is the
safe format of :mod:`agents.factorised_file`.

Snapshots, checkpoints and evaluations happen between rollouts, so a step count is exactly the number
of decisions the weights were trained on. **Stopping**: SIGINT (Ctrl-C) or SIGTERM stops the run at
the next game tick; the checkpoint saved is the end of the last completed update (the rollout in
progress is lost); a second signal quits at once. **Resuming**: ``--resume`` continues the last
checkpoint with the run's own settings; an option given again is applied and recorded in
``config_resume.json`` (``changed``), except the game, the players, the board side and the network's
sizes (refused); ``eval.csv`` rows past the checkpoint are dropped.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

from agents.factorised_file import (build_policy, load_factorised, load_optimizer_state,
                                    save_factorised)
from agents.policy_file import SUFFIX, read_config
from mk_env.games import DEFAULT_GAME, game_entry

from .fast_ppo import PPO_DEFAULTS, FastPPO, imitate
from .fast_ppo_env import FAST_REWARDS, VecGames
from .run_files import (EVAL_FIELDS, append_eval, checkpoints, plot_learning_curve, read_eval,
                        run_checkpoints, truncate_eval)
from .selfplay import SNAPSHOT_GLOB, OpponentPool, parse_opponents, snapshot_step
from .stopping import StopRequest, TrainingStopped
from .train_callback import due_after
from .train_settings import flag

ALGO = "ppo"
#: the pool of --algo ppo: the heuristic keeps the learner honest, its own snapshots make the rest
FAST_OPPONENTS = "heuristic:0.2,latest:0.4,snapshots:0.4"
#: a run's settings and their defaults for a new run (a resumed run keeps its own)
FAST_DEFAULTS: dict[str, Any] = dict(
    game=DEFAULT_GAME, players=2, opponents=FAST_OPPONENTS, envs=64, seed=0, reward="lead",
    **PPO_DEFAULTS, snapshot_every=20_000, keep_snapshots=10, checkpoint_every=20_000,
    eval_every=20_000, eval_games=40, gauntlet=["random", "heuristic"], game_options={}, features={},
    workers=1)
#: settings a resumed run cannot change: the game the network reads and the network's sizes
FIXED_ON_RESUME = ("game", "players", "game_options", "features")
JOBS = ("snapshot", "checkpoint", "eval")
#: the columns of ``DIR/games.csv``: one row per finished training game (the learner sampling)
GAME_FIELDS = ("timesteps", "won", "honour", "best_other_honour", "opponents")


def truncate_games(out: Path, step: int) -> None:
    """Drop the ``games.csv`` rows of rollouts begun at or after ``step`` (a resume plays them again)."""
    path = Path(out) / "games.csv"
    if path.exists():
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        keep = rows[:1] + [r for r in rows[1:] if int(r[0]) < step]
        with open(path, "w", newline="") as f:
            csv.writer(f).writerows(keep)


def check_fast_settings(s: dict[str, Any], timesteps: int) -> None:
    """Refuse a setting out of its range, naming its flag and what is allowed."""
    entry = game_entry(s["game"])
    if s["players"] not in entry.player_counts:
        raise ValueError(f"--players {s['players']}: {entry.title} is for {entry.player_counts[0]} to "
                         f"{entry.player_counts[-1]} players")
    if timesteps < 1:
        raise ValueError(f"--timesteps {timesteps}: need at least 1")
    if s["reward"] not in FAST_REWARDS:
        raise ValueError(f"--reward {s['reward']!r}: allowed for --algo ppo: {', '.join(FAST_REWARDS)}")
    for name in ("envs", "n_steps", "n_epochs", "eval_games", "keep_snapshots"):
        if s[name] < 1:
            raise ValueError(f"{flag(name)} {s[name]}: need at least 1")
    if not 1 <= s["workers"] <= s["envs"]:
        raise ValueError(f"--workers {s['workers']}: need 1 to --envs ({s['envs']}) collector processes")
    if s["batch_size"] < 2:
        raise ValueError(f"--batch-size {s['batch_size']}: need at least 2")
    for name in ("snapshot_every", "checkpoint_every", "eval_every"):
        if s[name] < 0:
            raise ValueError(f"{flag(name)} {s[name]}: need 0 (never) or more")
    if not s["learning_rate"] > 0 or not 0 < s["gamma"] <= 1:
        raise ValueError(f"--lr {s['learning_rate']} / --gamma {s['gamma']}: need lr > 0 and 0 < gamma <= 1")
    parse_opponents(s["opponents"])


class FastRun:
    """One training run in ``out``: the learner, its games, and the work between rollouts."""

    def __init__(self, out: Path, settings: dict[str, Any], learner: FastPPO, seconds_before: float):
        self.out, self.settings, self.learner = out, settings, learner
        self.seconds_before, self.t0 = seconds_before, time.perf_counter()
        self.every = {kind: settings[f"{kind}_every"] for kind in JOBS}
        n = learner.num_timesteps
        self.next = {kind: due_after(n, every) for kind, every in self.every.items()}
        self.writer = _tensorboard(out / "tb")

    def seconds(self) -> float:
        return self.seconds_before + time.perf_counter() - self.t0

    def save(self, path: Path, optimizer: bool = False) -> Path:
        s, lr = self.settings, self.learner
        return save_factorised(lr.policy, path, s["players"], s["game_options"], s["game"], lr.num_timesteps,
                               lr.n_updates, {k: s[k] for k in PPO_DEFAULTS},
                               lr.optimizer if optimizer else None,
                               {"settings": s, "seconds": round(self.seconds(), 1)})

    def checkpoint(self) -> Path:
        path = self.save(self.out / "checkpoints" / f"model_{self.learner.num_timesteps}{SUFFIX}", True)
        for old in checkpoints(self.out)[:-2]:
            old.unlink()
        return path

    def snapshot(self) -> None:
        folder = self.out / "snapshots"
        self.save(folder / f"snapshot_{self.learner.num_timesteps}{SUFFIX}")
        for old in sorted(folder.glob(SNAPSHOT_GLOB), key=snapshot_step)[:-self.settings["keep_snapshots"]]:
            old.unlink()

    def evaluate(self) -> None:
        from .evaluate import gauntlet
        s, n = self.settings, self.learner.num_timesteps
        self.learner.policy.eval()
        results = gauntlet(self.learner.policy, s["gauntlet"], s["eval_games"], s["players"], seed=10_000,
                           game_options=s["game_options"], game=s["game"])
        rows = [{"timesteps": n, "seconds": round(self.seconds(), 1), **{k: r[k] for k in EVAL_FIELDS[2:]}}
                for r in results.values()]
        append_eval(self.out, rows)
        for r in rows:
            self.log({f"eval/win_rate_{r['opponent']}": r["win_rate"],
                      f"eval/honour_vs_{r['opponent']}": r["mean_honour"]})
        print(f"[eval] {n} steps, {self.seconds():.0f} s: "
              + ", ".join(f"{r['opponent']} {r['win_rate']:.0%}" for r in rows), flush=True)

    def start(self) -> None:
        """The jobs of the first step: an evaluation skipped by a stop, the first snapshot."""
        n, every = self.learner.num_timesteps, self.every["eval"]
        last = max((int(r["timesteps"]) for r in read_eval(self.out)), default=-1)
        if every > 0 and (last < 0 or n // every * every > last):
            self.evaluate()
        if self.every["snapshot"] > 0 and not list((self.out / "snapshots").glob(SNAPSHOT_GLOB)):
            self.snapshot()

    def between_rollouts(self, jobs: tuple[str, ...] = JOBS) -> None:
        n = self.learner.num_timesteps
        for kind in jobs:
            if n >= self.next[kind]:
                {"snapshot": self.snapshot, "checkpoint": self.checkpoint, "eval": self.evaluate}[kind]()
                self.next[kind] = due_after(n, self.every[kind])

    def log(self, values: dict[str, float]) -> None:
        if self.writer is not None:
            for tag, value in values.items():
                self.writer.add_scalar(tag, value, self.learner.num_timesteps)

    def log_games(self, games: VecGames, stats: dict[str, float], rate: float, collected_at: int) -> None:
        """TensorBoard: the update's losses, the training games finished since the last call (all, and
        those against the heuristic alone); each game also a row of ``DIR/games.csv`` (``timesteps``:
        the steps trained on when its rollout began, ``collected_at``)."""
        done, games.finished = games.finished, []
        values = {f"train/{k}": v for k, v in stats.items()}
        values["time/steps_per_second"] = rate
        heuristic = [g for g in done if set(g["opponents"]) == {"heuristic"}]
        for suffix, chosen in (("", done), ("_vs_heuristic", heuristic)):
            if chosen:
                n = len(chosen)
                values[f"rollout/win_rate{suffix}"] = sum(g["won"] for g in chosen) / n
                values[f"rollout/honour{suffix}"] = sum(g["honour"] for g in chosen) / n
                values[f"rollout/lead{suffix}"] = sum(g["honour"] - g["best_other_honour"] for g in chosen) / n
        self.log(values)
        with open(self.out / "games.csv", "a", newline="") as f:
            writer = csv.writer(f)
            if f.tell() == 0:
                writer.writerow(GAME_FIELDS)
            writer.writerows([collected_at, int(g["won"]), g["honour"], g["best_other_honour"],
                              "+".join(g["opponents"])] for g in done)


def train_fast_ppo(out: str | Path, timesteps: int, resume: bool = False, threads: int = 1,
                   imitate_spec: str | None = None, imitate_decisions: int = 8000, imitate_epochs: int = 4,
                   **given: Any) -> Path:
    """Train (or ``resume``) the factorised policy with PPO in ``out``; the final model's path.
    ``given``: settings of :data:`FAST_DEFAULTS` (``None`` = not given). Raises
    :class:`~training.stopping.TrainingStopped` after saving a checkpoint when a signal stopped it."""
    import torch
    given = {k: v for k, v in given.items() if v is not None}
    unknown = sorted(set(given) - set(FAST_DEFAULTS))
    if unknown:
        raise ValueError(f"--algo ppo has no setting {', '.join(unknown)}; its settings: {', '.join(FAST_DEFAULTS)}")
    out = Path(out)
    found = run_checkpoints(out, resume, bool(imitate_spec))
    torch.set_num_threads(threads)
    if resume:
        config = read_config(found[-1])
        training = config.get("training") or {}
        stored = {k: (training.get("settings") or {}).get(k, v) for k, v in FAST_DEFAULTS.items()}
        changed = {k: {"was": stored[k], "now": v} for k, v in given.items() if stored[k] != v}
        fixed = [k for k in changed if k in FIXED_ON_RESUME]
        if fixed:
            raise ValueError(f"--resume cannot change {', '.join(flag(k) for k in fixed)}: they shape the "
                             f"network and the game it reads; start a new run in another --out")
        settings = {**stored, **given}
        check_fast_settings(settings, timesteps)
        policy = load_factorised(found[-1])
        learner = FastPPO(policy, {k: settings[k] for k in PPO_DEFAULTS},
                          seed=settings["seed"] + config["num_timesteps"])
        load_optimizer_state(found[-1], learner.optimizer)
        learner.set_learning_rate(settings["learning_rate"])
        learner.num_timesteps, learner.n_updates = config["num_timesteps"], int(config.get("n_updates") or 0)
        seconds = float(training.get("seconds") or 0.0)
        dropped = truncate_eval(out, learner.num_timesteps)
        truncate_games(out, learner.num_timesteps)
        (out / "config_resume.json").write_text(json.dumps(
            {**settings, "algo": ALGO, "timesteps": timesteps, "resumed_from": found[-1].name,
             "resumed_at": learner.num_timesteps, "changed": changed}, indent=2))
        print(f"[resume] {found[-1].name} at step {learner.num_timesteps}"
              + (f"; dropped {dropped} eval.csv rows past it" if dropped else "")
              + "".join(f"; applying {flag(k)} {v['now']!r} (was {v['was']!r})" for k, v in changed.items()),
              flush=True)
    else:
        settings = {**FAST_DEFAULTS, **given}
        check_fast_settings(settings, timesteps)
        torch.manual_seed(settings["seed"])
        policy = build_policy(settings["game"], settings["players"], settings["game_options"],
                              **settings["features"])
        seconds = 0.0
        out.mkdir(parents=True, exist_ok=True)
        if imitate_spec:
            t0 = time.perf_counter()
            loss = imitate(policy, imitate_spec, imitate_decisions, imitate_epochs, seed=settings["seed"],
                           game_options=settings["game_options"], players=settings["players"],
                           game=settings["game"])
            seconds = time.perf_counter() - t0
            print(f"[imitate] {imitate_decisions} decisions of {imitate_spec}: loss {loss:.3f}, {seconds:.0f} s",
                  flush=True)
        learner = FastPPO(policy, {k: settings[k] for k in PPO_DEFAULTS}, seed=settings["seed"])
        (out / "config.json").write_text(json.dumps(
            {**settings, "algo": ALGO, "timesteps": timesteps,
             "imitate": imitate_spec and f"{imitate_spec}:{imitate_decisions}x{imitate_epochs}"}, indent=2))
    return _learn(FastRun(out, settings, learner, seconds), timesteps)


def _learn(run: FastRun, timesteps: int) -> Path:
    """Rollouts and updates up to ``timesteps``; on a stop request or a lost worker, checkpoint the
    last completed update and raise :class:`TrainingStopped`."""
    import torch

    from .fast_ppo_workers import Collectors, WorkerLost, collect_all, shares
    s, learner = run.settings, run.learner
    seed = s["seed"] + learner.num_timesteps
    games = VecGames(shares(s["envs"], s["workers"])[0], s["players"],
                     OpponentPool(s["opponents"], run.out / "snapshots"), s["reward"], s["game"], s["game_options"],
                     seed=seed, generator=torch.Generator().manual_seed(seed + 1))
    lost = ""
    with StopRequest() as stop:
        collectors = Collectors(s, str(run.out / "snapshots"), seed) if s["workers"] > 1 else None
        try:
            run.start()
            while learner.num_timesteps < timesteps and stop.signum is None:
                t0, collected_at = time.perf_counter(), learner.num_timesteps
                rollout = collect_all(learner, games, collectors, stop)
                if rollout is None:
                    break
                stats = learner.update(rollout)
                run.log_games(games, stats, rollout.count / (time.perf_counter() - t0), collected_at)
                if stop.signum is None:
                    run.between_rollouts()
        except WorkerLost as e:
            lost = str(e)
        finally:
            if collectors is not None:
                collectors.close()
    if stop.signum is not None or lost:
        path = run.checkpoint()
        raise TrainingStopped(f"{lost or stop.name} at step {learner.num_timesteps}: saved {path} (the last "
                              f"completed update); continue with: mk-env train --resume --out {run.out}",
                              path, stop.signum if not lost else None)
    run.between_rollouts(("snapshot", "eval"))
    run.checkpoint()
    final = run.save(run.out / f"final_model{SUFFIX}")
    if run.writer is not None:
        run.writer.close()
    if read_eval(run.out):
        plot_learning_curve(run.out, title=f"PPO (factorised policy), {s['game']}, {s['players']} players")
    if any(source.startswith("heuristic") for source in parse_opponents(s["opponents"])):
        try:
            plot_training_games(run.out)
        except ValueError:  # no training game against the heuristic alone yet
            pass
    return final


def plot_training_games(out: str | Path, opponents: str = "heuristic", bin_steps: int = 25_000,
                        png: str | Path | None = None) -> Path:
    """The learner's honour lead and win rate in its training games against ``opponents`` (as
    ``games.csv`` names them), in bins of ``bin_steps`` steps: ``DIR/training_games.png``."""
    from matplotlib.figure import Figure
    with open(Path(out) / "games.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["opponents"] == opponents]
    if not rows:
        raise ValueError(f"{out}/games.csv holds no training game against {opponents}")
    bins: dict[int, list[dict[str, str]]] = {}
    for r in rows:
        bins.setdefault(int(r["timesteps"]) // bin_steps * bin_steps, []).append(r)
    steps = sorted(bins)
    lead = [sum(int(r["honour"]) - int(r["best_other_honour"]) for r in bins[k]) / len(bins[k]) for k in steps]
    wins = [sum(int(r["won"]) for r in bins[k]) / len(bins[k]) for k in steps]
    fig = Figure(figsize=(6.4, 3.8))
    ax = fig.subplots()
    ax.plot(steps, lead, marker="o", ms=3, label="honour lead per game")
    ax.axhline(0, color="gray", ls=":", lw=1)
    ax.set_xlabel(f"learner steps (bins of {bin_steps:,})")
    ax.set_ylabel(f"learner's honour minus {opponents}'s")
    right = ax.twinx()
    right.plot(steps, wins, color="C1", marker="s", ms=3, label="win rate")
    right.set_ylim(-0.02, 1.02)
    right.set_ylabel("win rate")
    ax.set_title(f"training games against {opponents} (learner sampling; {len(rows)} games)")
    handles = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    ax.legend(handles, [h.get_label() for h in handles], loc="upper left")
    fig.tight_layout()
    png = Path(png) if png else Path(out) / "training_games.png"
    fig.savefig(png, dpi=110)
    return png


def _tensorboard(folder: Path) -> Any:
    """A TensorBoard writer, or None when tensorboard is not installed."""
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        return None
    return SummaryWriter(str(folder))
