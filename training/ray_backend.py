"""Independent jobs (tournament games) on Ray: local Ray by default, a cluster with ``address``.

``run_jobs_ray(fn, jobs)`` returns ``[fn(job) for job in jobs]``, in job order, computed as Ray tasks.
``fn`` must be a top-level (picklable) function of one argument and pure in its argument (a game
is fully determined by its seed), so the results equal the local run's for the same seed.
:func:`iter_jobs_ray` yields ``(position, result)`` as jobs finish, for progress bars and
append-as-you-go logs. Ray runs a task again when its worker dies (three times by default); a job
whose worker still dies ends :func:`iter_jobs_ray` with :class:`~training.workers.WorkerDied`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .workers import WorkerDied


def _ray():
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'mk-env[rllib]' (or 'ray')") from None
    return ray


@contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None):
    """Use the running Ray, or start one (local, or joined to ``address``) and stop it after."""
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        elif num_cpus:
            kwargs["num_cpus"] = num_cpus
        ray.init(**kwargs)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def iter_jobs_ray(fn: Callable[[Any], Any], jobs: Sequence[Any], address: str | None = None,
                  num_cpus: int | None = None) -> Iterator[tuple[int, Any]]:
    """``(position, fn(jobs[position]))`` in the order the jobs finish."""
    with ray_session(address, num_cpus) as ray:
        remote = ray.remote(fn)
        pending = {remote.remote(job): i for i, job in enumerate(jobs)}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                i = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as e:
                    raise WorkerDied(f"the Ray worker running job {i} died, and so did Ray's retries "
                                     f"({type(e).__name__})") from e
                yield i, result


def run_jobs_ray(fn: Callable[[Any], Any], jobs: Sequence[Any], address: str | None = None,
                 num_cpus: int | None = None) -> list[Any]:
    """``[fn(job) for job in jobs]`` computed on Ray, in job order."""
    if not callable(fn):
        raise ValueError(f"run_jobs_ray: fn={fn!r} is not callable")
    jobs = list(jobs)
    if not jobs:
        return []
    with ray_session(address, num_cpus) as ray:
        remote = ray.remote(fn)
        return ray.get([remote.remote(job) for job in jobs])
