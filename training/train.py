"""``mk-env train``: MaskablePPO (sb3-contrib) self-play on the single-seat view.

The learner plays one seat (drawn at each reset) of a ``--players`` game; the other seats are drawn
per episode from an :class:`~training.selfplay.OpponentPool` (``--opponents``: frozen snapshots of
the learner saved every ``--snapshot-every`` steps, the latest snapshot, fixed baselines). Every
``--eval-every`` steps the learner plays a fixed gauntlet (random, heuristic) with seat rotation
(:mod:`training.evaluate`); the win rates go to TensorBoard (``DIR/tb``, tags ``eval/win_rate_*``)
and to ``DIR/eval.csv``. Snapshots, checkpoints and evaluations happen between rollouts, so each
one's step count is the exact number of steps its weights were trained on.

All model files are in the safe format of :mod:`agents.policy_file` (no pickle): checkpoints
``DIR/checkpoints/model_<steps>.safetensors`` (with Adam's moments and the run's settings) let
``--resume`` continue; the end result is ``DIR/final_model.safetensors``, which
``ppo:DIR/final_model.safetensors`` loads for ``mk-env play`` and ``mk-env tournament``.

**Stopping.** SIGINT (Ctrl-C) or SIGTERM stops the run after the current step and saves a
checkpoint at the end of the last completed rollout (the steps of the rollout in progress are lost;
a second signal quits at once); a ``--vec subproc`` worker that dies stops the run the same way.
``mk-env train --resume --out DIR`` continues from the last checkpoint: ``eval.csv`` rows past it are
dropped, so every curve stays strictly increasing in steps.

**Resuming.** A resumed run keeps its own settings (stored in each checkpoint); an option given again
with another value is applied and recorded in ``config_resume.json`` (``changed``: was / now) and
printed, except ``--players``, ``--extractor`` and ``--board-side``, which shape the network and the
game it reads, and are refused.

Files in ``DIR``: ``config.json`` (the settings), ``config_resume.json`` (the last resume),
``eval.csv``, ``learning_curve.png``, ``tb/``, ``snapshots/``, ``checkpoints/``,
``final_model.safetensors``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy_file import SUFFIX, is_sb3_zip, load_model, read_config, refuse_untrusted_zip, save_model

from . import cli
from .selfplay import (DEFAULT_OPPONENTS, SNAPSHOT_GLOB, OpponentPool, SelfPlayWrapper, parse_opponents,
                       snapshot_step)
from .stopping import WORKER_LOST, StopRequest, TrainingStopped, close_vec_env, dead_workers

DEFAULT_OUT = "runs/train"
VEC_KINDS = ("dummy", "subproc")
DEFAULT_VEC = "dummy"  # measured faster on 2 cores: docs/training.md
REWARDS = ("win", "margin", "dense")
EVAL_FIELDS = ("timesteps", "seconds", "opponent", "games", "wins", "win_rate", "mean_honour",
               "opponent_mean_honour")
#: a run's settings and their defaults for a new run (a resumed run keeps its own)
DEFAULTS: dict[str, Any] = dict(
    players=2, opponents=DEFAULT_OPPONENTS, envs=2, vec=DEFAULT_VEC, seed=0, reward="dense",
    extractor="cnn", n_steps=512, batch_size=256, n_epochs=4, learning_rate=3e-4, ent_coef=0.01,
    gamma=0.99, snapshot_every=20_000, keep_snapshots=10, checkpoint_every=20_000, eval_every=10_000,
    eval_games=40, gauntlet=["random", "heuristic"], game_options={})
#: settings a resumed run cannot change: the network's shape and the game it reads
FIXED_ON_RESUME = ("players", "extractor", "game_options")
#: settings PPO itself holds (the others shape the envs, the pool and the bookkeeping)
PPO_SETTINGS = ("n_steps", "batch_size", "n_epochs", "learning_rate", "ent_coef", "gamma")
#: command-line spelling of settings whose flag is not ``--`` + the name with dashes
FLAGS = {"learning_rate": "--lr", "game_options": "--board-side"}
CHECKPOINTS_KEPT = 2


# ================================================================================================
# environments
# ================================================================================================
def make_env_fn(players: int, reward: str, opponents: str | dict, snapshot_dir: str | Path,
                game_options: dict[str, Any] | None = None, worker: bool = False):
    """A picklable factory of one self-play single-seat env (a Monitor inside, for episode stats).

    ``worker``: the env lives in a worker process of its own, which then ignores SIGINT (Ctrl-C
    reaches the whole process group; the main process stops the run and closes the workers) and runs
    torch on one thread."""
    def _init():
        from stable_baselines3.common.monitor import Monitor
        from mk_env.env import single_seat_env
        if worker:
            import signal

            import torch
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            torch.set_num_threads(1)
        env = Monitor(single_seat_env(players, seat=None, reward=reward, **(game_options or {})))
        return SelfPlayWrapper(env, OpponentPool(opponents, snapshot_dir))
    return _init


def make_vec_env(n_envs: int, vec: str, seed: int, **env_kwargs: Any):
    """``n_envs`` self-play envs in a DummyVecEnv (one process) or SubprocVecEnv (one each)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    if vec not in VEC_KINDS:
        raise ValueError(f"--vec {vec!r}: allowed: {', '.join(VEC_KINDS)}")
    fns = [make_env_fn(**env_kwargs, worker=vec == "subproc") for _ in range(n_envs)]
    venv = DummyVecEnv(fns) if vec == "dummy" else SubprocVecEnv(fns)
    venv.seed(seed)
    return venv


