"""``mk-env train``: MaskablePPO (sb3-contrib) self-play on the single-seat view.

The learner plays one seat (drawn at each reset) of a ``--players`` game; the other seats are drawn
per episode from an :class:`~training.selfplay.OpponentPool` (``--opponents``: frozen snapshots of
the learner saved every ``--snapshot-every`` steps, the latest snapshot, fixed baselines). Every
``--eval-every`` steps the learner plays a fixed gauntlet (random, heuristic) with seat rotation
(:mod:`training.evaluate`); the win rates go to TensorBoard (``DIR/tb``, tags ``eval/win_rate_*``)
and to ``DIR/eval.csv``. Checkpoints (``DIR/checkpoints/model_<steps>.zip``) let ``--resume``
continue the step count; the end result is ``DIR/final_model.zip``, which ``ppo:DIR/final_model.zip``
loads for ``mk-env play`` and ``mk-env tournament``.

Files in ``DIR``: ``config.json`` (the arguments), ``eval.csv``, ``learning_curve.png``, ``tb/``,
``snapshots/``, ``checkpoints/``, ``final_model.zip``.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from .selfplay import DEFAULT_OPPONENTS, OpponentPool, SelfPlayWrapper, parse_opponents, snapshot_step

DEFAULT_OUT = "runs/train"
VEC_KINDS = ("dummy", "subproc")
DEFAULT_VEC = "dummy"  # measured faster on 2 cores: docs/training.md
REWARDS = ("win", "margin", "dense")
EVAL_FIELDS = ("timesteps", "seconds", "opponent", "games", "wins", "win_rate", "mean_honour",
               "opponent_mean_honour")


# ================================================================================================
# environments
# ================================================================================================
def make_env_fn(players: int, reward: str, opponents: str | dict, snapshot_dir: str | Path,
                game_options: dict[str, Any] | None = None):
    """A picklable factory of one self-play single-seat env (a Monitor inside, for episode stats)."""
    def _init():
        from stable_baselines3.common.monitor import Monitor
        from mk_env.env import single_seat_env
        env = Monitor(single_seat_env(players, seat=None, reward=reward, **(game_options or {})))
        return SelfPlayWrapper(env, OpponentPool(opponents, snapshot_dir))
    return _init


def make_vec_env(n_envs: int, vec: str, seed: int, **env_kwargs: Any):
    """``n_envs`` self-play envs in a DummyVecEnv (one process) or SubprocVecEnv (one each)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    if vec not in VEC_KINDS:
        raise ValueError(f"--vec {vec!r}: allowed: {', '.join(VEC_KINDS)}")
    fns = [make_env_fn(**env_kwargs) for _ in range(n_envs)]
    venv = DummyVecEnv(fns) if vec == "dummy" else SubprocVecEnv(fns)
    venv.seed(seed)
    return venv


