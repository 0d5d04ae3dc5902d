"""mk_env: *In the Hall of the Mountain King* as a reinforcement-learning environment.

``mk_env.rules`` is the pure rules engine; the PettingZoo environment is ``mk_env.env(...)``.
"""

__version__ = "0.1.0"
