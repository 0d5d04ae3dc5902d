"""Write the tutorial notebooks from the cells below, outputs stripped (the notebooks are code under review).

    python notebooks/build_notebooks.py           # (re)write notebooks/*.ipynb
    python notebooks/build_notebooks.py --check   # exit 1 if a committed notebook differs from this file

Each notebook reads its budgets from the environment in its first code cell: ``CI=true`` (what CI
sets) gives a small run of a minute or less; otherwise the budgets give meaningful results. Files go
under a temporary folder in CI and under ``runs/notebooks/`` (ignored by git) otherwise, never into
the repository's tracked folders. Each notebook ends with assertions on what it computed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

# ================================================================================================
# shared first cell: budgets from the environment, the output folder
# ================================================================================================
SETUP = '''\
%matplotlib inline
import os
import tempfile
import time
from pathlib import Path

CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def output_dir(name: str) -> Path:
    """A fresh folder for this notebook's files: a temp dir in CI, else runs/notebooks/ (git-ignored)."""
    import training
    root = Path(training.__file__).resolve().parents[1]
    if CI or not (root / "pyproject.toml").exists():
        return Path(tempfile.mkdtemp(prefix=f"mk_{name}_"))
    out = root / "runs" / "notebooks" / f"{name}_{time.strftime('%Y%m%d-%H%M%S')}"
    out.mkdir(parents=True)
    return out

'''


def cells(*items: tuple[str, str]) -> list:
    """``("md", text)`` and ``("code", text)`` pairs as notebook cells."""
    out = []
    for kind, text in items:
        text = text.strip("\n")
        out.append(new_markdown_cell(text) if kind == "md" else new_code_cell(text))
    return out


def notebook(items: list) -> nbformat.NotebookNode:
    """A v4 notebook on the ``python3`` kernel, without outputs or execution counts."""
    nb = new_notebook(cells=items)
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                   "language_info": {"name": "python"}}
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:02d}"  # stable ids: regenerating gives the same file
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


# ================================================================================================
# 01: quickstart
# ================================================================================================
QUICKSTART = cells(
    ("md", """
# Quickstart: the environment, its observation, its actions, one game

*In the Hall of the Mountain King* as a PettingZoo AEC environment. This notebook creates the
environment, looks at the observation tensors and the flat action layout, plays a game with random
legal actions, renders the board and reads the score breakdown.

Budgets come from the environment: `CI=true` plays a few games, otherwise more.
"""),
    ("code", SETUP + '''\
SEED = 7
PLAYERS = 2
SURVEY_GAMES = 4 if CI else 40   # heuristic vs random games for the honour survey at the end
OUT = output_dir("01_quickstart")
print(f"CI={CI}, survey games={SURVEY_GAMES}, files in {OUT}")
'''),
    ("md", """
## Create the environment

`mk_env.env(...)` is the PettingZoo AEC environment with PettingZoo's safety wrappers;
`mk_env.raw_env(...)` is the same without them (an illegal action raises an error that explains it).
Game options (`board_side`, `workshops`, `team_mode`, `pack`) pass straight to the rules engine.
"""),
    ("code", '''\
import numpy as np
import matplotlib.pyplot as plt

import mk_env

env = mk_env.env(num_players=PLAYERS)
env.reset(seed=SEED)
raw = env.unwrapped                      # the raw_env inside: .game, .game_state, .observer
game = raw.game
print("agents:", env.possible_agents)
print("board side:", game.board_side, "| actions:", env.action_space(env.possible_agents[0]))
print("first to act:", env.agent_selection, "| decision:", raw.game_state.decision_kind())
'''),
    ("md", """
## The observation

`observe(agent)` returns `{"observation": {...}, "action_mask": int8[N]}`. The inner dict holds
float32 arrays in `[0, 1]`, egocentric (every player axis starts with the observing player) and
limited to what that player may know. The board is a stack of 0/1 channels over the grid.
"""),
    ("code", '''\