# ================================================================================================
# the callback: snapshots, checkpoints, evaluation between rollouts; stopping on request
# ================================================================================================
def _due_after(step: int, every: int) -> float:
    """The first multiple of ``every`` after ``step`` (never, for ``every`` 0)."""
    return (step // every + 1) * every if every > 0 else float("inf")


def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Between rollouts: snapshots for the pool, checkpoints, gauntlet evaluations. After each
        step: stops the rollout when a signal asked to (:class:`~training.stopping.StopRequest`)."""

        JOBS = ("snapshot", "checkpoint", "eval")

        def __init__(self, out: Path, settings: dict[str, Any], seconds_before: float,
                     stop: StopRequest):
            super().__init__()
            self.out, self.settings, self.stop = out, settings, stop
            self.every = {kind: settings[f"{kind}_every"] for kind in self.JOBS}
            self.seconds_before = seconds_before
            self.next: dict[str, float] = {}
            self.trained_steps = 0  # steps whose experience the weights have been trained on
            self.stopped_at: int | None = None  # the step at which a stop request ended a rollout
            self.t0 = time.perf_counter()

        def seconds(self) -> float:
            return self.seconds_before + time.perf_counter() - self.t0

        def _on_training_start(self) -> None:
            self.t0 = time.perf_counter()
            n = self.trained_steps = self.model.num_timesteps
            self.next = {kind: _due_after(n, every) for kind, every in self.every.items()}
            rows = read_eval(self.out)
            last = max((int(r["timesteps"]) for r in rows), default=-1)
            every = self.every["eval"]
            if every > 0 and (last < 0 or n // every * every > last):  # step 0, or one skipped
                self.evaluate()
            if self.every["snapshot"] > 0 and not list((self.out / "snapshots").glob(SNAPSHOT_GLOB)):
                self.snapshot()

        def _on_rollout_start(self) -> None:
            self.trained_steps = self.model.num_timesteps
            if self.stop.signum is None:
                self.between_rollouts()

        def _on_step(self) -> bool:
            if self.stop.signum is None:
                return True
            self.stopped_at = self.model.num_timesteps
            return False

        def between_rollouts(self, jobs: tuple[str, ...] = JOBS) -> None:
            """Run the jobs that are due at the current step."""
            n = self.model.num_timesteps
            actions = {"snapshot": self.snapshot, "checkpoint": self.checkpoint, "eval": self.evaluate}
            for kind in jobs:
                if n >= self.next[kind]:
                    actions[kind]()
                    self.next[kind] = _due_after(n, self.every[kind])

        def snapshot(self) -> None:
            folder = self.out / "snapshots"
            s = self.settings
            save_model(self.model, folder / f"snapshot_{self.model.num_timesteps}{SUFFIX}", s["players"],
                       s["game_options"])
            snaps = sorted(folder.glob(SNAPSHOT_GLOB), key=snapshot_step)
            for old in snaps[:-s["keep_snapshots"]]:
                old.unlink()

        def checkpoint(self) -> None:
            path = save_checkpoint(self.model, self.out, self.seconds(), self.settings)
            print(f"[checkpoint] {self.model.num_timesteps} steps: {path}", flush=True)

        def evaluate(self) -> None:
            from .evaluate import gauntlet
            s, n = self.settings, self.model.num_timesteps
            results = gauntlet(self.model, s["gauntlet"], s["eval_games"], s["players"], seed=10_000,
                               game_options=s["game_options"])
            rows = []
            for spec, r in results.items():
                self.logger.record(f"eval/win_rate_{spec}", r["win_rate"])
                self.logger.record(f"eval/honour_vs_{spec}", r["mean_honour"])
                rows.append({"timesteps": n, "seconds": round(self.seconds(), 1),
                             **{k: r[k] for k in EVAL_FIELDS[2:]}})
            append_eval(self.out, rows)
            text = ", ".join(f"{r['opponent']} {r['win_rate']:.0%}" for r in rows)
            print(f"[eval] {n} steps, {self.seconds():.0f} s: {text}", flush=True)

    return SelfPlayCallback


# ================================================================================================
# files of a run
# ================================================================================================
def save_checkpoint(model: Any, out: Path, seconds: float, settings: dict[str, Any],
                    keep: int = CHECKPOINTS_KEPT) -> Path:
    """``DIR/checkpoints/model_<steps>.safetensors``: weights, Adam's moments, the run's settings and
    the wall time so far; older checkpoints beyond ``keep`` go."""
    path = Path(out) / "checkpoints" / f"model_{model.num_timesteps}{SUFFIX}"
    save_model(model, path, settings["players"], settings["game_options"], optimizer=True,
               training={"settings": settings, "seconds": round(seconds, 1)})
    for old in checkpoints(out)[:-keep]:
        old.unlink()
    return path


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


# ================================================================================================
# imitation warm start
# ================================================================================================
def collect_decisions(spec: str, decisions: int, players: int = 2, seed: int = 0,
                      game_options: dict[str, Any] | None = None) -> tuple[dict, np.ndarray, np.ndarray]:
    """``decisions`` (observation, mask, action) triples of agent ``spec`` playing every seat."""
    from agents import make_agent
    from mk_env.env import raw_env
    from mk_env.rules.view import PlayerView
    env, agent, rng = raw_env(players, **(game_options or {})), make_agent(spec), np.random.default_rng(seed)
    obs_rows: list[dict] = []
    masks, actions, game = [], [], 0
    while len(actions) < decisions:
        env.reset(seed=seed + game)
        game += 1
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = PlayerView(env.game_state, env.possible_agents.index(name), observe=lambda o=obs: o)
            action = int(agent.act(view, rng))
            obs_rows.append({k: v.astype(np.float16) for k, v in obs["observation"].items()})
            masks.append(np.packbits(obs["action_mask"].astype(bool)))
            actions.append(action)
            env.step(action)
    observations = {k: np.stack([o[k] for o in obs_rows]) for k in obs_rows[0]}
    return observations, np.stack(masks), np.array(actions)


def imitate(model: Any, spec: str, decisions: int, epochs: int = 4, batch_size: int = 128,
            seed: int = 0, game_options: dict[str, Any] | None = None, lr: float = 1e-3) -> float:
    """Warm-start the policy by behaviour cloning of agent ``spec`` (masked cross-entropy, Adam at
    ``lr``, a fresh optimizer state for PPO after); the last epoch's mean loss. The value head is
    left to PPO."""
    import torch
    obs, masks, actions = collect_decisions(spec, decisions, _players(model), seed, game_options)
    n_actions = model.action_space.n
    policy, rng = model.policy, np.random.default_rng(seed)
    ppo_optimizer = policy.optimizer
    policy.optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    loss_mean = float("nan")
    for _ in range(epochs):
        losses = []
        for idx in np.array_split(rng.permutation(len(actions)), max(1, len(actions) // batch_size)):
            batch = {k: torch.as_tensor(v[idx], dtype=torch.float32) for k, v in obs.items()}
            mask = np.unpackbits(masks[idx], axis=1, count=n_actions).astype(bool)
            dist = policy.get_distribution(batch, action_masks=mask)
            loss = -dist.log_prob(torch.as_tensor(actions[idx])).mean()
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            policy.optimizer.step()
            losses.append(float(loss.detach()))
        loss_mean = float(np.mean(losses))
    policy.optimizer = ppo_optimizer
    return loss_mean


def _players(model: Any) -> int:
    return int(model.observation_space["players"].shape[0])


# ================================================================================================
# settings of a new or resumed run
# ================================================================================================
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
        what = ", ".join(f"{_flag(k)} {changed[k]['was']!r} -> {changed[k]['now']!r}" for k in fixed)
        raise ValueError(f"--resume cannot change {what}: these settings shape the network and the "
                         f"game it reads; start a new run in another --out")
    return {**stored, **given}, changed


def _flag(name: str) -> str:
    return FLAGS.get(name, "--" + name.replace("_", "-"))


def _check_settings(s: dict[str, Any], timesteps: int, threads: int) -> None:
    from agents.networks import EXTRACTORS
    if not 2 <= s["players"] <= 5:
        raise ValueError(f"--players {s['players']}: the game is for 2 to 5 players")
    if timesteps < 1:
        raise ValueError(f"--timesteps {timesteps}: need at least 1")
    if s["reward"] not in REWARDS:
        raise ValueError(f"--reward {s['reward']!r}: allowed: {', '.join(REWARDS)}")
    if s["extractor"] not in EXTRACTORS:
        raise ValueError(f"--extractor {s['extractor']!r}: allowed: {', '.join(EXTRACTORS)}")
    if s["vec"] not in VEC_KINDS:
        raise ValueError(f"--vec {s['vec']!r}: allowed: {', '.join(VEC_KINDS)}")
    if s["n_steps"] < 2 or s["batch_size"] < 2:
        raise ValueError(f"--n-steps {s['n_steps']} / --batch-size {s['batch_size']}: need at least 2 each")
    for name in ("envs", "n_epochs", "eval_games", "keep_snapshots"):
        if s[name] < 1:
            raise ValueError(f"{_flag(name)} {s[name]}: need at least 1")
    for name in ("snapshot_every", "checkpoint_every", "eval_every"):
        if s[name] < 0:
            raise ValueError(f"{_flag(name)} {s[name]}: need 0 (never) or more")
    if not s["learning_rate"] > 0:
        raise ValueError(f"--lr {s['learning_rate']}: need a positive learning rate")
    if threads < 1:
        raise ValueError(f"--threads {threads}: need at least 1")
    parse_opponents(s["opponents"])


# ================================================================================================
# training
# ================================================================================================
def train(out: str | Path = DEFAULT_OUT, timesteps: int = 200_000, resume: bool = False,
          trust: bool = False, players: int | None = None, opponents: str | None = None,
          envs: int | None = None, vec: str | None = None, seed: int | None = None,
          reward: str | None = None, extractor: str | None = None, n_steps: int | None = None,
          batch_size: int | None = None, n_epochs: int | None = None,
          learning_rate: float | None = None, ent_coef: float | None = None,
          gamma: float | None = None, snapshot_every: int | None = None,
          keep_snapshots: int | None = None, checkpoint_every: int | None = None,
          eval_every: int | None = None, eval_games: int | None = None,
          gauntlet: tuple[str, ...] | list[str] | None = None,
          game_options: dict[str, Any] | None = None, threads: int = 1, verbose: int = 0,
          tensorboard: bool = True, imitate_spec: str | None = None, imitate_decisions: int = 8000,
          imitate_epochs: int = 4, callbacks: list | None = None) -> Path:
    """Train (or ``resume``) a MaskablePPO self-play learner in ``out``; the final model's path.

    A setting left ``None`` takes :data:`DEFAULTS` in a new run and the run's own value on resume
    (see the module docstring for changed settings). ``trust``: resume from a ``.zip`` checkpoint of
    an older version (it unpickles code). ``imitate_spec`` (e.g. ``"heuristic"``): a new run first
    clones ``imitate_decisions`` decisions of that agent (:func:`imitate`). ``callbacks``: more SB3
    callbacks. ``threads``: torch's thread count for this process (env workers use one each).

    Raises :class:`~training.stopping.TrainingStopped` after saving a checkpoint when a signal or a
    dead worker stopped the run."""
    import torch
    given = {k: v for k, v in dict(
        players=players, opponents=opponents, envs=envs, vec=vec, seed=seed, reward=reward,
        extractor=extractor, n_steps=n_steps, batch_size=batch_size, n_epochs=n_epochs,
        learning_rate=learning_rate, ent_coef=ent_coef, gamma=gamma, snapshot_every=snapshot_every,
        keep_snapshots=keep_snapshots, checkpoint_every=checkpoint_every, eval_every=eval_every,
        eval_games=eval_games, gauntlet=gauntlet and list(gauntlet),
        game_options=game_options).items() if v is not None}
    out = Path(out)
    found = checkpoints(out)
    if found and not resume:
        raise ValueError(f"--out {out} already holds a training run (checkpoints/); use --resume "
                         f"to continue it or another --out")
    if resume and not found:
        raise ValueError(f"--resume: no checkpoint in {out}/checkpoints to continue from")
    if resume and imitate_spec:
        raise ValueError("--imitate warms up a new run; a resumed run continues from its checkpoint")
    seconds_before, changed = 0.0, {}
    if resume:
        stored, seconds_before = stored_settings(out, found[-1], trust)
        settings, changed = resume_settings(stored, given)
    else:
        settings = {**DEFAULTS, **given}
    _check_settings(settings, timesteps, threads)
    torch.set_num_threads(threads)
    out.mkdir(parents=True, exist_ok=True)
    tb = str(out / "tb") if tensorboard and _has_tensorboard() else None
    venv = make_vec_env(settings["envs"], settings["vec"], settings["seed"], players=settings["players"],
                        reward=settings["reward"], opponents=settings["opponents"],
                        snapshot_dir=out / "snapshots", game_options=settings["game_options"])
    try:
        if resume:
            model = _resumed_model(out, found[-1], venv, settings, changed, timesteps, trust, tb,
                                   verbose)
        else:
            model, seconds_before = _new_model(venv, settings, tb, verbose, imitate_spec,
                                               imitate_decisions, imitate_epochs)
            (out / "config.json").write_text(json.dumps(
                {**settings, "timesteps": timesteps,
                 "imitate": imitate_spec and f"{imitate_spec}:{imitate_decisions}x{imitate_epochs}"},
                indent=2))
    except BaseException:
        close_vec_env(venv)
        raise
    return _learn(model, venv, out, settings, timesteps, seconds_before, resume, callbacks)


def _new_model(venv: Any, settings: dict[str, Any], tb: str | None, verbose: int,
               imitate_spec: str | None, imitate_decisions: int, imitate_epochs: int) -> tuple[Any, float]:
    """A fresh MaskablePPO (warm-started by imitation if asked) and the seconds spent so far."""
    from sb3_contrib import MaskablePPO

    from agents.networks import EXTRACTORS
    policy_kwargs = dict(features_extractor_class=EXTRACTORS[settings["extractor"]],
                         net_arch=dict(pi=[64], vf=[64]))
    model = MaskablePPO("MultiInputPolicy", venv, **{k: settings[k] for k in PPO_SETTINGS},
                        policy_kwargs=policy_kwargs, tensorboard_log=tb, seed=settings["seed"],
                        device="cpu", verbose=verbose)
    if not imitate_spec:
        return model, 0.0
    t0 = time.perf_counter()
    loss = imitate(model, imitate_spec, imitate_decisions, imitate_epochs, seed=settings["seed"],
                   game_options=settings["game_options"])
    seconds = time.perf_counter() - t0
    print(f"[imitate] {imitate_decisions} decisions of {imitate_spec}: loss {loss:.3f}, "
          f"{seconds:.0f} s", flush=True)
    return model, seconds


def _resumed_model(out: Path, checkpoint: Path, venv: Any, settings: dict[str, Any], changed: dict,
                   timesteps: int, trust: bool, tb: str | None, verbose: int) -> Any:
    """The model of ``checkpoint`` on ``venv`` with the run's settings; records the resume, drops
    evaluations past the checkpoint, and seeds the envs afresh (seed + steps done)."""
    model = load_model(checkpoint, venv, trust, tensorboard_log=tb, verbose=verbose,
                       seed=settings["seed"], **{k: settings[k] for k in PPO_SETTINGS})
    step = model.num_timesteps
    venv.seed(settings["seed"] + step)
    dropped = truncate_eval(out, step)
    (out / "config_resume.json").write_text(json.dumps(
        {**settings, "timesteps": timesteps, "resumed_from": checkpoint.name, "resumed_at": step,
         "changed": changed}, indent=2))
    applied = ", ".join(f"{_flag(k)} {v['now']!r} (was {v['was']!r})" for k, v in changed.items())
    print(f"[resume] {checkpoint.name} at step {step}"
          + (f"; dropped {dropped} eval.csv rows past it" if dropped else "")
          + (f"; applying {applied}" if applied else ""), flush=True)
    return model


def _learn(model: Any, venv: Any, out: Path, settings: dict[str, Any], timesteps: int,
           seconds_before: float, resume: bool, callbacks: list | None) -> Path:
    """Run PPO up to ``timesteps``; on a stop request or a dead worker, checkpoint the last
    completed rollout and raise :class:`TrainingStopped`; otherwise write the final model."""
    lost: list[str] = []
    with StopRequest() as stop:
        callback = _callback_class()(out, settings, seconds_before, stop)
        try:
            model.learn(total_timesteps=max(0, timesteps - model.num_timesteps),
                        callback=[callback, *(callbacks or [])], reset_num_timesteps=not resume,
                        tb_log_name="maskable_ppo")
        except WORKER_LOST:
            lost = dead_workers(venv, wait=2.0)
            if not lost:
                raise
        finally:
            close_vec_env(venv)
    if callback.stopped_at is not None or lost:  # (a signal after the last rollout changes nothing)
        reached = model.num_timesteps
        model.num_timesteps = callback.trained_steps
        path = save_checkpoint(model, out, callback.seconds(), settings)
        why = "; ".join(lost) or stop.name
        raise TrainingStopped(
            f"{why} at step {reached}: saved {path} (step {model.num_timesteps}, the last completed "
            f"rollout); continue with: mk-env train --resume --out {out}", path, stop.signum)
    callback.between_rollouts(("snapshot", "eval"))
    model.logger.dump(model.num_timesteps)
    save_checkpoint(model, out, callback.seconds(), settings)
    final = save_model(model, out / f"final_model{SUFFIX}", settings["players"],
                       settings["game_options"],
                       training={"settings": settings, "seconds": round(callback.seconds(), 1)})
    if read_eval(out):
        plot_learning_curve(out)
    return final


def _has_tensorboard() -> bool:
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        return False
    return True


# ================================================================================================
# the command line
# ================================================================================================
def _cmd(args: argparse.Namespace) -> int:
    if args.backend == "rllib":
        from .rllib_train import train_rllib
        result = train_rllib(players=args.players or DEFAULTS["players"], iterations=args.iterations,
                             out=args.out, address=args.address, seed=args.seed or 0,
                             reward=args.reward or DEFAULTS["reward"],
                             num_env_runners=args.envs or DEFAULTS["envs"])
        print(json.dumps(result, indent=1))
        return 0
    try:
        final = train(out=args.out, timesteps=args.timesteps, resume=args.resume, trust=args.trust,
                      players=args.players, opponents=args.opponents, envs=args.envs, vec=args.vec,
                      seed=args.seed, reward=args.reward, extractor=args.extractor,
                      n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
                      learning_rate=args.lr, ent_coef=args.ent_coef,
                      snapshot_every=args.snapshot_every, checkpoint_every=args.checkpoint_every,
                      eval_every=args.eval_every, eval_games=args.eval_games, threads=args.threads,
                      game_options={"board_side": args.board_side} if args.board_side else None,
                      verbose=args.verbose, **_imitation(args.imitate, args.imitate_epochs))
    except TrainingStopped as e:
        print(f"stopped: {e}")
        return e.exit_code
    print(f"final model: {final} (use it as the agent spec ppo:{final})")
    return 0


def _imitation(text: str | None, epochs: int) -> dict[str, Any]:
    """``--imitate SPEC:DECISIONS`` -> train() keywords."""
    if not text:
        return {}
    spec, _, count = text.rpartition(":")
    if not spec or not count.isdigit() or int(count) < 1:
        raise ValueError(f"--imitate {text!r}: give AGENT:DECISIONS, e.g. heuristic:8000")
    return {"imitate_spec": spec, "imitate_decisions": int(count), "imitate_epochs": epochs}


def register(subparsers) -> None:
    d = DEFAULTS
    p = subparsers.add_parser(
        "train", help="MaskablePPO self-play training (Stable-Baselines3; Ray RLlib with --backend)",
        description="Train a MaskablePPO learner on the single-seat view against an opponent pool "
                    "(snapshots of itself, its latest policy, fixed baselines), evaluate it against "
                    "random and heuristic, write checkpoints and DIR/final_model.safetensors. "
                    "Ctrl-C saves a checkpoint; --resume continues the run with its own settings "
                    "(an option given again is applied and recorded).")
    p.add_argument("--players", type=cli.player_count, default=None,
                   help=f"players per game, 2-5 (default {d['players']})")
    p.add_argument("--timesteps", type=cli.positive_int, default=200_000,
                   help="total learner steps (with --resume: the total to reach; default 200000)")
    p.add_argument("--opponents", default=None,
                   help=f"opponent pool, SOURCE:WEIGHT entries; sources: latest, snapshots or an agent "
                        f"spec (default {DEFAULT_OPPONENTS})")
    p.add_argument("--envs", type=cli.positive_int, default=None, help=f"parallel envs (default {d['envs']})")
    p.add_argument("--vec", choices=VEC_KINDS, default=None,
                   help=f"vectorised env kind (default {DEFAULT_VEC}, measured faster on 2 cores)")
    p.add_argument("--out", type=cli.out_dir, default=DEFAULT_OUT,
                   help=f"output folder (default {DEFAULT_OUT})")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --out")
    p.add_argument("--trust", action="store_true",
                   help="with --resume: allow a .zip checkpoint of an older version (unpickles code; "
                        "only for files you trust)")
    p.add_argument("--seed", type=cli.seed, default=None, help=f"seed (default {d['seed']})")
    p.add_argument("--reward", choices=REWARDS, default=None,
                   help="reward: win, margin or dense (honour changes + win; default)")
    p.add_argument("--extractor", default=None, help="feature extractor: cnn (default) or flat")
    p.add_argument("--n-steps", type=cli.positive_int, default=None,
                   help=f"steps per env per update (default {d['n_steps']})")
    p.add_argument("--batch-size", type=cli.positive_int, default=None,
                   help=f"minibatch size (default {d['batch_size']})")
    p.add_argument("--n-epochs", type=cli.positive_int, default=None,
                   help=f"epochs per update (default {d['n_epochs']})")
    p.add_argument("--lr", type=cli.positive_float, default=None,
                   help=f"learning rate (default {d['learning_rate']})")
    p.add_argument("--ent-coef", type=cli.non_negative_float, default=None,
                   help=f"entropy bonus (default {d['ent_coef']})")
    p.add_argument("--snapshot-every", type=cli.non_negative_int, default=None,
                   help=f"steps between snapshots for the opponent pool (default {d['snapshot_every']})")
    p.add_argument("--checkpoint-every", type=cli.non_negative_int, default=None,
                   help=f"steps between checkpoints (default {d['checkpoint_every']})")
    p.add_argument("--eval-every", type=cli.non_negative_int, default=None,
                   help=f"steps between gauntlet evaluations, 0 = never (default {d['eval_every']})")
    p.add_argument("--eval-games", type=cli.positive_int, default=None,
                   help=f"games per gauntlet opponent per evaluation (default {d['eval_games']})")
    p.add_argument("--imitate", default=None, metavar="AGENT:DECISIONS",
                   help="warm start of a new run: clone this many decisions of an agent "
                        "(e.g. heuristic:8000) before self-play")
    p.add_argument("--imitate-epochs", type=cli.positive_int, default=4,
                   help="epochs of the warm start (default 4)")
    p.add_argument("--threads", type=cli.positive_int, default=1,
                   help="torch threads of the main process (default 1)")
    p.add_argument("--board-side", default=None, help="board side (default: by player count)")
    p.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3 (default) or rllib (Ray RLlib, see training/rllib_train.py)")
    p.add_argument("--iterations", type=cli.positive_int, default=10, help="rllib: training iterations")
    p.add_argument("--address", default=None, help="rllib: Ray cluster address (default: local Ray)")
    p.add_argument("--verbose", type=cli.non_negative_int, default=0, help="SB3 verbosity (default 0)")
    p.set_defaults(func=_cmd)
