"""*Fall of the Mountain King*, version 0 of its environment (PettingZoo's ``classic/<game>_vN.py`` convention):
``mk_env.fall_of_the_mountain_king_v0.env(num_players=4)`` (safety wrappers, 2-5 players) and ``raw_env(...)``;
see docs/fall-of-the-mountain-king/environment.md. Importing this module registers
``fall_of_the_mountain_king_v0`` with PettingZoo's registry."""

from mk_env.fall_of_the_mountain_king.env.aec import env, raw_env
from mk_env.fall_of_the_mountain_king.env.single_seat import single_seat_env
from mk_env.fall_of_the_mountain_king.env.version import ENV_NAME, layout_fingerprint, register_pettingzoo

register_pettingzoo()

__all__ = ["ENV_NAME", "env", "layout_fingerprint", "raw_env", "single_seat_env"]
