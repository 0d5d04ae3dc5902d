"""Worker processes that may die: a small process pool that knows which job each worker holds.

``multiprocessing.Pool`` waits forever when one of its workers is killed (out of memory, SIGKILL): the
job that worker held never comes back. :class:`WorkerPool` hands each worker one job at a time and
waits on the workers' process sentinels beside their result pipes, so a death is seen at once, with
the job the worker held and how it died (exit code or signal). The pool starts a replacement worker
and hands the death to the caller in place of the job's result (a :class:`WorkerDeath`); the caller
decides whether to submit the job again or to stop (:class:`WorkerDied`).

An exception raised by the job function inside a worker is raised again in the parent (the worker's
traceback attached as a note), as ``multiprocessing.Pool`` does. Workers ignore Ctrl-C (SIGINT): the
parent handles it, and the pool stops every worker when it closes.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import traceback
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any


class WorkerDied(RuntimeError):
    """A run stopped because a worker process died on a job (twice, or where a retry makes no
    sense); the message says which job, which process and how it died, and how to go on."""


@dataclass(frozen=True)
class WorkerDeath:
    """A worker process that died while it held the job ``key``."""

    key: Hashable
    pid: int
    exitcode: int | None

    def cause(self) -> str:
        """How it died, in words: ``killed by SIGKILL`` or ``exited with code 1``."""
        code = self.exitcode
        if code is None:
            return "vanished"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exited with code {code}"

    def describe(self, job: str) -> str:
        """One line: ``worker process 123 died (killed by SIGKILL) while playing game 5``."""
        return f"worker process {self.pid} died ({self.cause()}) while {job}"


def _serve(fn: Callable[[Any], Any], conn: Connection) -> None:
    """A worker's loop: receive ``(key, job)``, send back ``("ok", key, fn(job))`` or the error; stop
    on ``None`` or when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        key, job = message
        try:
            reply: tuple = ("ok", key, fn(job))
        except Exception as e:  # noqa: BLE001 - raised again in the parent
            reply = ("error", key, e, traceback.format_exc())
        try:
            conn.send(reply)
        except Exception:  # noqa: BLE001 - an unpicklable result or error: send its text
            conn.send(("error", key, RuntimeError(f"job {key!r}: {reply[2]!r} could not be sent back"),
                       traceback.format_exc()))


class _Worker:
    """One worker process, its end of the pipe and the job it holds (if any)."""

    def __init__(self, ctx: Any, fn: Callable[[Any], Any]) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_serve, args=(fn, child), daemon=True)
        self.process.start()
        child.close()  # only the worker holds its end: a dead worker reads as end of file
        self.holding: tuple[Hashable, Any] | None = None

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the worker to stop; terminate it if it holds a job or does not stop in time."""
        if self.process.is_alive():
            if self.holding is None:
                try:
                    self.conn.send(None)
                except OSError:
                    pass
            else:
                self.process.terminate()
            self.process.join(timeout)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(timeout)
        self.conn.close()


class WorkerPool:
    """``workers`` processes running ``fn`` (a top-level, picklable function of one argument) on
    submitted jobs; :meth:`results` yields ``(key, fn(job))`` as jobs finish, or ``(key,
    WorkerDeath)`` for a job whose worker died (a new worker takes its place). Use it as a context
    manager: leaving it stops every worker."""

    def __init__(self, fn: Callable[[Any], Any], workers: int, start_method: str | None = None) -> None:
        if workers < 1:
            raise ValueError(f"workers={workers}: need at least 1 worker process")
        self._ctx = mp.get_context(start_method)
        self._fn = fn
        self._queue: deque[tuple[Hashable, Any]] = deque()
        self._workers = [_Worker(self._ctx, fn) for _ in range(workers)]

    def submit(self, key: Hashable, job: Any) -> None:
        """Queue ``job``; its result comes back under ``key``."""
        self._queue.append((key, job))

    def cancel_pending(self) -> list[Hashable]:
        """Drop the queued jobs no worker has started; their keys."""
        keys = [key for key, _ in self._queue]
        self._queue.clear()
        return keys

    def results(self) -> Iterator[tuple[Hashable, Any]]:
        """``(key, result or WorkerDeath)`` for every submitted job, in the order they finish
        (jobs submitted while iterating are included)."""
        while True:
            self._dispatch()
            busy = [w for w in self._workers if w.holding is not None]
            if not busy:
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for w in busy:
                if w.conn in ready or w.process.sentinel in ready:
                    outcome = self._collect(w)
                    if outcome is not None:
                        yield outcome

    def _dispatch(self) -> None:
        """Give each idle worker a queued job (replacing workers that died while idle)."""
        for i, w in enumerate(self._workers):
            if not self._queue:
                return
            if w.holding is not None:
                continue
            if not w.process.is_alive():
                w.stop()
                w = self._workers[i] = _Worker(self._ctx, self._fn)
            key, job = self._queue.popleft()
            try:
                w.conn.send((key, job))
            except OSError:  # it died just now, before taking the job: the job goes back in front
                self._queue.appendleft((key, job))
                continue
            w.holding = (key, job)

    def _collect(self, w: _Worker) -> tuple[Hashable, Any] | None:
        """The outcome of the job ``w`` holds: its result, its error raised again, or its death."""
        key = w.holding[0]
        try:
            reply = w.conn.recv() if w.conn.poll() else None
        except (EOFError, OSError):  # its end of the pipe closed: it is dying
            reply = None
            w.process.join(5.0)
        if reply is None:
            if w.process.is_alive():  # woken by nothing it sent: wait again
                return None
            w.process.join()
            death = WorkerDeath(key, w.process.pid, w.process.exitcode)
            w.holding = None
            w.stop()
            self._workers[self._workers.index(w)] = _Worker(self._ctx, self._fn)
            return key, death
        w.holding = None
        if reply[0] == "error":
            _, _, error, trace = reply
            error.add_note(f"in worker process {w.process.pid}:\n{trace}")
            raise error
        return key, reply[2]

    def close(self) -> None:
        """Stop every worker (a worker that holds a job is terminated)."""
        for w in self._workers:
            w.stop()
        self._workers = []
        self._queue.clear()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
