"""Training, evaluation, tournaments and the ``mk-env`` command line (top layer: imports agents, mk_env)."""
