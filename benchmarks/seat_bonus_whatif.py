"""What if the third seat of 3 also took the unseen troll's starting resources? A counterfactual of the
rules, never a game option: the rulebook (*Player setup*) gives the second and third players the hand
troll's starting resources and only the fourth and fifth the unseen troll's as well, so no content pack can
give the third seat of 3 more than the second. This script measures how far such a rule-level bonus would
move the 3-player table (issue 16: the third seat wins about 26% of heuristic self-play against a fair
33.3%), to tell whether the content could ever close that gap.

The games are ``mk-env balance``'s (its schedule and seeds, gates drawn, heuristic self-play), played with
the bonus rule patched in every worker; ``--printed`` plays the printed rule instead (the control).

    python benchmarks/seat_bonus_whatif.py --games 1000 --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules import setup
from mk_env.mountain_king.rules.content import RESOURCES
from mk_env.mountain_king.rules.native import set_default_backend
from training.balance import balance_game
from training.balance_report import report
from training.tournament_schedule import schedule

PLAYERS = 3
#: the seat given the extra bonus (0-based: the third seat)
THIRD = 2
_printed = setup._grant_starting_resources


def _with_unseen_bonus(st: Any) -> None:
    """The printed bonus, then the unseen troll's starting resources for the third seat of 3."""
    extra = list(st.draft_deck[THIRD]) if st.num_players == PLAYERS and not st.game.team_mode else []
    _printed(st)
    for card in extra:
        for res in st.game.cards[card].starting:
            eco.gain(st, THIRD, RESOURCES.index(res), 1)


def _use_rule(printed: bool) -> None:
    """Worker initialiser: the printed bonus or the counterfactual one (on the Python engine: the compiled one
    keeps the printed rule)."""
    set_default_backend(None if printed else "python")
    setup._grant_starting_resources = _printed if printed else _with_unseen_bonus


def _play(job: dict[str, Any]) -> dict[str, Any]:
    return balance_game(job, {})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1, help="the schedule's seed, as mk-env balance --seed")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--printed", action="store_true", help="the printed bonus (the control)")
    a = p.parse_args()
    jobs = schedule(["heuristic"], PLAYERS, a.games, a.seed)
    with ProcessPoolExecutor(a.workers, initializer=_use_rule, initargs=(a.printed,)) as pool:
        games = list(pool.map(_play, jobs, chunksize=4))
    rule = "printed bonus" if a.printed else "third seat also takes the unseen troll's starting resources"
    print(f"{PLAYERS} players, {a.games} games, mk-env balance schedule seed {a.seed}, heuristic self-play, "
          f"gates drawn; {rule}")
    r = report(games, PLAYERS, 0.05)
    for seat, row in r["per_seat"].items():
        lo, hi = row["win_rate_ci95"]
        m_lo, m_hi = row["honour_margin_ci95"]
        print(f"seat {seat}: wins {100 * row['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}), honour "
              f"{row['mean_honour']:.1f}, margin over the others {row['honour_margin']:+.2f} "
              f"+- {(m_hi - m_lo) / 2:.2f}")
    print(r["verdict"])


if __name__ == "__main__":
    main()
