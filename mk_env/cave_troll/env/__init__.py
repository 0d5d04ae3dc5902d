"""The PettingZoo environment of *Cave Troll*: :mod:`.aec` (``env``, ``raw_env``; its docstring is the
documentation page), :mod:`.observation` (the encoder), :mod:`.single_seat` (the Gymnasium view),
:mod:`.render` (ansi and rgb_array). The versioned module ``mk_env.cave_troll_v<N>`` (:mod:`mk_env.versioned`) names the
same factories. The names below are imported on first use, so ``import mk_env`` can read :mod:`.version` to
register the environment without importing Gymnasium or PettingZoo."""

from mk_env.core.env.lazy import lazy_exports

#: public name -> the module of this package that defines it (imported on first use)
_EXPORTS = {"ENV_NAME": "version", "ENV_VERSION": "version", "layout_fingerprint": "version",
            "env": "aec", "raw_env": "aec", "single_seat_env": "single_seat"}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