# ================================================================================================
# the callback: snapshots, checkpoints, evaluation
# ================================================================================================
def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Saves snapshots for the pool and checkpoints; evaluates against the gauntlet."""

        def __init__(self, out: Path, snapshot_every: int, checkpoint_every: int, eval_every: int,
                     eval_games: int, gauntlet: list[str], players: int, keep_snapshots: int,
                     seconds_before: float, game_options: dict[str, Any] | None = None):
            super().__init__()
            self.out, self.players, self.gauntlet = out, players, gauntlet
            self.every = {"snapshot": snapshot_every, "checkpoint": checkpoint_every,
                          "eval": eval_every}
            self.eval_games, self.keep_snapshots = eval_games, keep_snapshots
            self.seconds_before, self.game_options = seconds_before, game_options
            self.next: dict[str, int] = {}
            self.t0 = time.perf_counter()

        def seconds(self) -> float:
            return self.seconds_before + time.perf_counter() - self.t0

        def _on_training_start(self) -> None:
            self.t0 = time.perf_counter()
            n = self.num_timesteps
            self.next = {k: (n // e + 1) * e if e > 0 else float("inf") for k, e in self.every.items()}
            if self.every["eval"] > 0 and not read_eval(self.out):
                self.evaluate()
            if self.every["snapshot"] > 0 and not list((self.out / "snapshots").glob("*.zip")):
                self.snapshot()

        def _on_step(self) -> bool:
            n = self.num_timesteps
            for kind, action in (("snapshot", self.snapshot), ("checkpoint", self.checkpoint),
                                 ("eval", self.evaluate)):
                if n >= self.next[kind]:
                    action()
                    self.next[kind] = (n // self.every[kind] + 1) * self.every[kind]
            return True

        def snapshot(self) -> None:
            folder = self.out / "snapshots"
            folder.mkdir(parents=True, exist_ok=True)
            save_slim(self.model, folder / f"snapshot_{self.num_timesteps}.zip")
            snaps = sorted(folder.glob("snapshot_*.zip"), key=snapshot_step)
            for old in snaps[:-self.keep_snapshots]:
                old.unlink()

        def checkpoint(self) -> None:
            save_checkpoint(self.model, self.out, self.seconds())

        def evaluate(self) -> None:
            from .evaluate import gauntlet
            results = gauntlet(self.model, self.gauntlet, self.eval_games, self.players,
                               seed=10_000, game_options=self.game_options)
            rows = []
            for spec, r in results.items():
                self.logger.record(f"eval/win_rate_{spec}", r["win_rate"])
                self.logger.record(f"eval/honour_vs_{spec}", r["mean_honour"])
                rows.append({"timesteps": self.num_timesteps, "seconds": round(self.seconds(), 1),
                             **{k: r[k] for k in EVAL_FIELDS[2:]}})
            append_eval(self.out, rows)
            text = ", ".join(f"{r['opponent']} {r['win_rate']:.0%}" for r in rows)
            print(f"[eval] {self.num_timesteps} steps, {self.seconds():.0f} s: {text}", flush=True)

    return SelfPlayCallback


def save_checkpoint(model: Any, out: Path, seconds: float, keep: int = 2) -> Path:
    """``DIR/checkpoints/model_<steps>.zip`` plus the wall time so far; older ones beyond ``keep`` go."""
    folder = out / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"model_{model.num_timesteps}.zip"
    model.save(path)
    (folder / f"model_{model.num_timesteps}.json").write_text(json.dumps({"seconds": seconds}))
    for old in checkpoints(out)[:-keep]:
        old.unlink()
        old.with_suffix(".json").unlink(missing_ok=True)
    return path


def checkpoints(out: Path) -> list[Path]:
    """Saved checkpoints, oldest first."""
    folder = Path(out) / "checkpoints"
    return sorted(folder.glob("model_*.zip"), key=snapshot_step) if folder.is_dir() else []


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


def save_slim(model: Any, path: str | Path) -> Path:
    """Save ``model`` without the optimizer's moments (a third of the size; it acts the same, and a
    resumed training would only restart Adam's running averages)."""
    policy = model.policy
    optimizer = policy.optimizer
    policy.optimizer = optimizer.__class__(policy.parameters(), **optimizer.defaults)
    try:
        model.save(str(path))
    finally:
        policy.optimizer = optimizer
    return Path(path)


