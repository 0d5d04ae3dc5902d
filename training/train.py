"""``mk-env train``: MaskablePPO (sb3-contrib) self-play on the single-seat view.

The learner plays one seat (drawn at each reset) of a ``--players`` game; the other seats are drawn
per episode from an :class:`~training.selfplay.OpponentPool` (``--opponents``: frozen snapshots of
the learner saved every ``--snapshot-every`` steps, the latest snapshot, fixed baselines). Every
``--eval-every`` steps the learner plays a fixed gauntlet (random, heuristic) with seat rotation
(:mod:`training.evaluate`); the win rates go to TensorBoard (``DIR/tb``, tags ``eval/win_rate_*``)
and to ``DIR/eval.csv``. Snapshots, checkpoints and evaluations happen between rollouts, so each
one's step count is the exact number of steps its weights were trained on.

``--game cave_troll`` trains on Cave Troll's single-seat view (:mod:`mk_env.cave_troll.env`) with the
``flat`` extractor (an MLP over the whole observation; ``cnn`` reads the first game's board grid); its
gauntlet is random and Cave Troll's heuristic, and its model files name the game and Cave Troll's layout
fingerprint, so ``ppo:PATH`` plays Cave Troll with it and refuses the other game.

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

import json
import time
from pathlib import Path
from typing import Any

from agents.policy_file import SUFFIX, load_model, save_model
from mk_env.games import DEFAULT_GAME

from .imitation import imitate
from .run_files import checkpoints  # noqa: F401  (training.train.checkpoints, as before)
from .run_files import plot_learning_curve, read_eval, run_checkpoints, save_checkpoint, truncate_eval
from .selfplay import OpponentPool, SelfPlayWrapper
from .stopping import WORKER_LOST, StopRequest, TrainingStopped, close_vec_env, dead_workers
from .train_callback import selfplay_callback_class
from .train_settings import (DEFAULT_OUT, PPO_SETTINGS, VEC_KINDS, check_settings, flag,
                             new_run_settings, resume_settings, stored_settings)


def make_env_fn(players: int, reward: str, opponents: str | dict, snapshot_dir: str | Path,
                game_options: dict[str, Any] | None = None, worker: bool = False,
                game: str = DEFAULT_GAME):
    """A picklable factory of one self-play single-seat env of suite game ``game`` (a Monitor inside,
    for episode stats).

    ``worker``: the env lives in a worker process of its own, which then ignores SIGINT (Ctrl-C
    reaches the whole process group; the main process stops the run and closes the workers) and runs
    torch on one thread."""
    def _init():
        from stable_baselines3.common.monitor import Monitor

        from agents.policy_description import env_module
        single_seat_env = env_module(game).single_seat_env
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


def train(out: str | Path = DEFAULT_OUT, timesteps: int = 200_000, resume: bool = False,
          trust: bool = False, game: str | None = None, players: int | None = None, opponents: str | None = None,
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

    ``game``: the suite game (:mod:`mk_env.games`; default the first game; Cave Troll's extractor is
    ``flat``). A setting left ``None`` takes :data:`~training.train_settings.DEFAULTS` in a new run and the
    run's own value on resume (see the module docstring for changed settings). ``trust``: resume from a
    ``.zip`` checkpoint of an older version (it unpickles code). ``imitate_spec`` (e.g. ``"heuristic"``): a
    new run first clones ``imitate_decisions`` decisions of that agent (:func:`imitate`). ``callbacks``: more
    SB3 callbacks. ``threads``: torch's thread count for this process (env workers use one each).

    Raises :class:`~training.stopping.TrainingStopped` after saving a checkpoint when a signal or a
    dead worker stopped the run."""
    import torch
    given = {k: v for k, v in dict(
        game=game, players=players, opponents=opponents, envs=envs, vec=vec, seed=seed, reward=reward,
        extractor=extractor, n_steps=n_steps, batch_size=batch_size, n_epochs=n_epochs,
        learning_rate=learning_rate, ent_coef=ent_coef, gamma=gamma, snapshot_every=snapshot_every,
        keep_snapshots=keep_snapshots, checkpoint_every=checkpoint_every, eval_every=eval_every,
        eval_games=eval_games, gauntlet=gauntlet and list(gauntlet),
        game_options=game_options).items() if v is not None}
    out = Path(out)
    found = run_checkpoints(out, resume, bool(imitate_spec))
    seconds_before, changed = 0.0, {}
    if resume:
        stored, seconds_before = stored_settings(out, found[-1], trust)
        settings, changed = resume_settings(stored, given)
    else:
        settings = new_run_settings(given)
    check_settings(settings, timesteps, threads)
    torch.set_num_threads(threads)
    out.mkdir(parents=True, exist_ok=True)
    tb = str(out / "tb") if tensorboard and _has_tensorboard() else None
    venv = make_vec_env(settings["envs"], settings["vec"], settings["seed"], players=settings["players"],
                        reward=settings["reward"], opponents=settings["opponents"],
                        snapshot_dir=out / "snapshots", game_options=settings["game_options"],
                        game=settings["game"])
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
                   game_options=settings["game_options"], game=settings["game"])
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
    applied = ", ".join(f"{flag(k)} {v['now']!r} (was {v['was']!r})" for k, v in changed.items())
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
        callback = selfplay_callback_class()(out, settings, seconds_before, stop)
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
                       training={"settings": settings, "seconds": round(callback.seconds(), 1)},
                       game=settings["game"])
    if read_eval(out):
        plot_learning_curve(out, title=f"MaskablePPO self-play, {settings['game']}, "
                                       f"{settings['players']} players")
    return final


def _has_tensorboard() -> bool:
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        return False
    return True
