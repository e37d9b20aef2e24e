"""Running chunks of work in this process, on local worker processes or on a Dask cluster,
with results in task order whatever order they finish in (what self-play and bulk review share).

A task is ``(arguments, size)``: ``fn(*arguments)`` runs it and ``size`` is how many units of
work (games, files) it holds, for the progress callback ``progress(done, total)``. ``fn`` must be
importable by name (a module-level function) so that spawned processes and Dask workers find it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

Progress = Callable[[int, int], None]  # (units done, units in all)
Task = tuple[tuple[Any, ...], int]  # (fn's arguments, units of work)


def gather(futures: list[Any], completed: Any, sizes: Sequence[int], progress: Progress | None) -> list[Any]:
    """The futures' results in their order, whatever order they finish in."""
    where = {_key(future): i for i, future in enumerate(futures)}
    parts: list[Any] = [None] * len(futures)
    done, total = 0, sum(sizes)
    for future in completed(futures):
        i = where[_key(future)]
        parts[i] = future.result()
        done += sizes[i]
        if progress:
            progress(done, total)
    return parts


def _key(future: Any) -> Any:
    """What identifies a future: a Dask future's key, a local one itself."""
    return getattr(future, "key", None) or id(future)


def run_inline(fn: Callable[..., Any], tasks: Sequence[Task], progress: Progress | None) -> list[Any]:
    """The tasks one after the other in this process."""
    results = []
    done, total = 0, sum(size for _args, size in tasks)
    for args, size in tasks:
        results.append(fn(*args))
        done += size
        if progress:
            progress(done, total)
    return results


def run_local(
    fn: Callable[..., Any], tasks: Sequence[Task], workers: int, progress: Progress | None
) -> list[Any]:
    """The tasks on ``workers`` local processes (a ProcessPoolExecutor)."""
    # imported here: multiprocessing is a quarter of the package's import time in the browser,
    # where no process is ever started
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(fn, *args) for args, _size in tasks]
        return gather(futures, as_completed, [size for _args, size in tasks], progress)


def run_dask(
    fn: Callable[..., Any],
    plan: Callable[[int], Sequence[Task]],
    scheduler: str,
    timeout: float,
    progress: Progress | None,
    error: type[Exception],
) -> list[Any]:
    """The tasks ``plan(number of workers)`` gives, on the Dask cluster at ``scheduler``. Raises
    ``error`` when Dask is missing or the scheduler cannot be reached within ``timeout`` seconds."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise error(
            "--scheduler needs Dask: pip install 'gaddag-solver[cluster]' (or 'dask[distributed]')"
        ) from None
    try:
        client = Client(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise error(f"cannot reach the Dask scheduler at {scheduler!r} within {timeout:g} s: {exc}") from None
    with client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        tasks = plan(workers)
        futures = [client.submit(fn, *args, pure=False) for args, _size in tasks]
        completed = functools.partial(dask_completed, loop=client.loop)  # the client is not the default
        return gather(futures, completed, [size for _args, size in tasks], progress)