def slim_copy(src: str | Path, dst: str | Path) -> Path:
    """A slim copy (:func:`save_slim`) of a saved model, e.g. the shipped ``ppo:default``."""
    from sb3_contrib import MaskablePPO
    return save_slim(MaskablePPO.load(str(src), device="cpu"), dst)


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
# training
# ================================================================================================
def train(out: str | Path = DEFAULT_OUT, players: int = 2, timesteps: int = 200_000,
          opponents: str = DEFAULT_OPPONENTS, envs: int = 2, vec: str = DEFAULT_VEC,
          resume: bool = False, seed: int = 0, reward: str = "dense", extractor: str = "cnn",
          n_steps: int = 512, batch_size: int = 256, n_epochs: int = 4, learning_rate: float = 3e-4,
          ent_coef: float = 0.01, gamma: float = 0.99, snapshot_every: int = 20_000,
          keep_snapshots: int = 10, checkpoint_every: int = 20_000, eval_every: int = 10_000,
          eval_games: int = 40, gauntlet: tuple[str, ...] = ("random", "heuristic"),
          threads: int = 1, game_options: dict[str, Any] | None = None, verbose: int = 0,
          tensorboard: bool = True, imitate_spec: str | None = None,
          imitate_decisions: int = 8000, imitate_epochs: int = 4) -> Path:
    """Train (or ``resume``) a MaskablePPO self-play learner in ``out``; the final model's path.

    ``imitate_spec`` (e.g. ``"heuristic"``): a new run first clones ``imitate_decisions`` decisions
    of that agent (:func:`imitate`), then PPO self-play goes on from there."""
    import torch
    from sb3_contrib import MaskablePPO

    from agents.networks import EXTRACTORS

    _check_args(players, timesteps, envs, reward, extractor, n_steps, batch_size, threads)
    parse_opponents(opponents)
    torch.set_num_threads(threads)
    out = Path(out)
    found = checkpoints(out)
    if found and not resume:
        raise ValueError(f"--out {out} already holds a training run (checkpoints/); use --resume "
                         f"to continue it or another --out")
    if resume and not found:
        raise ValueError(f"--resume: no checkpoint in {out}/checkpoints to continue from")
    out.mkdir(parents=True, exist_ok=True)
    config = dict(players=players, timesteps=timesteps, opponents=opponents, envs=envs, vec=vec,
                  seed=seed, reward=reward, extractor=extractor, n_steps=n_steps,
                  batch_size=batch_size, n_epochs=n_epochs, learning_rate=learning_rate,
                  ent_coef=ent_coef, gamma=gamma, game_options=game_options or {},
                  imitate=imitate_spec and f"{imitate_spec}:{imitate_decisions}x{imitate_epochs}")
    (out / ("config_resume.json" if resume else "config.json")).write_text(json.dumps(config, indent=2))
    venv = make_vec_env(envs, vec, seed, players=players, reward=reward, opponents=opponents,
                        snapshot_dir=out / "snapshots", game_options=game_options)
    tb = str(out / "tb") if tensorboard and _has_tensorboard() else None
    seconds_before = 0.0
    if resume:
        model = MaskablePPO.load(str(found[-1]), env=venv, device="cpu", tensorboard_log=tb)
        meta = found[-1].with_suffix(".json")
        seconds_before = json.loads(meta.read_text())["seconds"] if meta.exists() else 0.0
    else:
        policy_kwargs = dict(features_extractor_class=EXTRACTORS[extractor],
                             net_arch=dict(pi=[64], vf=[64]))
        model = MaskablePPO("MultiInputPolicy", venv, n_steps=n_steps, batch_size=batch_size,
                            n_epochs=n_epochs, learning_rate=learning_rate, ent_coef=ent_coef,
                            gamma=gamma, policy_kwargs=policy_kwargs, tensorboard_log=tb,
                            seed=seed, device="cpu", verbose=verbose)
        if imitate_spec:
            t0 = time.perf_counter()
            loss = imitate(model, imitate_spec, imitate_decisions, imitate_epochs, seed=seed,
                           game_options=game_options)
            seconds_before = time.perf_counter() - t0
            print(f"[imitate] {imitate_decisions} decisions of {imitate_spec}: loss {loss:.3f}, "
                  f"{seconds_before:.0f} s", flush=True)
    callback = _callback_class()(out, snapshot_every, checkpoint_every, eval_every, eval_games,
                                 list(gauntlet), players, keep_snapshots, seconds_before,
                                 game_options)
    remaining = max(0, timesteps - model.num_timesteps)
    try:
        model.learn(total_timesteps=remaining, callback=callback, reset_num_timesteps=not resume,
                    tb_log_name="maskable_ppo")
    finally:
        venv.close()
    save_checkpoint(model, out, callback.seconds())
    final = out / "final_model.zip"
    model.save(final)
    if read_eval(out):
        plot_learning_curve(out)
    return final


