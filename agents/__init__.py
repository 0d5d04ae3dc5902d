"""Baseline agents behind one small protocol (imports mk_env only)."""
