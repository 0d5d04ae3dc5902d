"""The seat's view of a game: the suite's :class:`~mk_env.core.view.PlayerView`, named here as before."""

from mk_env.core.view import PlayerView

__all__ = ["PlayerView"]