agent = env.agent_selection
obs = env.observe(agent)
space = env.observation_space(agent)
assert space.contains(obs), "the observation must lie in the observation space"
for key, box in space["observation"].spaces.items():
    arr = obs["observation"][key]
    print(f"{key:15s} shape {str(arr.shape):15s} {arr.dtype}  nonzero {int(np.count_nonzero(arr)):5d}")
mask = obs["action_mask"]
print(f"action_mask     shape {mask.shape}, {int(mask.sum())} legal actions now")
'''),
    ("code", '''\
channels = [name for name, _ in raw.observer.channels]
board = obs["observation"]["board"]
show = ["on_board", "heart", "tier_3", "rubble", "workshop_site", "statue_buried"]
fig, axes = plt.subplots(1, len(show), figsize=(2.6 * len(show), 2.6))
for ax, name in zip(axes, show):
    ax.imshow(board[channels.index(name)], cmap="Greys", vmin=0, vmax=1)
    ax.set_title(name, fontsize=9)
    ax.axis("off")
fig.suptitle(f"some of the {len(channels)} board channels, {board.shape[1]}x{board.shape[2]} grid")
plt.show()
'''),
    ("md", """
## The action layout

Every decision of the game is one number of a flat `Discrete(N)` space, cut into blocks (gate,
draft, cast a spell, recruit, dig a tunnel, ...). The engine decodes and describes any number; the
mask is 1 exactly where the engine accepts it now.
"""),
    ("code", '''\
layout = game.layout
for block in layout.BLOCKS:
    print(f"{block:18s} offset {layout.offset[block]:5d}  size {layout.sizes[block]:5d}")
print("total N =", layout.size)
assert sum(layout.sizes[b] for b in layout.BLOCKS) == layout.size
legal = np.flatnonzero(mask)
print(f"\\n{len(legal)} legal actions for {agent} ({raw.game_state.decision_kind()}), e.g.:")
for a in legal[:5]:
    block, arg = layout.decode(a)
    print(f"  {a:5d} = {block}[{int(arg)}]: {layout.describe(a)}")
'''),
    ("md", """
## Play a random game

The standard AEC loop: `last()` gives the acting agent's observation and reward, `step(None)` for
agents that are done.
"""),
    ("code", '''\
rng = np.random.default_rng(SEED)
env.reset(seed=SEED)
decisions, returns, finals = 0, dict.fromkeys(env.possible_agents, 0.0), {}
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    returns[agent] += reward
    if termination or truncation:
        action, finals[agent] = None, info   # the last info holds score_breakdown and rank
    else:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        decisions += 1
    env.step(action)
state = raw.game_state
assert state.is_terminal() and decisions == len(state.history) and len(finals) == PLAYERS
print(f"{decisions} decisions, {state.turn + 1} turns; returns {returns}; ranks {state.ranks()}")
'''),
    ("md", """
## Render the board

`render_ansi(state)` is the whole public state as text; `render_rgb(state)` is an image
(`render_mode="ansi"` / `"rgb_array"` make `env.render()` return them).
"""),
    ("code", '''\
from mk_env.mountain_king.env.render import render_ansi, render_rgb

print(render_ansi(state))
'''),
    ("code", '''\
image = render_rgb(state)
assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
plt.figure(figsize=(12, 12 * image.shape[0] / image.shape[1]))
plt.imshow(image)
plt.axis("off")
plt.show()
'''),
    ("md", """
## The score breakdown

At the end every agent's `info` holds `score_breakdown` (honour per scoring category and the
`total`) and `rank` (0 = winner, after the tie-break). Random play scores little, so the breakdown
of a game between the `heuristic` agent and a random one follows. Each game can be saved as a small
record that the engine replays exactly.
"""),
    ("code", '''\
from mk_env.mountain_king.rules import CATEGORIES

for agent in env.possible_agents:
    info = finals[agent]
    bd = info["score_breakdown"]
    print(agent, "rank", info["rank"], bd)
    assert sum(bd[c] for c in CATEGORIES) == bd["total"], "the parts must sum to the total"
    assert bd == state.score_breakdown(env.possible_agents.index(agent))
'''),
    ("code", '''\
from mk_env.records import final_state, record_from_state, save_record, load_record
from training.play import run_game

