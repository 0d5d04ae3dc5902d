"""Whether the compiled agents can equal the Python ones bit for bit on this machine: the compiled sums add with
fused multiply-adds because numpy's ``@`` of short float64 vectors (OpenBLAS's ``ddot``) does so on this project's
machines (docs/native.md). A BLAS that does not fuse rounds the last bits apart: then values are compared to 1e-9
and whole search roots not at all."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest


def numpy_dot_fuses() -> bool:
    """Whether numpy's ``@`` of short float64 vectors adds with fused multiply-adds, as the compiled sums do
    (OpenBLAS's kernels on this project's machines; docs/native.md): only then are the two bit for bit equal."""
    rng = np.random.default_rng(0)
    for _ in range(50):
        w, x = rng.random(7), rng.integers(0, 12, 7).astype(np.int32)
        fused = 0.0
        for a, b in zip(w.tolist(), x.tolist()):
            fused = float(Fraction(a) * b + Fraction(fused))
        if float(w @ x) != fused:
            return False
    return True


#: bit for bit where numpy's BLAS fuses (else equal to the last few bits: a BLAS that does not fuse rounds apart)
EXACT = numpy_dot_fuses()


def same(a: float | np.ndarray, b: float | np.ndarray) -> bool:
    """Equal bit for bit where the BLAS fuses, else to 1e-9 (values, lists of action numbers alike)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    return bool(np.array_equal(a, b)) if EXACT else bool(np.allclose(a, b, rtol=0, atol=1e-9))


needs_exact = pytest.mark.skipif(not EXACT, reason="numpy's BLAS does not fuse multiply-adds here: the compiled "
                                                   "and Python agents agree only to the last bits")
