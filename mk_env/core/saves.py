"""Reading a saved state's parts every game shares: the generator state. Whatever is wrong with it (not an
object, another bit generator, numbers out of range or of thousands of digits) is a
:class:`~mk_env.core.errors.StateError` naming the field, never numpy's raw ``OverflowError``."""

from __future__ import annotations

from typing import Any

import numpy as np

from mk_env.core.errors import StateError


def read_rng_state(value: Any, field: str = "rng") -> dict:
    """``value`` as a PCG64 generator state (the dict ``bit_generator.state`` gives), checked by numpy."""
    try:
        bits = np.random.PCG64()
        bits.state = value
        return bits.state
    except Exception as e:  # noqa: BLE001 - numpy raises TypeError, ValueError, KeyError or OverflowError here
        raise StateError(f"saved state field {field!r} is not a PCG64 state "
                         f"({type(e).__name__}: {str(e)[:100]})") from None
