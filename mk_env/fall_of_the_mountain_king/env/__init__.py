"""The PettingZoo environment of *Fall of the Mountain King*: :mod:`.aec` (``env``, ``raw_env``; its docstring is
the documentation page), :mod:`.observation` (the encoder), :mod:`.single_seat` (the Gymnasium view),
:mod:`.render` (ansi). The versioned entry point is :mod:`mk_env.fall_of_the_mountain_king_v0`. Importing this
package imports nothing else, so ``import mk_env`` can read :mod:`.version` to register the environment.
"""
