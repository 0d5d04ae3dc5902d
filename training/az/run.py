"""The AlphaZero-style loop (expert iteration): warm start, then iterations of self-play with the best
network guiding the search, training the latest network on the replay buffer, gating it against the best,
and evaluating the best against the gauntlet. Files: :mod:`training.az.files`; settings:
:mod:`training.az.settings`; docs/training.md, "AlphaZero-style".

One iteration:

1. **Self-play**: ``games`` games in lockstep (:func:`training.az.selfplay.play_lockstep`), every seat
   searched by the best network with ``simulations`` simulations, Dirichlet noise at the roots, the first
   ``temperature_moves`` decisions sampled from the visits; every searched position goes to the buffer.
2. **Training**: ``train_steps`` Adam steps of ``batch_size`` positions on the latest network.
3. **Gating** (every ``gate_every`` iterations): the latest network against the best, both searching,
   ``gate_games`` seat-rotated games; at a win rate >= ``gate_threshold`` the latest becomes the best.
   ``gate_every = 0``: no gating, the latest network is the best after every iteration.
4. **Evaluation** (every ``eval_every`` iterations): ``aznet:BEST`` (and ``az:BEST?N`` with
   ``eval_simulations``) against each gauntlet agent, seat-rotated, seeds 10000 + i.
5. **Checkpoint**: buffer, best, then the checkpoint (the commit point).
"""

from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.az import AZAgent, AZNetAgent, NetEvaluator
from agents.az_net import PolicyValueNet, new_net, save_net
from agents.registry import make_agent
from mk_env.games import make_game
from training.play import run_game
from training.ratings import wilson_interval
from training.run_files import append_eval, plot_learning_curve, truncate_eval
from training.stopping import StopRequest, TrainingStopped

from .buffer import ReplayBuffer
from .files import (append_gating, checkpoints, load_checkpoint, read_run_config, save_checkpoint,
                    write_json)
from .learner import make_optimizer, set_lr, train_steps, warm_positions
from .selfplay import SearchSettings, play_lockstep
from .settings import AZSettings

EVAL_SEED = 10_000
GATE_SEED = 20_000