specs = ["heuristic", "random"]
played = run_game(specs, seed=SEED)
path = save_record(record_from_state(played, SEED, specs), OUT / "heuristic_vs_random.json")
replayed = final_state(load_record(path))
assert replayed.history == played.history
rows = [played.score_breakdown(p) for p in range(PLAYERS)]
print(f"{'category':16s}" + "".join(f"{s:>11s}" for s in specs))
for c in (*CATEGORIES, "total"):
    print(f"{c:16s}" + "".join(f"{r[c]:11d}" for r in rows))
print("ranks", played.ranks(), "| record:", path)
'''),
    ("code", '''\
survey = {c: [] for c in CATEGORIES}
for seed in range(SURVEY_GAMES):
    bd = run_game(["heuristic", "random"], seed=1000 + seed).score_breakdown(0)
    assert sum(bd[c] for c in CATEGORIES) == bd["total"]
    for c in CATEGORIES:
        survey[c].append(bd[c])
means = [float(np.mean(survey[c])) for c in CATEGORIES]
plt.figure(figsize=(7, 3))
plt.bar(CATEGORIES, means, color="#5b7fa6")
plt.ylabel("mean honour")
plt.title(f"where the heuristic agent's honour comes from ({SURVEY_GAMES} games vs random)")
plt.xticks(rotation=20)
plt.tight_layout()
plt.show()
assert sum(means) > 0, "the heuristic agent scores honour"
'''),
)


# ================================================================================================
# 02: train a MaskablePPO self-play agent
# ================================================================================================
TRAIN = cells(
    ("md", """
# Train a small MaskablePPO self-play agent

`training.train.train(...)` (the function behind `mk-env train`) trains sb3-contrib's `MaskablePPO`
on the single-seat view of a 2-player game: the learner's opponents are drawn per episode from a pool
(random, heuristic, frozen snapshots of the learner). Every few thousand steps it plays a gauntlet
(random, heuristic) with seat rotation and logs the win rates to `eval.csv`.

This notebook trains, plots the learning curve, evaluates the result against the baselines and
watches one of its games. With `CI=true` the budget is tiny (about 20 seconds of training: the
agent is barely past its random initialisation, so the assertions only check that it plays and wins
some games); otherwise about a quarter of an hour on two cores: measured numbers, though a learner
this young is still far from the heuristic agent (longer runs: `mk-env train`, `docs/training.md`).
"""),
    ("code", SETUP + '''\
if CI:
    TIMESTEPS, EVAL_EVERY, EVAL_GAMES, FINAL_GAMES = 1_024, 512, 10, 20
    PPO = dict(envs=1, n_steps=128, batch_size=64)
    WIN_FLOOR = 0.2    # an untrained policy wins about 45% vs random: this only catches a broken agent
else:
    TIMESTEPS, EVAL_EVERY, EVAL_GAMES, FINAL_GAMES = 60_000, 10_000, 40, 200
    PPO = dict(envs=2, n_steps=512, batch_size=256)
    WIN_FLOOR = 0.5    # measured: 60-65% vs random after 10k-40k steps (untrained: about 45%)
SEED = 0
OUT = output_dir("02_train_ppo")
print(f"CI={CI}: {TIMESTEPS} steps, evaluation every {EVAL_EVERY}; files in {OUT}")
'''),
    ("code", '''\
import matplotlib.pyplot as plt
import torch

torch.set_num_threads(1)   # one thread per process: faster on few cores, and fair to neighbours
'''),
    ("md", """
## Train

The learner sees the inner observation dict of the PettingZoo env (`MultiInputPolicy` with the
project's CNN feature extractor) and the legal mask through `env.action_masks()`.
"""),
    ("code", '''\
from training.train import train

