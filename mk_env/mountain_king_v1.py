"""*In the Hall of the Mountain King*, version 1 of its environment (PettingZoo's ``classic/<game>_vN.py``
convention): ``mk_env.mountain_king_v1.env(num_players=4)`` (safety wrappers), ``raw_env(...)`` and
``single_seat_env(...)``; the same factories as ``mk_env.env``, ``mk_env.raw_env`` and
``mk_env.single_seat_env``. See docs/environment.md (its Version history says what changed from v0).
``import mk_env`` registers ``mountain_king_v1``."""

from mk_env.mountain_king.env.aec import env, raw_env
from mk_env.mountain_king.env.single_seat import single_seat_env
from mk_env.mountain_king.env.version import ENV_NAME, layout_fingerprint

__all__ = ["ENV_NAME", "env", "layout_fingerprint", "raw_env", "single_seat_env"]