class AZRun:
    """One run's state: networks, optimizer, buffer, counters, files."""

    def __init__(self, out: Path, settings: AZSettings, log: Any = print):
        self.out, self.settings, self.log = Path(out), settings, log
        self.game = make_game(settings.game, settings.players, **(settings.game_options or {}))
        self.counters = {"iteration": 0, "positions": 0, "games": 0, "seconds": 0.0, "cpu_seconds": 0.0,
                         "generation": 0}
        self._cpu_start = time.process_time()
        self.net = self.new_net()
        self.optimizer = make_optimizer(self.net, settings.learning_rate)
        self.best = copy.deepcopy(self.net)
        self.buffer = ReplayBuffer(settings.buffer, self.net.shape.observation_size)
        self._tb: Any = None
        self._gating: dict[str, Any] | None = None  # this iteration's gating row, written with its checkpoint
        self.stop: StopRequest | None = None  # set while train() runs: SIGINT/SIGTERM stop at the next step

    def new_net(self) -> PolicyValueNet:
        """A freshly initialised network of this run's shape."""
        s = self.settings
        return new_net(self.game, s.hidden, s.layers, s.action_dim, s.action_features)

    # -- start / resume -----------------------------------------------------------------------------
    @classmethod
    def start(cls, out: Path, settings: AZSettings, log: Any = print) -> AZRun:
        if checkpoints(Path(out)):
            raise ValueError(f"{out} already holds an az run; continue it with --resume or choose another --out")
        run = cls(out, settings.check(), log)
        run.out.mkdir(parents=True, exist_ok=True)
        write_json(run.out / "config.json", {"algo": "az", "settings": settings.to_json()})
        torch.manual_seed(settings.seed)
        run.net = run.new_net()
        run.optimizer = make_optimizer(run.net, settings.learning_rate)
        run.warm_start()
        return run

    @classmethod
    def resume(cls, out: Path, changes: dict[str, Any], log: Any = print) -> AZRun:
        out = Path(out)
        config = read_run_config(out)
        found = checkpoints(out)
        if not found:
            raise ValueError(f"--resume: {out} has no checkpoint yet (checkpoints/az_*.safetensors)")
        net, optimizer, training = load_checkpoint(found[-1])
        counters = training["counters"]
        saved = AZSettings.from_json(training["settings"], str(found[-1]))
        settings, record = saved.changed(changes)
        run = cls(out, settings, log)
        run.net, run.optimizer, run.counters = net, optimizer, dict(counters)
        set_lr(run.optimizer, settings.learning_rate)
        best = out / "best.safetensors"
        run.best = AZNetAgent(best).net if best.is_file() else copy.deepcopy(net)
        if (out / "buffer.npz").is_file():
            run.buffer = ReplayBuffer.load(out / "buffer.npz", settings.buffer)
        dropped = truncate_eval(out, int(counters["positions"]))
        log(f"[resume] {found[-1].name}: iteration {counters['iteration']}, {counters['positions']} positions, "
            f"{len(run.buffer)} in the buffer" + (f"; {dropped} evaluation rows past it dropped" if dropped else ""))
        for name, change in record.items():
            log(f"[resume] applying {name} = {change['now']!r} (was {change['was']!r})")
        config.setdefault("resumes", []).append({"iteration": counters["iteration"], "changed": record})
        config["settings"] = settings.to_json()
        write_json(out / "config.json", config)
        return run

    def warm_start(self) -> None:
        """Distil ``warm_agent``'s play into the network (positions stay in the buffer); the result is the
        first best network (generation 0)."""
        s = self.settings
        if s.warm_agent and s.warm_games:
            t0 = time.perf_counter()
            positions = warm_positions(self.game, s.warm_agent, s.warm_games, s.seed + 1_000_000, s.warm_workers)
            self.buffer.extend(positions)
            losses = train_steps(self.net, self.optimizer, self.buffer, s.warm_steps, s.batch_size,
                                 np.random.default_rng([s.seed, 7]))
            self.counters["seconds"] += time.perf_counter() - t0
            self.log(f"[warm start] {len(positions)} positions of {s.warm_games} {s.warm_agent} games, "
                     f"{s.warm_steps} steps: policy loss {losses['policy_loss']:.3f}, value loss "
                     f"{losses['value_loss']:.3f} ({time.perf_counter() - t0:.0f} s)")
        self.best = copy.deepcopy(self.net)

    # -- the loop -----------------------------------------------------------------------------------
    def train(self) -> Path:
        """Iterate until ``positions`` self-play positions or ``minutes``; the best network's file."""
        s, started = self.settings, time.perf_counter()
        with StopRequest() as self.stop:
            while self.counters["positions"] < s.positions:
                if s.minutes is not None and time.perf_counter() - started >= 60 * s.minutes:
                    self.log(f"[stop] {s.minutes} minutes reached at iteration {self.counters['iteration']}; "
                             f"continue with: mk-env train --resume --out {self.out}")
                    break
                self.iteration()
                if self.stop.signum:
                    break
        self.finish()
        if self.stop.signum:
            last = checkpoints(self.out)
            raise TrainingStopped(f"{self.stop.name} in iteration {self.counters['iteration']}: "
                                  f"{last[-1].name if last else 'no checkpoint'} stands; continue with: "
                                  f"mk-env train --resume --out {self.out}", last[-1] if last else None,
                                  self.stop.signum)
        return self.out / "best.safetensors"

    def iteration(self) -> None:
        s, c = self.settings, self.counters
        t0 = time.perf_counter()
        c["iteration"] += 1
        rng = np.random.default_rng([s.seed, c["iteration"]])
        seeds = [int(x) for x in rng.integers(2 ** 31, size=s.games)]
        search = SearchSettings(s.simulations, s.temperature_moves, (s.dirichlet_alpha, s.dirichlet_frac))
        played = play_lockstep(self.game, [NetEvaluator(self.best, self.game)],
                               [[0] * s.players for _ in seeds], seeds, search, rng, stop=self.stopping)
        if self.stopping():  # the iteration is dropped: the last checkpoint stands
            return
        self.buffer.extend(played.positions)
        c["positions"] += len(played.positions)
        c["games"] += s.games
        t_play = time.perf_counter() - t0
        losses = train_steps(self.net, self.optimizer, self.buffer, s.train_steps, s.batch_size, rng)
        c["seconds"] += time.perf_counter() - t0
        self.scalar("selfplay/positions_per_s", len(played.positions) / max(t_play, 1e-9))
        self.scalar("selfplay/leaves_per_s", played.leaves / max(t_play, 1e-9))
        for name, value in losses.items():
            self.scalar(f"loss/{name}", value)
        self.log(f"[iteration {c['iteration']}] {s.games} games, {len(played.positions)} positions "
                 f"({t_play:.0f} s, {played.leaves / max(t_play, 1e-9):.0f} leaves/s); policy loss "
                 f"{losses['policy_loss']:.3f}, value loss {losses['value_loss']:.3f}; run so far "
                 f"{c['seconds'] / 60:.1f} min wall, {self.cpu_seconds() / 60:.1f} min CPU")
        t1 = time.perf_counter()
        if s.gate_every == 0:
            self.best = copy.deepcopy(self.net)
        elif c["iteration"] % s.gate_every == 0:
            self.gate()
        if s.eval_every and c["iteration"] % s.eval_every == 0:
            self.evaluate()
        c["seconds"] += time.perf_counter() - t1
        if not self.stopping():
            self.save()

    def gate(self) -> None:
        """The latest network against the best, both searching; the winner is the best."""
        s, c = self.settings, self.counters
        n = s.players
        seats = [[0 if seat == i % n else 1 for seat in range(n)] for i in range(s.gate_games)]
        seeds = [GATE_SEED + 1000 * c["iteration"] + i for i in range(s.gate_games)]
        evaluators = [NetEvaluator(self.net, self.game), NetEvaluator(self.best, self.game)]
        played = play_lockstep(self.game, evaluators, seats, seeds, SearchSettings(s.simulations),
                               np.random.default_rng([s.seed, c["iteration"], 1]), record=False,
                               stop=self.stopping)
        if self.stopping():
            return
        wins = sum(1 for i, st in enumerate(played.states) if st.ranks()[i % n] == 0)
        rate = wins / s.gate_games
        low, high = wilson_interval(wins, s.gate_games)
        accepted = rate >= s.gate_threshold
        if accepted:
            self.best = copy.deepcopy(self.net)
            c["generation"] += 1
        self.scalar("gate/win_rate", rate)
        self.scalar("gate/generation", c["generation"])
        self._gating = {"iteration": c["iteration"], "positions": c["positions"], "seconds": round(c["seconds"], 1),
                        "games": s.gate_games, "candidate_wins": wins, "win_rate": round(rate, 4),
                        "low": round(low, 4), "high": round(high, 4), "accepted": accepted,
                        "generation": c["generation"]}
        self.log(f"[gate] latest vs best: {wins}/{s.gate_games} ({rate:.0%}, 95% CI {low:.0%}-{high:.0%}): "
                 + (f"accepted, generation {c['generation']}" if accepted else "rejected"))

    def evaluate(self) -> None:
        """The best network alone (and with search) against each gauntlet agent, seat-rotated."""
        s, c = self.settings, self.counters
        path = self.out / "best.safetensors"
        self.save_best()
        learners = [("aznet", AZNetAgent(path))]
        if s.eval_simulations:
            learners.append((f"az?{s.eval_simulations}", AZAgent(path, simulations=s.eval_simulations)))
        rows = []
        for label, learner in learners:
            for spec in [x.strip() for x in s.eval_opponents.split(",") if x.strip()]:
                wins, mine, theirs = 0, [], []
                for i in range(s.eval_games):
                    if self.stopping():
                        return
                    seat = i % s.players
                    agents = [learner if q == seat else make_agent(spec) for q in range(s.players)]
                    st = run_game(agents, EVAL_SEED + i, game=self.game)
                    wins += int(st.ranks()[seat] == 0)
                    mine.append(st.score_breakdown(seat)["total"])
                    theirs += [st.score_breakdown(q)["total"] for q in range(s.players) if q != seat]
                name = spec if label == "aznet" else f"{spec} (az search {s.eval_simulations})"
                rows.append({"timesteps": c["positions"], "seconds": round(c["seconds"], 1), "opponent": name,
                             "games": s.eval_games, "wins": wins, "win_rate": round(wins / s.eval_games, 4),
                             "mean_honour": round(float(np.mean(mine)), 2),
                             "opponent_mean_honour": round(float(np.mean(theirs)), 2)})
                self.scalar(f"eval/win_rate_{label}_{spec}", wins / s.eval_games)
                low, high = wilson_interval(wins, s.eval_games)
                self.log(f"[eval] {label} vs {spec}: {wins}/{s.eval_games} ({low:.0%}-{high:.0%})")
        append_eval(self.out, rows)

    def stopping(self) -> bool:
        """Whether SIGINT or SIGTERM asked the run to stop."""
        return bool(self.stop is not None and self.stop.signum)

    # -- files ----------------------------------------------------------------------------------------
    def save_best(self) -> Path:
        return save_net(self.best, self.out / "best.safetensors", self.game, self.settings.game_options,
                        training={"settings": self.settings.to_json(), "counters": dict(self.counters)})

    def cpu_seconds(self) -> float:
        """CPU time of the run so far (this process's, every invocation): what it cost on a shared machine."""
        now = time.process_time()
        self.counters["cpu_seconds"] = round(self.counters.get("cpu_seconds", 0.0) + now - self._cpu_start, 1)
        self._cpu_start = now
        return self.counters["cpu_seconds"]

    def save(self) -> None:
        self.cpu_seconds()
        self.buffer.save(self.out / "buffer.npz")
        self.save_best()
        save_checkpoint(self.out, self.net, self.optimizer, self.game, self.settings,
                        {**self.counters, "seconds": round(self.counters["seconds"], 1)})
        if self._gating:  # written after its checkpoint: a dropped iteration leaves no gating row
            append_gating(self.out, self._gating)
            self._gating = None

    def finish(self) -> None:
        if not checkpoints(self.out):
            self.save()
        try:
            plot_learning_curve(self.out, title=f"AlphaZero-style self-play, {self.settings.players} players")
        except ValueError:
            pass  # no evaluation yet: no curve
        if self._tb is not None:
            self._tb.close()

    def scalar(self, tag: str, value: float) -> None:
        if self._tb is None:
            from torch.utils.tensorboard import SummaryWriter
            self._tb = SummaryWriter(str(self.out / "tb"))
        self._tb.add_scalar(tag, value, self.counters["positions"])
