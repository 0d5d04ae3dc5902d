"""Stopping a training run cleanly: on SIGINT/SIGTERM, and when an env worker process dies.

:class:`StopRequest` turns the first SIGINT (Ctrl-C) or SIGTERM into a flag that the training loop
reads after each step (it then saves a checkpoint at the end of the last completed rollout and
stops); a second signal acts as usual (KeyboardInterrupt, or termination). :func:`dead_workers`
names the ``SubprocVecEnv`` workers that have exited (killed for memory, crashed), and
:func:`close_vec_env` closes a vectorised env even when some of its workers are gone.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: what the parent sees when a worker's end of the pipe is gone
WORKER_LOST = (EOFError, BrokenPipeError, ConnectionResetError)


class TrainingStopped(RuntimeError):
    """Training stopped before its goal (a signal or a dead worker) after saving ``checkpoint``."""

    def __init__(self, message: str, checkpoint: Any, signum: int | None = None):
        super().__init__(message)
        self.checkpoint, self.signum = checkpoint, signum

    @property
    def exit_code(self) -> int:
        """128 + the signal's number (130 for SIGINT, 143 for SIGTERM), 1 for a dead worker."""
        return 128 + self.signum if self.signum else 1


class StopRequest:
    """A context manager: while inside, SIGINT/SIGTERM set :attr:`signum` instead of stopping.

    Handlers can only be set from the main thread; elsewhere signals keep their usual effect."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> "StopRequest":
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._restore()

    def _handle(self, signum: int, frame: Any) -> None:
        """Note the signal; a second one gets the handlers of before (no printing here: a signal
        handler may run in the middle of another print)."""
        self.signum = signum
        self._restore()

    def _restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous = {}

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else ""


def dead_workers(venv: Any, wait: float = 0.0) -> list[str]:
    """The exited workers of a ``SubprocVecEnv`` (none for a ``DummyVecEnv``), e.g.
    ``"env worker 1 (pid 4242) killed by SIGKILL"``; polls up to ``wait`` seconds for one to show
    (a worker's pipe can close a moment before its exit is visible)."""
    deadline = time.monotonic() + wait
    while True:
        dead = [_describe(i, p) for i, p in enumerate(getattr(venv, "processes", []))
                if not p.is_alive()]
        if dead or time.monotonic() >= deadline:
            return dead
        time.sleep(0.05)


def _describe(index: int, process: Any) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        how = f"killed by {signal.Signals(-code).name}"
    else:
        how = f"exited with code {code}"
    return f"env worker {index} (pid {process.pid}) {how}"


def close_vec_env(venv: Any) -> None:
    """``venv.close()``; when a worker is gone, the others are terminated instead of waited on."""
    try:
        venv.close()
    except WORKER_LOST + (OSError,):
        for process in getattr(venv, "processes", []):
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)
        venv.closed = True
