"""Final leftover sets (rulebook, *Final scoring*: any 4:1 trades may be made to form sets of 3): the
engine's count (``economy.best_leftover_sets``, remainders memoised) against a search over every
sequence of trades."""

from __future__ import annotations

import itertools
from functools import lru_cache

from mk_env.mountain_king.rules.economy import best_leftover_sets


@lru_cache(maxsize=None)
def _search(counts: tuple[int, ...], set_size: int, rate: int) -> int:
    """Most sets over every sequence of trades (give ``rate`` tokens of any kinds, gain one of any kind)."""
    best = sum(c // set_size for c in counts)
    kinds = range(len(counts))
    for give in itertools.combinations_with_replacement(kinds, rate):
        left = list(counts)
        for k in give:
            left[k] -= 1
        if min(left) < 0:
            continue
        for gain in kinds:
            after = left.copy()
            after[gain] += 1
            best = max(best, _search(tuple(sorted(after)), set_size, rate))
    return best


def test_leftover_sets_match_a_search_over_every_sequence_of_trades():
    for counts in itertools.product(range(6), repeat=3):
        for set_size, rate in ((3, 4), (2, 3), (3, 3)):
            want = _search(tuple(sorted(counts)), set_size, rate)
            assert best_leftover_sets(list(counts) + [0] * 4, set_size, rate) == want, (counts, set_size, rate)
