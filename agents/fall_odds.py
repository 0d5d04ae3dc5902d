"""The odds of a battle, for the Fall of the Mountain King heuristic (:mod:`agents.fall_heuristic`).

"When you advance into an overrun cavern, do battle. Reveal the strengths of all the gnomes in the cavern":
until then a gnome's strength is facedown, known only to a seat that peeked at it (rules text, Advance and
Gnome actions). A valuation on one determinized copy sees the strength that copy dealt as certain, and a seat
choosing among advances then picks the ones whose deal happened to be weakest (the winner's curse): in
heuristic self-play every battle was fought with a single troll against a gnome its copy had dealt strength 1,
and lost (5 battles, 5 repulses in 5 3-player games). Here instead are the totals the gnomes of a battle may
have, each with its chance given what the seat knows (the strengths it cannot see are those still unseen
among the 10 of each strength, :func:`~mk_env.fall_of_the_mountain_king.rules.knowledge.gnome_strength`), and
a way to deal a copy one of them without changing what is left unseen.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import comb

from mk_env.fall_of_the_mountain_king.rules.knowledge import UNKNOWN, gnome_strength
from mk_env.fall_of_the_mountain_king.rules.state import FallState


def unseen(st: FallState, p: int) -> list[int]:
    """The gnomes whose strength seat ``p`` does not know (anywhere: map, supply, by the swarm)."""
    return [g for g in range(len(st.gnome_at)) if gnome_strength(st, p, g) == UNKNOWN]


def newly_seen(before: FallState, after: FallState, p: int) -> list[int]:
    """The gnomes a battle between ``before`` and ``after`` revealed that ``p`` did not know before."""
    return [g for g, (was, now) in enumerate(zip(before.gnome_public, after.gnome_public))
            if now and not was and g not in before.known_gnomes[p]]


def total_odds(st: FallState, p: int, gnomes: list[int]) -> list[tuple[float, tuple[int, ...]]]:
    """Each total strength ``gnomes`` (unknown to ``p``) may have: its chance, drawing them from the strengths
    ``p`` has not seen, and the likeliest strengths giving it (one per gnome). Ordered by total."""
    pool = Counter(st.strength[g] for g in unseen(st, p))
    ways = comb(sum(pool.values()), len(gnomes))
    by_total: dict[int, list] = {}
    for combo in combinations_with_replacement(sorted(pool), len(gnomes)):
        chance = 1.0
        for value, k in Counter(combo).items():
            chance *= comb(pool[value], k)
        chance /= ways
        if chance <= 0:
            continue
        row = by_total.setdefault(sum(combo), [0.0, combo, 0.0])
        row[0] += chance
        if chance > row[2]:
            row[1], row[2] = combo, chance
    return [(row[0], row[1]) for _, row in sorted(by_total.items())]


def deal(st: FallState, p: int, gnomes: list[int], strengths: tuple[int, ...]) -> None:
    """Give ``gnomes`` the ``strengths`` on the copy ``st``, each swapped with another gnome ``p`` has not
    seen, so the strengths left unseen stay those ``p`` may expect (``strengths`` drawn from them)."""
    fixed: set[int] = set()
    pool = unseen(st, p)
    for g, value in zip(gnomes, strengths):
        if st.strength[g] != value:
            other = next(h for h in pool if h not in fixed and h != g and st.strength[h] == value)
            st.strength[g], st.strength[other] = value, st.strength[g]
        fixed.add(g)
