"""Golden playthroughs: seeded random games recorded once, replayed by ``tests/test_golden_games.py``.

Two records of the same games, in ``tests/data/golden/``:

* ``digests.json`` -- for each game of :data:`GAMES`, the action sequence and, after every decision, a
  digest of the state's ``to_json()``, of the legal actions, of the acting player's observation
  (``Observer(game).encode(state, p)``: every array's float32 bytes) and of every other player's
  observation. Recorded before the speed work of issue 8; a refactor must replay it bit for bit.
* ``<label>.txt`` -- for the games of :data:`TRANSCRIPTS`, a transcript a person reads in a diff (as
  OpenSpiel keeps its playthroughs): per decision the acting seat, the kind of decision, the legal
  actions' descriptions by block (``layout.describe``; a big block shows its first and last), the action
  chosen and every seat's honour after it.

Also, in ``tests/data/ppo_default_games.json``, every action of four games of the shipped policy
``ppo:default`` against random (:func:`ppo_default_game`), which ``tests/agents/test_hostile_models.py``
replays: the weights, the safe loader and the observation together.

Regenerate them all, only when behaviour is meant to change (then review the transcripts' diff)::

    python -m tests.golden --update

Without ``--update`` the command compares and prints the first differing lines of each transcript.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import pathlib
import sys
from collections.abc import Iterator

import numpy as np

from mk_env.mountain_king.env.observation import Observer
from mk_env.mountain_king.rules import Game

FOLDER = pathlib.Path(__file__).parent / "data" / "golden"
DIGESTS = FOLDER / "digests.json"
#: (label, game options, seed, decision limit): every player count, team play, the other board side
GAMES = [
    ("2p", {"num_players": 2}, 11, 400),
    ("3p_autumn", {"num_players": 3}, 12, 400),
    ("4p", {"num_players": 4}, 13, 400),
    ("5p", {"num_players": 5}, 14, 400),
    ("4p_team", {"num_players": 4, "team_mode": True}, 15, 400),
    ("2p_autumn_no_dup", {"num_players": 2, "board_side": "autumn", "workshops": "no_duplicates"}, 16, 400),
    ("4p_full", {"num_players": 4}, 17, 100000),
]
#: the games written out as readable transcripts: 2, 3, 4 (a whole game), 5 players and team play
TRANSCRIPTS = ("2p", "3p_autumn", "4p_full", "5p", "4p_team")
PPO_GAMES = FOLDER.parent / "ppo_default_games.json"
#: (seed, seat of ppo:default) of its recorded 2-player games against random
PPO_SEATS = ((0, 0), (0, 1), (1, 0), (1, 1))
PPO_ABOUT = ("ppo:default (agents/checkpoints/default.safetensors) against random, both seats, every action "
             "of each game under {env}. Recorded anew for mountain_king_v1 (its rules changed; v2's "
             "change left these games as they were); under v0 the games were recorded with the SB3 zip "
             "before its conversion and the safe file replayed them "
             "action for action until v1's rule changes (commit 6977851); the file's weights are still those bytes")
DIGEST_CHARS = 16
#: a block with more legal actions than this shows its first and last description and the count
SHOWN_PER_BLOCK = 3


def random_game(options: dict, seed: int, limit: int,
                backend: str | None = None) -> Iterator[tuple[Game, object, int | None]]:
    """Play a seeded random game (trades mostly avoided, so that games dig, build and recruit) on ``backend``
    (the default: the compiled engine where built).

    Yields ``(game, state, action)`` before each decision is applied, then ``(game, final state, None)``;
    the state changes once the caller asks for the next item."""
    game = Game(**options, backend=backend)
    rng = np.random.default_rng(seed)
    st = game.new_initial_state(seed)
    trade = game.layout.offset["trade"], game.layout.offset["trade"] + game.layout.sizes["trade"]
    played = 0
    while not st.is_terminal() and played < limit:
        legal = st.legal_actions()
        non_trade = legal[(legal < trade[0]) | (legal >= trade[1])]
        pool = non_trade if len(non_trade) and rng.random() < 0.9 else legal
        a = int(pool[rng.integers(len(pool))])
        yield game, st, a
        st.apply(a)
        played += 1
    yield game, st, None


# -- digests -------------------------------------------------------------------------------------------
def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()[:DIGEST_CHARS]


def observation_digest(obs: dict[str, np.ndarray]) -> str:
    """Digest of an observation: keys, shapes, dtypes and float32 bytes, in key order."""
    h = hashlib.blake2b(digest_size=8)
    for key in sorted(obs):
        arr = obs[key]
        h.update(f"{key}{arr.shape}{arr.dtype}".encode())
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()[:DIGEST_CHARS]


def play(options: dict, seed: int, limit: int, backend: str | None = None) -> dict:
    """One game of :data:`GAMES` as recorded in ``digests.json``: the actions and per decision [state
    digest, legal digest, acting observation digest, others' observations digest]."""
    actions, steps = [], []
    observer = None
    for game, st, a in random_game(options, seed, limit, backend):
        observer = observer or Observer(game)
        seat = max(st.current_player(), 0)
        others = hashlib.blake2b(digest_size=8)
        for q in range(game.num_players):
            if q != seat:
                others.update(observation_digest(observer.encode(st, q)).encode())
        steps.append([_digest(st.to_json().encode()), _digest(st.legal_actions().tobytes()),
                      observation_digest(observer.encode(st, seat)), others.hexdigest()[:DIGEST_CHARS]])
        if a is not None:
            actions.append(a)
    return {"options": options, "seed": seed, "limit": limit, "actions": actions, "steps": steps}


# -- transcripts ---------------------------------------------------------------------------------------
def _legal_lines(game: Game, legal: np.ndarray) -> list[str]:
    """One line per block of the legal set: its count and its actions' descriptions (the first only when
    there are more than :data:`SHOWN_PER_BLOCK`); pass is one word."""
    layout = game.layout
    by_block: dict[str, list[int]] = {}
    for a in legal.tolist():
        by_block.setdefault(f"{layout.decode(a)[0]}", []).append(a)
    lines = []
    for block, acts in by_block.items():
        if block == "pass":
            lines.append("  pass")
        elif len(acts) <= SHOWN_PER_BLOCK:
            lines.append(f"  {block} x{len(acts)}: " + "; ".join(layout.describe(a) for a in acts))
        else:
            lines.append(f"  {block} x{len(acts)}: {layout.describe(acts[0])}; ... {len(acts) - 1} more")
    return lines


def transcript(label: str) -> str:
    """The readable playthrough of game ``label`` of :data:`GAMES`."""
    _, options, seed, limit = next(g for g in GAMES if g[0] == label)
    out = [f"# golden playthrough {label}: Game(**{options}), seed {seed}, at most {limit} decisions",
           "# per decision: [number] seat, decision kind > the action chosen; then the legal actions by block;",
           "# 'honour now' when a seat's honour changed (each seat's score if the game ended there)", ""]
    shown = ""
    for n, (game, st, a) in enumerate(random_game(options, seed, limit)):
        honour = " ".join(str(st.score_breakdown(p)["total"]) for p in range(game.num_players))
        if n and honour != shown:
            out.append(f"  honour now {honour}")
        shown = honour
        if a is None:
            out.append(f"game over, ranks {st.ranks()}" if st.is_terminal() else f"stopped after {n} decisions")
            break
        chosen = "pass" if a == 0 else game.layout.describe(a)
        out.append(f"[{n}] seat {st.current_player()} {st.decision_kind()} > {chosen}")
        out += _legal_lines(game, st.legal_actions())
    return "\n".join(out) + "\n"


# -- the shipped policy's games -------------------------------------------------------------------------
def ppo_default_game(seed: int, seat: int) -> dict:
    """A 2-player game of ``ppo:default`` in ``seat`` against random, each agent seeded as ``mk-env play``
    seeds it: ``{"seed", "ppo_seat", "actions", "ranks"}`` (needs the [train] extra)."""
    from agents import make_agent
    from mk_env.core.view import PlayerView
    from training.play import agent_rng, make_game

    agent, rand = make_agent("ppo:default"), make_agent("random")
    state = make_game(2).new_initial_state(seed)
    agents = [rand, rand]
    agents[seat] = agent
    rngs, views = [agent_rng(seed, s) for s in range(2)], [PlayerView(state, s) for s in range(2)]
    actions = []
    while not state.is_terminal():
        p = state.current_player()
        actions.append(int(agents[p].act(views[p], rngs[p])))
        state.apply(actions[-1])
    return {"seed": seed, "ppo_seat": seat, "actions": actions, "ranks": [int(r) for r in state.ranks()]}


def update() -> None:
    """Write ``digests.json``, every transcript and the shipped policy's games anew."""
    from mk_env.mountain_king.env.version import ENV_NAME

    FOLDER.mkdir(parents=True, exist_ok=True)
    digests = {label: play(options, seed, limit) for label, options, seed, limit in GAMES}
    DIGESTS.write_text(json.dumps(digests, separators=(",", ":")) + "\n")
    for label in TRANSCRIPTS:
        (FOLDER / f"{label}.txt").write_text(transcript(label))
    games = [ppo_default_game(seed, seat) for seed, seat in PPO_SEATS]
    PPO_GAMES.write_text(json.dumps({"about": PPO_ABOUT.format(env=ENV_NAME), "games": games}) + "\n")
    print(f"wrote {DIGESTS}, {len(TRANSCRIPTS)} transcripts in {FOLDER} and {PPO_GAMES}", file=sys.stderr)


def transcript_diff(label: str, lines: int = 40) -> str:
    """The unified diff (its first ``lines`` lines) of the stored transcript against a replay; "" if none."""
    path = FOLDER / f"{label}.txt"
    stored = path.read_text().splitlines() if path.exists() else []
    diff = difflib.unified_diff(stored, transcript(label).splitlines(), str(path), "replayed now", lineterm="")
    return "\n".join(list(diff)[:lines])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__.split("\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the digests and the transcripts")
    args = parser.parse_args(argv)
    if args.update:
        update()
        return 0
    diffs = [d for d in map(transcript_diff, TRANSCRIPTS) if d]
    print("\n\n".join(diffs) or "the transcripts replay unchanged (the digests: pytest tests/test_golden_games.py)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