def _check_args(players: int, timesteps: int, envs: int, reward: str, extractor: str, n_steps: int,
                batch_size: int, threads: int) -> None:
    from agents.networks import EXTRACTORS
    if not 2 <= players <= 5:
        raise ValueError(f"--players {players}: the game is for 2 to 5 players")
    if timesteps < 1:
        raise ValueError(f"--timesteps {timesteps}: need at least 1")
    if envs < 1:
        raise ValueError(f"--envs {envs}: need at least 1 env")
    if reward not in REWARDS:
        raise ValueError(f"--reward {reward!r}: allowed: {', '.join(REWARDS)}")
    if extractor not in EXTRACTORS:
        raise ValueError(f"--extractor {extractor!r}: allowed: {', '.join(EXTRACTORS)}")
    if n_steps < 2 or batch_size < 2:
        raise ValueError(f"--n-steps {n_steps} / --batch-size {batch_size}: need at least 2 each")
    if threads < 1:
        raise ValueError(f"--threads {threads}: need at least 1")


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
        try:
            result = train_rllib(players=args.players, iterations=args.iterations,
                                 out=args.out, address=args.address, seed=args.seed,
                                 reward=args.reward, num_env_runners=args.envs)
        except (ValueError, ImportError) as e:
            print(f"error: {e}")
            return 2
        print(json.dumps(result, indent=1))
        return 0
    options = {"board_side": args.board_side} if args.board_side else None
    try:
        final = train(out=args.out, players=args.players, timesteps=args.timesteps,
                      opponents=args.opponents, envs=args.envs, vec=args.vec, resume=args.resume,
                      seed=args.seed, reward=args.reward, extractor=args.extractor,
                      n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
                      learning_rate=args.lr, ent_coef=args.ent_coef,
                      snapshot_every=args.snapshot_every, checkpoint_every=args.checkpoint_every,
                      eval_every=args.eval_every, eval_games=args.eval_games, threads=args.threads,
                      game_options=options, verbose=args.verbose,
                      **_imitation(args.imitate, args.imitate_epochs))
    except ValueError as e:
        print(f"error: {e}")
        return 2
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
    p = subparsers.add_parser(
        "train", help="MaskablePPO self-play training (Stable-Baselines3; Ray RLlib with --backend)",
        description="Train a MaskablePPO learner on the single-seat view against an opponent pool "
                    "(snapshots of itself, its latest policy, fixed baselines), evaluate it against "
                    "random and heuristic, write checkpoints and DIR/final_model.zip.")
    p.add_argument("--players", type=int, default=2, help="players per game, 2-5 (default 2)")
    p.add_argument("--timesteps", type=int, default=200_000,
                   help="total learner steps (with --resume: the total to reach; default 200000)")
    p.add_argument("--opponents", default=DEFAULT_OPPONENTS,
                   help=f"opponent pool, SOURCE:WEIGHT entries; sources: latest, snapshots or an agent "
                        f"spec (default {DEFAULT_OPPONENTS})")
    p.add_argument("--envs", type=int, default=2, help="parallel envs (default 2)")
    p.add_argument("--vec", choices=VEC_KINDS, default=DEFAULT_VEC,
                   help=f"vectorised env kind (default {DEFAULT_VEC}, measured faster on 2 cores)")
    p.add_argument("--out", default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --out")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--reward", choices=REWARDS, default="dense",
                   help="reward: win, margin or dense (honour changes + win; default)")
    p.add_argument("--extractor", default="cnn", help="feature extractor: cnn (default) or flat")
    p.add_argument("--n-steps", type=int, default=512, help="steps per env per update (default 512)")
    p.add_argument("--batch-size", type=int, default=256, help="minibatch size (default 256)")
    p.add_argument("--n-epochs", type=int, default=4, help="epochs per update (default 4)")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    p.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus (default 0.01)")
    p.add_argument("--snapshot-every", type=int, default=20_000,
                   help="steps between snapshots for the opponent pool (default 20000)")
    p.add_argument("--checkpoint-every", type=int, default=20_000,
                   help="steps between checkpoints (default 20000)")
    p.add_argument("--eval-every", type=int, default=10_000,
                   help="steps between gauntlet evaluations, 0 = never (default 10000)")
    p.add_argument("--eval-games", type=int, default=40,
                   help="games per gauntlet opponent per evaluation (default 40)")
    p.add_argument("--imitate", default=None, metavar="AGENT:DECISIONS",
                   help="warm start of a new run: clone this many decisions of an agent "
                        "(e.g. heuristic:8000) before self-play")
    p.add_argument("--imitate-epochs", type=int, default=4, help="epochs of the warm start (default 4)")
    p.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    p.add_argument("--board-side", default=None, help="board side (default: by player count)")
    p.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3 (default) or rllib (Ray RLlib, see training/rllib_train.py)")
    p.add_argument("--iterations", type=int, default=10, help="rllib: training iterations")
    p.add_argument("--address", default=None, help="rllib: Ray cluster address (default: local Ray)")
    p.add_argument("--verbose", type=int, default=0, help="SB3 verbosity (default 0)")
    p.set_defaults(func=_cmd)

