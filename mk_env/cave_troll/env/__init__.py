"""The PettingZoo environment of *Cave Troll*: :mod:`.aec` (``env``, ``raw_env``; its docstring is the
documentation page), :mod:`.observation` (the encoder), :mod:`.single_seat` (the Gymnasium view),
:mod:`.render` (ansi and rgb_array). The versioned entry point is :mod:`mk_env.cave_troll_v0`. Importing this
package imports nothing else, so ``import mk_env`` can read :mod:`.version` to register the environment.
"""
