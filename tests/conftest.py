"""Shared by every test folder. pytest puts this folder on ``sys.path`` (it holds a conftest and no
``__init__``), so the tests in ``tests/rules/``, ``tests/env/``, ... import ``rules_helpers`` as the
top-level ones do."""
