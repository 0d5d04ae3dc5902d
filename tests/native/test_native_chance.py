"""The compiled engine's chance is numpy's, bit for bit (mk_env/core/native/chance.hpp): PCG64 seeded through
SeedSequence, ``Generator.integers(n)`` (bounded Lemire, 32- and 64-bit) and ``Generator.permutation(n)``
(masked interval draws), from the compiled generator and through a Python generator's own bit generator."""

from __future__ import annotations

import numpy as np
import pytest

_native = pytest.importorskip("mk_env.mountain_king.rules._native", reason="the compiled engine is not built")

HIGHS = [1, 2, 3, 5, 7, 10, 100, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 3, 2**63, 2**62 + 12345, 6, 1]


@pytest.mark.parametrize("seed", [0, 1, 7, 123456789, 2**32 + 5, 2**63 - 1, 2**64 - 1])
def test_seeding_is_seed_sequence(seed):
    state = np.random.PCG64(seed).state["state"]
    assert _native.seeded_state(seed) == (state["state"], state["inc"])


@pytest.mark.parametrize("seed", range(12))
def test_compiled_generator_draws_as_numpy(seed):
    g = np.random.default_rng(seed)
    g.integers(2**32 - 1)  # leaves a buffered 32-bit half (has_uint32) in some states
    st = g.bit_generator.state
    tup = (st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"])
    ints, perm = _native.pcg64_draws(tup, HIGHS, 37)
    assert ints == [int(g.integers(h)) for h in HIGHS]
    assert perm == g.permutation(37).tolist()


@pytest.mark.parametrize("seed", range(12))
def test_python_generator_advances_as_numpy(seed):
    """Drawn through a Python Generator's capsule (determinize does): the same values, the same state after."""
    a, b = np.random.default_rng(seed), np.random.default_rng(seed)
    assert _native.draw_integers(a, HIGHS) == [int(b.integers(h)) for h in HIGHS]
    for n in (0, 1, 2, 3, 15, 55, 300):
        assert _native.draw_permutation(a, n) == b.permutation(n).tolist()
    assert a.bit_generator.state == b.bit_generator.state
