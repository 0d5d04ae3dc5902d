"""*Cave Troll*, version 0 of its environment (PettingZoo's ``classic/<game>_vN.py`` convention):
``mk_env.cave_troll_v0.env(num_players=4)`` (safety wrappers) and ``raw_env(...)``; see
docs/cave-troll/environment.md. Importing this module registers ``cave_troll_v0`` with PettingZoo's registry
(``pettingzoo.make("aec", "cave_troll_v0", num_players=3)``)."""

from mk_env.cave_troll.env.aec import env, raw_env
from mk_env.cave_troll.env.single_seat import single_seat_env
from mk_env.cave_troll.env.version import ENV_NAME, layout_fingerprint, register_pettingzoo

register_pettingzoo()

__all__ = ["ENV_NAME", "env", "layout_fingerprint", "raw_env", "single_seat_env"]
