"""The PettingZoo environment of *Take-away*: :mod:`.aec` (``env``, ``raw_env``), :mod:`.observation`,
:mod:`.single_seat` (the Gymnasium view), :mod:`.render`, :mod:`.replay`; imported on first use."""

from mk_env.core.env.lazy import lazy_exports

_EXPORTS = {"ENV_NAME": "version", "ENV_VERSION": "version", "layout_fingerprint": "version",
            "env": "aec", "raw_env": "aec", "single_seat_env": "single_seat"}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
