"""Shared by every test folder. pytest puts this folder on ``sys.path`` (it holds a conftest and no
``__init__``), so the tests in ``tests/rules/``, ``tests/env/``, ... import ``rules_helpers`` as the
top-level ones do."""

import pytest


@pytest.fixture(scope="module")
def python_engine():
    """The games of a test module on the Python engine (the reference), for tests of its own memos and
    representation; the compiled engine's parity is tests/native/'s."""
    from mk_env.mountain_king.rules.native import set_default_backend
    set_default_backend("python")
    yield
    set_default_backend(None)