t0 = time.perf_counter()
final = train(out=OUT, players=2, timesteps=TIMESTEPS, seed=SEED, eval_every=EVAL_EVERY,
              eval_games=EVAL_GAMES, snapshot_every=max(EVAL_EVERY, TIMESTEPS // 5),
              checkpoint_every=TIMESTEPS, tensorboard=not CI, **PPO)
train_seconds = time.perf_counter() - t0
print(f"trained {TIMESTEPS} steps in {train_seconds:.0f} s ({TIMESTEPS / train_seconds:.0f} steps/s)")
print("model:", final)
'''),
    ("md", """
## The learning curve

Win rates against each gauntlet agent at every evaluation (`OUT/eval.csv`; the same numbers are in
TensorBoard under `eval/`).
"""),
    ("code", '''\
from training.train import read_eval

rows = read_eval(OUT)
curve = {}
for r in rows:
    curve.setdefault(r["opponent"], []).append((int(r["timesteps"]), float(r["win_rate"])))
fig, ax = plt.subplots(figsize=(6.4, 3.6))
for opponent, points in curve.items():
    ax.plot(*zip(*points), marker="o", label=f"vs {opponent}")
ax.set_xlabel("learner steps")
ax.set_ylabel(f"win rate ({EVAL_GAMES} games)")
ax.set_ylim(-0.02, 1.02)
ax.legend()
ax.set_title("MaskablePPO self-play, 2 players")
plt.show()
assert set(curve) == {"random", "heuristic"}
assert all(len(points) >= 2 for points in curve.values()), "an evaluation at the start and later"
assert max(s for s, _ in curve["random"]) >= TIMESTEPS - EVAL_EVERY
'''),
    ("md", """
## Evaluate against the baselines

A fresh gauntlet on other seeds, the learner acting greedily (as the `ppo:PATH` agent does), every
seat played equally often. Win rates carry a 95% Wilson interval.
"""),
    ("code", '''\
from training.evaluate import gauntlet

results = gauntlet(str(final), ["random", "heuristic"], games=FINAL_GAMES, players=2, seed=50_000)
for spec, r in results.items():
    lo, hi = r["win_rate_ci95"]
    print(f"vs {spec:10s} win rate {r['win_rate']:6.1%} (95% CI {lo:.0%}-{hi:.0%}, {r['games']} games), "
          f"honour {r['mean_honour']:.1f} vs {r['opponent_mean_honour']:.1f}")
assert results["random"]["win_rate"] >= WIN_FLOOR, (
    f"win rate vs random {results['random']['win_rate']:.0%} is below the floor {WIN_FLOOR:.0%}")
'''),
    ("md", """
## Watch one of its games

The trained model as an agent (`agents.make_agent("ppo:PATH")`) against random play: its first
decisions in words, the board halfway and at the end, and a replay page (`replay.html`, open it in a
browser) with every step.
"""),
    ("code", '''\
from agents import make_agent
from mk_env.mountain_king.env.render import render_rgb
from mk_env.mountain_king.env.replay_html import write_html
from mk_env.records import record_from_state, replay
from training.play import run_game

specs = [f"ppo:{final}", "random"]
state = run_game([make_agent(specs[0]), specs[1]], seed=SEED + 1)
record = record_from_state(state, SEED + 1, ["ppo", "random"])
states = list(replay(record))
layout = state.game.layout
mine = [(s, a) for s, a in zip(states, record.actions) if s.current_player() == 0]
for s, a in mine[:8]:
    print(f"turn {s.turn:2d} {s.decision_kind():26s} {layout.describe(a)}")
page = write_html(record, OUT / "replay.html", scale=0.5)
print("final honour", [state.score_breakdown(p)["total"] for p in range(2)], "ranks", state.ranks())
print("replay page:", page)
'''),
    ("code", '''\
moments = [len(states) // 2, len(states) - 1]
fig, axes = plt.subplots(1, 2, figsize=(16, 8))
for ax, k in zip(axes, moments):
    ax.imshow(render_rgb(states[k]))
    ax.set_title(f"step {k} of {len(states) - 1}")
    ax.axis("off")
plt.tight_layout()
plt.show()
assert states[-1].is_terminal() and states[-1].history == state.history
'''),
)


# ================================================================================================
# 03: tournament analysis
# ================================================================================================
TOURNAMENT = cells(
    ("md", """
# Tournament analysis: ratings, seats, start points, honour

`training.tournament.run_tournament(...)` (the function behind `mk-env tournament`) plays the agents
against each other with seat rotation and duplicate seeds, and summarises the games: openskill
Plackett-Luce ratings, win rates with 95% Wilson intervals, mean rank, honour by scoring category,
per seat and per start point, head to head.

With `CI=true` it plays a handful of 3-player games; otherwise enough for tight intervals (a few
minutes on two cores).
"""),
    ("code", SETUP + '''\
AGENTS = ["random", "heuristic", "mcts:8"]
PLAYERS = 3
GAMES = 6 if CI else 120         # a multiple of PLAYERS: every lineup in every seat rotation
WORKERS = 1 if CI else max(1, min(4, os.cpu_count() or 1))
SEED = 0
OUT = output_dir("03_tournament")
print(f"CI={CI}: {GAMES} games of {AGENTS} at {PLAYERS} players on {WORKERS} worker(s); files in {OUT}")
'''),
    ("code", '''\
import numpy as np
import matplotlib.pyplot as plt

from mk_env.mountain_king.rules import CATEGORIES
from training.tournament import run_tournament

t0 = time.perf_counter()
results = run_tournament(AGENTS, PLAYERS, GAMES, seed=SEED, workers=WORKERS, out=OUT,
                         progress=False, charts=False)
print(f"{len(results['games'])} games in {time.perf_counter() - t0:.0f} s")
stats = results["agents"]
order = sorted(stats, key=lambda a: -stats[a]["rating_mu"])
print(f"{'agent':10s} {'mu':>7s} {'sigma':>6s} {'win rate':>9s} {'95% CI':>12s} {'rank':>5s} {'honour':>7s}")
for a in order:
    s = stats[a]
    lo, hi = s["win_rate_ci95"]
    print(f"{a:10s} {s['rating_mu']:7.2f} {s['rating_sigma']:6.2f} {s['win_rate']:9.1%} "
          f"{lo:5.0%}-{hi:4.0%} {s['mean_rank']:5.2f} {s['mean_honour']:7.1f}")
'''),
    ("md", """
## Ratings with their uncertainty

openskill's `mu` with `2 sigma` bars, and the conservative `mu - 3 sigma` often used for leaderboards.
"""),
    ("code", '''\
mu = np.array([stats[a]["rating_mu"] for a in order])
sigma = np.array([stats[a]["rating_sigma"] for a in order])
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.errorbar(order, mu, yerr=2 * sigma, fmt="o", capsize=6, label="mu +- 2 sigma")
ax.plot(order, mu - 3 * sigma, "v", color="gray", label="mu - 3 sigma")
ax.set_ylabel("openskill rating")
ax.set_title(f"ratings after {len(results['games'])} games")
ax.legend()
plt.show()
'''),
    ("md", """
## Win rates by seat and by start point

First for all agents together (the board's balance: does seat 0 or a given start point win more
often?), then for each agent. Bars are 95% Wilson intervals; with few games they are wide.
"""),
    ("code", '''\
def rate_bars(ax, groups: dict, title: str) -> None:
    """Win rates with their 95% intervals, one bar per key of ``groups``."""
    keys = list(groups)
    rate = np.array([groups[k]["win_rate"] for k in keys])
    ci = np.array([groups[k]["win_rate_ci95"] for k in keys])
    ax.bar(keys, rate, yerr=[rate - ci[:, 0], ci[:, 1] - rate], capsize=4, color="#5b7fa6")
    ax.axhline(1 / PLAYERS, color="gray", ls=":", lw=1)
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)


balance = results["balance"]
fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
rate_bars(axes[0], balance["per_seat"], "all agents: win rate by seat")
rate_bars(axes[1], balance["per_start_point"], "all agents: win rate by start point")
axes[0].set_xlabel("seat (0 starts)")
axes[1].set_xlabel("start point")
plt.tight_layout()
plt.show()
'''),
    ("code", '''\
fig, axes = plt.subplots(2, len(order), figsize=(4 * len(order), 6), squeeze=False)
for j, a in enumerate(order):
    rate_bars(axes[0, j], stats[a]["per_seat"], f"{a}: by seat")
    rate_bars(axes[1, j], stats[a]["per_start_point"], f"{a}: by start point")
plt.tight_layout()
plt.show()
'''),
    ("md", """
## Where each agent's honour comes from

Mean honour per game by scoring category (tunnels, coronation, pedestal tokens, leftover sets, great
halls, statues), and how often each agent finishes above each other one.
"""),
    ("code", '''\
fig, (ax, hx) = plt.subplots(1, 2, figsize=(12, 3.8))
bottom = np.zeros(len(order))
for c in CATEGORIES:
    part = np.array([stats[a]["honour_breakdown"][c] for a in order])
    ax.bar(order, part, bottom=bottom, label=c)
    bottom += part
ax.set_ylabel("mean honour per game")
ax.set_title("where honour comes from")
ax.legend(fontsize=8)
beats = np.full((len(order), len(order)), np.nan)
for i, a in enumerate(order):
    for j, b in enumerate(order):
        if b in stats[a]["head_to_head"]:
            beats[i, j] = stats[a]["head_to_head"][b]["beats_rate"]
im = hx.imshow(beats, vmin=0, vmax=1, cmap="RdBu")
hx.set_xticks(range(len(order)), order)
hx.set_yticks(range(len(order)), order)
hx.set_title("row finishes above column")
fig.colorbar(im, ax=hx)
plt.tight_layout()
plt.show()
'''),
    ("md", """
## Checks

The summary must agree with itself and with what the agents are known to be.
"""),
    ("code", '''\
assert len(results["games"]) == GAMES
assert stats["heuristic"]["rating_mu"] > stats["random"]["rating_mu"], "heuristic must rate above random"
assert stats["heuristic"]["win_rate"] > stats["random"]["win_rate"]
for a in AGENTS:
    s = stats[a]
    parts = sum(s["honour_breakdown"][c] for c in CATEGORIES)
    assert abs(parts - s["mean_honour"]) < 1e-6, f"{a}: the categories must sum to the mean honour"
    assert sum(v["games"] for v in s["per_seat"].values()) == s["games"]
    assert sum(v["games"] for v in s["per_start_point"].values()) == s["games"]
assert sum(v["games"] for v in balance["per_seat"].values()) == GAMES * PLAYERS
assert abs(sum(v["wins"] for v in balance["per_seat"].values()) - GAMES) < 0.01, "one win per game (ties split)"
print("checks passed; results.json in", OUT)
'''),
)

# ================================================================================================
# 04: Cave Troll, the suite's second game
# ================================================================================================
CAVE_TROLL = cells(
    ("md", """
# Cave Troll: play a game, a small tournament, a chart

*Cave Troll*, the suite's second game, as a PettingZoo AEC environment (`mk_env.cave_troll_v1`):
adventurers raid a lair room by room while monsters defend it; rooms score gold to whoever has most
adventurers there at each "Count the Loot!". This notebook plays a game with rendering, runs a small
tournament of `random`, `heuristic` and `mcts` (the same `run_tournament` as the first game, with
`game="cave_troll"`) and charts the win rates and the gold.

Training a policy: `mk-env train --game cave_troll` (docs/training.md); `ppo:PATH` then plays it.
With `CI=true` the tournament is a handful of games; otherwise enough for tighter intervals.
"""),
    ("code", SETUP + '''\
import torch

torch.set_num_threads(1)
PLAYERS = 3
AGENTS = ["random", "heuristic", "mcts:8"]
GAMES = 3 if CI else 60          # a multiple of PLAYERS: every lineup in every seat rotation
SEED = 0
OUT = output_dir("04_cave_troll")
print(f"CI={CI}: {GAMES} games of {AGENTS} at {PLAYERS} players; files in {OUT}")
'''),
    ("md", """
## One game with rendering

Three random players through the AEC loop; `render_mode="ansi"` prints the lair (rooms with their
gold, counters by colour, the entrances and the pit), `"rgb_array"` draws it.
"""),
    ("code", '''\
import numpy as np
import matplotlib.pyplot as plt

import mk_env.cave_troll_v1 as cave_troll_v1

env = cave_troll_v1.env(num_players=PLAYERS, render_mode="ansi")
env.reset(seed=SEED)
rng = np.random.default_rng(SEED)
decisions, finals = 0, {}
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action, finals[agent] = None, info  # the final infos: score_breakdown and rank
    else:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        decisions += 1
        if decisions == 40:
            print("after 40 decisions:", env.unwrapped.describe_action(action))
            print(env.render())
    env.step(action)
for a, info in finals.items():
    print(a, "rank", info["rank"], info["score_breakdown"])
image = cave_troll_v1.raw_env(num_players=PLAYERS, render_mode="rgb_array")
image.reset(seed=SEED)
plt.figure(figsize=(6, 6))
plt.imshow(image.render())
plt.axis("off")
plt.title("the lair at the start")
plt.show()
'''),
    ("md", """
## A small tournament

Seat rotation and duplicate seeds, openskill ratings, win rates with 95% Wilson intervals, mean gold.
"""),
    ("code", '''\
from training.tournament import run_tournament

t0 = time.perf_counter()
results = run_tournament(AGENTS, PLAYERS, GAMES, seed=SEED, workers=1, out=OUT, progress=False,
                         charts=False, game="cave_troll")
print(f"{len(results['games'])} games in {time.perf_counter() - t0:.0f} s")
stats = results["agents"]
order = sorted(stats, key=lambda a: -stats[a]["rating_mu"])
for a in order:
    s = stats[a]
    lo, hi = s["win_rate_ci95"]
    print(f"{a:10s} mu {s['rating_mu']:6.2f}  win rate {s['win_rate']:6.1%} ({lo:.0%}-{hi:.0%})  "
          f"gold {s['mean_honour']:5.1f}")
'''),
    ("code", '''\
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
rates = np.array([stats[a]["win_rate"] for a in order])
ci = np.array([stats[a]["win_rate_ci95"] for a in order])
left.bar(order, rates, yerr=[rates - ci[:, 0], ci[:, 1] - rates], capsize=6, color="tab:blue")
left.set_ylim(0, 1)
left.set_ylabel("win rate (95% CI)")
right.bar(order, [stats[a]["mean_honour"] for a in order], color="tab:orange")
right.set_ylabel("mean gold")
fig.suptitle(f"Cave Troll, {PLAYERS} players, {len(results['games'])} games")
plt.tight_layout()
plt.show()

assert len(results["games"]) == GAMES
assert set(stats) == set(AGENTS)
assert all(0 <= stats[a]["win_rate"] <= 1 for a in AGENTS)
print("checks passed; results.json in", OUT)
'''),
)

# ================================================================================================
# 05: Fall of the Mountain King
# ================================================================================================
FALL = cells(
    ("md", """
# Fall of the Mountain King: play a game, look at what a seat sees, a small tournament

*Fall of the Mountain King* (2-5 players), the suite's third game, as a PettingZoo AEC environment
(`mk_env.fall_of_the_mountain_king_v1`): troll clans build their ancestry grids in three waves, fight over the
seven clan domains with weak and strong actions, hold off gnome invasions and win champions and clan votes. Its
components are designed stand-ins (docs/fall-of-the-mountain-king/rules-decisions.md). This notebook plays a
game with the `ansi` rendering, shows the observation arrays (only what the seat may know), and runs a small
`heuristic` vs `random` tournament with a chart. With `CI=true` the tournament is two games.
"""),
    ("code", SETUP + '''\
import torch

torch.set_num_threads(1)
PLAYERS = 3
GAMES = 2 if CI else 40          # even: each agent in each seat equally often
SEED = 0
OUT = output_dir("05_fall_of_the_mountain_king")
print(f"CI={CI}: {GAMES} games of heuristic vs random at 2 players; files in {OUT}")
'''),
    ("md", """
## One game with rendering

Random players through the AEC loop; `agent_selection` is the seat *deciding* (a route's tie belongs to the
clan's vote leader, a falling troll to its owner).
"""),
    ("code", '''\
import numpy as np
import matplotlib.pyplot as plt

from mk_env import fall_of_the_mountain_king_v1 as fall

env = fall.env(num_players=PLAYERS, render_mode="ansi")
env.reset(seed=SEED)
rng = np.random.default_rng(SEED)
decisions, finals = 0, {}
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action, finals[agent] = None, info
    else:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        decisions += 1
        if decisions == 120:
            print("decision 120:", env.unwrapped.describe_action(action))
            print(env.render())
    env.step(action)
for a, info in finals.items():
    print(a, "rank", info["rank"], info["score_breakdown"])
'''),
    ("md", """
## What a seat sees

The observation is a dict of float32 arrays (row 0 of every player axis is the observer). Resampling what the
seat cannot see (others' hands, facedown gnomes and gate cards it has not scouted) leaves it unchanged.
"""),
    ("code", '''\
raw = fall.raw_env(num_players=PLAYERS)
raw.reset(seed=SEED)
for _ in range(150):
    raw.step(int(rng.choice(raw.game_state.legal_actions())))
obs = raw.observe(raw.agent_selection)["observation"]
for key, array in obs.items():
    print(f"{key:10s} {str(array.shape):14s} {raw.observer.fields[[f.key for f in raw.observer.fields].index(key)].meaning[:70]}")
seat = raw.agents.index(raw.agent_selection)
other = raw.game_state.determinize(seat, np.random.default_rng(1))
assert np.array_equal(raw.observer.encode_flat(raw.game_state, seat), raw.observer.encode_flat(other, seat))
fig, axes = plt.subplots(1, PLAYERS, figsize=(3 * PLAYERS, 3))
g = raw.game
for k, ax in enumerate(axes):
    grid = obs["ancestry"][k, :, 2:9].argmax(-1) + 1.0
    grid[obs["ancestry"][k, :, 0] == 0] = 0
    ax.imshow(grid.reshape(g.canvas_rows, g.canvas_cols), cmap="tab10", vmin=0, vmax=9)
    ax.set_title("me" if k == 0 else f"+{k}")
    ax.axis("off")
fig.suptitle("ancestry grids by symbol (egocentric)")
plt.show()
'''),
    ("md", """
## A small tournament

`heuristic` (agents/fall_heuristic.py) against `random`, seats rotated, 95% Wilson intervals.
"""),
    ("code", '''\
from training.tournament import run_tournament

t0 = time.perf_counter()
results = run_tournament(["heuristic", "random"], 2, GAMES, seed=SEED, workers=1, out=OUT, progress=False,
                         charts=False, game="fall_of_the_mountain_king")
print(f"{len(results['games'])} games in {time.perf_counter() - t0:.0f} s")
stats = results["agents"]
order = sorted(stats, key=lambda a: -stats[a]["win_rate"])
for a in order:
    lo, hi = stats[a]["win_rate_ci95"]
    print(f"{a:10s} win rate {stats[a]['win_rate']:6.1%} ({lo:.0%}-{hi:.0%})  honor {stats[a]['mean_honour']:5.1f}")
fig, ax = plt.subplots(figsize=(4.5, 3.5))
rates = np.array([stats[a]["win_rate"] for a in order])
ci = np.array([stats[a]["win_rate_ci95"] for a in order])
ax.bar(order, rates, yerr=[rates - ci[:, 0], ci[:, 1] - rates], capsize=6, color="tab:green")
ax.set_ylim(0, 1)
ax.set_ylabel("win rate (95% CI)")
ax.set_title(f"Fall of the Mountain King, 2 players, {len(results['games'])} games")
plt.show()
assert len(results["games"]) == GAMES and set(stats) == {"heuristic", "random"}
print("checks passed")
'''),
)

NOTEBOOKS = {
    "01_quickstart.ipynb": QUICKSTART,
    "02_train_ppo.ipynb": TRAIN,
    "03_tournament.ipynb": TOURNAMENT,
    "04_cave_troll.ipynb": CAVE_TROLL,
    "05_fall_of_the_mountain_king.ipynb": FALL,
}


def render(name: str) -> str:
    """The text of notebook ``name`` as this file defines it."""
    return nbformat.writes(notebook(NOTEBOOKS[name])) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name in NOTEBOOKS:
        path, text = HERE / name, render(name)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print("wrote", path)
    if stale:
        print(f"stale notebooks: {', '.join(stale)}; run python notebooks/build_notebooks.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
