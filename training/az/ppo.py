"""``mk-env train --algo az-ppo``: PPO fine-tuning of a policy-value network against fixed opponents.

The network (:mod:`agents.az_net`, the ``aznet:PATH`` agent's) starts from a model file (``--pg-init``,
e.g. the warm start of ``mk-env train --algo az``, a clone of the heuristic) and improves by playing:

1. **Games**: ``--pg-games`` (32) per iteration, the learner in seat ``g % n`` of game ``g`` (seat-rotated),
   every other seat the opponent (``--opponents``, an agent spec; several, comma-separated, take turns by
   pairs of games; ``self`` is the learner in every seat, every seat's decisions trained on: self-play).
   The learner samples each decision with a choice from its priors over the legal actions (from its
   public view, as ``aznet`` reads it), from a generator of the game's own; a forced decision is played
   as is. The games are played in lockstep, one batched network call per step, by ``--pg-workers``
   processes (:mod:`training.az.ppo_games`): the games do not depend on how many.
2. **Return** of a game for a seat: ``(1 - w) * returns + w * tanh(margin / s)``, the game's returns
   (+1 to the winner, -1/(n-1) to the others) mixed with the honour margin over the best other seat
   (``--pg-margin-weight`` w = 0.5, ``--pg-margin-scale`` s = 20): winning counts, and so does by how much,
   so a game lost by 2 is not a game lost by 40.
3. **Update**: PPO over the iteration's decisions: advantage = return - the network's value of the
   decision's position (normalised over the batch), clipped ratio (``--pg-clip`` 0.2), ``--n-epochs`` (4)
   passes of minibatches of ``--batch-size`` (256), Adam at ``--learning-rate`` (5e-5), value loss (half
   weight) to each seat's return, entropy bonus ``--ent-coef`` (0), gradients clipped to norm 1.
4. **Evaluation**: every ``--eval-every`` (5) iterations and before the first (never with 0), the network
   alone, greedy (``aznet``), against each opponent but ``self`` (against ``heuristic`` when ``self`` is the
   only one) over ``--eval-games`` (100) seat-rotated games on fixed seeds (:data:`EVAL_SEED` on: every evaluation
   plays the same deals, so the curve compares like with like); ``eval.csv`` (its ``timesteps``: learner
   decisions so far), ``learning_curve.png``, ``DIR/net_<iteration>.safetensors`` (an ``aznet:``/``az:``
   file) and ``latest.safetensors``.

Files: ``DIR/config.json`` (``"algo": "az-ppo"``, the settings), ``DIR/checkpoints/pg_<iteration>.safetensors``
(the network, Adam's moments, the settings, the counters and the generator's state: ``--resume``
continues exactly; the last two kept). ``--pg-minutes`` ends an invocation at an iteration boundary.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.az_net import SparseBatch, adam, egocentric, load_net, pad_legal, save_net
from mk_env.games import make_game
from training.ratings import wilson_interval
from training.run_files import append_eval, plot_learning_curve, truncate_eval
from training.stopping import StopRequest, TrainingStopped

from . import ppo_files
from .clone import clone_network, clone_settings
from .files import write_json
from .ppo_games import SELF, Decision, GameJob, GamePlayer, make_opponents, mixed_returns
from .settings import settings_from_json

EVAL_SEED = 5_000_000  # evaluation game g is dealt from EVAL_SEED + g // players
GAME_SEEDS = 10_000_000  # training game g of seed s is dealt from s * GAME_SEEDS + g


@dataclass
class PGSettings:
    """Every setting of an az-ppo run (kept in ``config.json`` and every checkpoint)."""

    init: str = ""  # the policy-value file the run starts from ("": clone clone_agent first, training.az.clone)
    clone_agent: str = "heuristic"
    clone_games: int = 1500
    clone_steps: int = 20_000
    clone_hidden: int = 512
    players: int = 2  # the clone's game (with --pg-init, the file's)
    opponents: str = "heuristic"
    seed: int = 0
    decisions: int = 1_000_000  # stop when the learner has made this many decisions (--timesteps)
    minutes: float | None = None
    games: int = 32
    epochs: int = 4
    batch_size: int = 256
    learning_rate: float = 5e-5
    clip: float = 0.2
    ent_coef: float = 0.0
    margin_weight: float = 0.5
    margin_scale: float = 20.0
    eval_every: int = 5
    eval_games: int = 100
    workers: int = 1  # processes playing the games (the games do not depend on it)

    def check(self) -> PGSettings:
        """These settings once each is in range; a ``ValueError`` naming the first that is not."""
        for name in ("decisions", "games", "epochs", "batch_size", "eval_games", "clone_games", "clone_steps",
                     "clone_hidden", "players", "workers"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"az-ppo setting {name} must be a whole number >= 1, got {value!r}")
        if not isinstance(self.eval_every, int) or self.eval_every < 0:
            raise ValueError(f"az-ppo setting eval_every must be a whole number >= 0, got {self.eval_every!r}")
        for name, ok in (("learning_rate", self.learning_rate > 0), ("clip", 0 < self.clip < 1),
                         ("ent_coef", self.ent_coef >= 0), ("margin_weight", 0 <= self.margin_weight <= 1),
                         ("margin_scale", self.margin_scale > 0),
                         ("minutes", self.minutes is None or self.minutes > 0)):
            if not ok:
                raise ValueError(f"az-ppo setting {name} is out of range: {getattr(self, name)!r}")
        if not (self.init or self.clone_agent):
            raise ValueError("az-ppo needs a network to start from: --pg-init PATH (a policy-value file, e.g. "
                             "DIR/best.safetensors of mk-env train --algo az) or --pg-clone-agent SPEC to clone")
        return self

    @classmethod
    def from_json(cls, data: dict[str, Any], where: str) -> PGSettings:
        return settings_from_json(cls, data, where, "az-ppo")


def ppo_update(net: Any, optimizer: Any, batch: list[Decision], s: PGSettings, rng: np.random.Generator
               ) -> dict[str, float]:
    """``s.epochs`` passes of clipped PPO over ``batch``; the mean losses."""
    advantage = np.array([d.ret - d.value for d in batch], np.float32)
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    stats = []
    for _ in range(s.epochs):
        order = rng.permutation(len(batch))
        for k in range(0, len(batch), s.batch_size):
            part = [batch[j] for j in order[k:k + s.batch_size]]
            legal, valid = pad_legal([d.legal for d in part])
            logits, values = net(SparseBatch.from_rows([(d.index, d.values) for d in part]), legal, valid)
            log_probs = torch.log_softmax(logits, 1)
            log_prob = log_probs.gather(1, torch.tensor([d.chosen for d in part])[:, None]).squeeze(1)
            ratio = torch.exp(log_prob - torch.tensor([d.log_prob for d in part], dtype=torch.float32))
            adv = torch.from_numpy(advantage[order[k:k + s.batch_size]])
            policy_loss = -torch.min(ratio * adv, torch.clamp(ratio, 1 - s.clip, 1 + s.clip) * adv).mean()
            value_loss = ((values - torch.from_numpy(np.stack([d.seat_returns for d in part]))) ** 2).mean()
            entropy = -(torch.softmax(logits, 1) * log_probs.masked_fill(~valid, 0)).sum(1).mean()
            optimizer.zero_grad()
            (policy_loss + 0.5 * value_loss - s.ent_coef * entropy).backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            stats.append((policy_loss.item(), value_loss.item(), entropy.item()))
    return dict(zip(("policy_loss", "value_loss", "entropy"), np.mean(stats, 0).round(4).tolist()))


def evaluate(player: GamePlayer, opponent: int, games: int) -> dict[str, float]:
    """The greedy network against opponent number ``opponent``: win rate (ties split), mean honour of both
    sides, over ``games`` seat-rotated games dealt from :data:`EVAL_SEED` on."""
    n = player.game.num_players
    jobs = [GameJob(EVAL_SEED + g // n, g % n, opponent, None) for g in range(games)]
    wins, mine, theirs = 0.0, [], []
    for job, result in zip(jobs, player.play(jobs)):
        wins += float(result.returns[job.seat] > 0) / max(1, int((result.returns > 0).sum()))
        mine.append(result.scores[job.seat])
        theirs.append(np.mean(np.delete(result.scores, job.seat)))
    return {"wins": wins, "win_rate": wins / games, "mean_honour": float(np.mean(mine)),
            "opponent_mean_honour": float(np.mean(theirs))}


class PGRun:
    """One az-ppo run: the network, Adam, the generator, the counters and the files."""

    settings_class = PGSettings

    def __init__(self, out: Path, settings: PGSettings, net: Any, config: dict[str, Any], log: Any = print):
        self.out, self.settings, self.net, self.log = Path(out), settings, net, log
        self.game_options = config["game_options"]
        self.game = make_game(config["game"], config["players"], **self.game_options)
        self.specs = settings.opponents.split(",")
        self.opponents = make_opponents(self.specs)
        #: the evaluation's opponents: the fixed ones (self-play alone is measured against the heuristic)
        self.eval_specs = [spec for spec in self.specs if spec != SELF] or ["heuristic"]
        self.optimizer = adam(net.parameters(), lr=settings.learning_rate)
        self.rng = np.random.default_rng(settings.seed)
        self.counters = {"iteration": 0, "games": 0, "decisions": 0, "seconds": 0.0}
        self.update_seconds = 0.0
        self.player = GamePlayer(net, self.game, self.game_options, self.opponents, self.specs, self.out,
                                 settings.workers)
        self.evaluator = self.player if self.eval_specs == self.specs else GamePlayer(
            net, self.game, self.game_options, make_opponents(self.eval_specs), self.eval_specs, self.out,
            settings.workers)

    @classmethod
    def start(cls, out: Path, settings: PGSettings, log: Any = print) -> PGRun:
        if ppo_files.checkpoints(Path(out)):
            raise ValueError(f"{out} already holds an az-ppo run; continue it with --resume or choose another --out")
        if not settings.init:
            s = settings.check()
            made = clone_network(Path(out), clone_settings(s.clone_agent, s.clone_games, s.clone_steps,
                                                           s.clone_hidden, s.players, s.seed, s.workers), log)
            settings = replace(settings, init=str(made))
        net, config, _ = load_net(settings.init)
        run = cls(out, settings.check(), net, config, log)
        run.out.mkdir(parents=True, exist_ok=True)
        write_json(run.out / "config.json", {"algo": "az-ppo", "settings": asdict(settings)})
        if run.evaluation_due():
            run.evaluate()
        return run

    def train(self) -> Path:
        """Iterate until the decisions or the minutes are reached; the latest network's file."""
        s, started = self.settings, time.time()
        with StopRequest() as stop:
            try:
                while self.counters["decisions"] < s.decisions:
                    if s.minutes is not None and time.time() - started > s.minutes * 60:
                        self.log(f"[stop] --pg-minutes {s.minutes} reached; continue with: "
                                 f"mk-env train --resume --out {self.out}")
                        break
                    self.iteration(stop, time.time())
            finally:
                self.player.close()
                self.evaluator.close()
        return save_net(self.net, self.out / "latest.safetensors", self.game, self.game_options)

    def iteration(self, stop: StopRequest, began: float) -> None:
        s, c, n = self.settings, self.counters, self.game.num_players
        numbers = [c["games"] + g for g in range(s.games)]
        jobs = [GameJob(s.seed * GAME_SEEDS + number, g % n, (number // n) % len(self.opponents),
                        (s.seed, number)) for g, number in enumerate(numbers)]
        results = self.player.play(jobs, lambda: stop.signum is not None)
        if results is None:
            last = self.latest_checkpoint()
            raise TrainingStopped(f"{stop.name} in iteration {c['iteration'] + 1}: the iteration in "
                                  f"progress is dropped; the run stands at {last or 'its start'}",
                                  last, stop.signum)
        batch: list[Decision] = []
        wins = 0
        for job, result in zip(jobs, results):
            returns = mixed_returns(result.returns, result.scores, s.margin_weight, s.margin_scale)
            if self.specs[job.opponent] != SELF:
                wins += int(result.returns[job.seat] > 0)
            for d in result.decisions:
                d.ret, d.seat_returns = float(returns[d.seat]), egocentric(returns, d.seat).astype(np.float32)
            batch += result.decisions
        self.net.train()
        t0 = time.perf_counter()
        losses = ppo_update(self.net, self.optimizer, batch, s, self.rng)
        self.update_seconds = time.perf_counter() - t0  # the last iteration's update (the speed benchmark's)
        c["iteration"] += 1
        c["games"] += s.games
        c["decisions"] += len(batch)
        c["seconds"] = round(c["seconds"] + time.time() - began, 1)
        self.log(f"[iteration {c['iteration']}] {s.games} games, {len(batch)} decisions, {wins} won; "
                 + ", ".join(f"{k} {v}" for k, v in losses.items()))
        if self.evaluation_due():
            self.evaluate()
        self.save_checkpoint()

    def evaluation_due(self) -> bool:
        """Whether the network is evaluated at the iteration reached: 0 (before the first) and every
        ``eval_every`` after it; never when ``eval_every`` is 0."""
        every = self.settings.eval_every
        return bool(every) and self.counters["iteration"] % every == 0

    def evaluate(self) -> None:
        """The greedy network against each opponent; ``eval.csv``, the curve, the network's files."""
        c, rows = self.counters, []
        self.net.eval()
        for k, spec in enumerate(self.eval_specs):
            result = evaluate(self.evaluator, k, self.settings.eval_games)
            low, high = wilson_interval(result["wins"], self.settings.eval_games)
            self.log(f"[eval] aznet vs {spec}: {result['win_rate']:.1%} ({low:.0%}-{high:.0%}) of "
                     f"{self.settings.eval_games}; honour {result['mean_honour']:.1f} to "
                     f"{result['opponent_mean_honour']:.1f}")
            rows.append({"timesteps": c["decisions"], "seconds": c["seconds"], "opponent": spec,
                         "games": self.settings.eval_games, **{k: round(v, 4) for k, v in result.items()}})
        append_eval(self.out, rows)
        plot_learning_curve(self.out, title="az-ppo: the network alone (greedy)")
        saved = save_net(self.net, self.out / f"net_{c['iteration']}.safetensors", self.game, self.game_options)
        shutil.copyfile(saved, self.out / "latest.safetensors")

    def save_checkpoint(self) -> Path:
        return ppo_files.save_checkpoint(self)

    def latest_checkpoint(self) -> Path | None:
        found = ppo_files.checkpoints(self.out)
        return found[-1] if found else None

    @classmethod
    def resume(cls, out: Path, changes: dict[str, Any], log: Any = print) -> PGRun:
        run = ppo_files.resume(cls, Path(out), changes, log)
        truncate_eval(run.out, run.counters["decisions"])
        return run
