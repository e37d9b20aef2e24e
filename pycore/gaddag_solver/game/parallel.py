"""Running chunks of work in this process, on local worker processes or on a Dask cluster,
with results in task order whatever order they finish in (what self-play, bulk review and
training share).

A task is ``(arguments, size)``: ``fn(*arguments)`` runs it and ``size`` is how many units of
work (games, files) it holds, for the progress callback ``progress(done, total)``. ``fn`` must be
importable by name (a module-level function) so that spawned processes and Dask workers find it.

Ctrl-C stops a run at once, whichever way it runs: the unfinished tasks are cancelled, local
workers are terminated (a worker may be inside a C call of many seconds) and
:class:`RunInterrupted` carries what had finished. Local workers ignore Ctrl-C (the parent
decides) and exit by themselves when their parent dies, even when it was killed outright.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

Progress = Callable[[int, int], None]  # (units done, units in all)
Task = tuple[tuple[Any, ...], int]  # (fn's arguments, units of work)

PARENT_POLL_SECONDS = 0.5  # how often a local worker checks that its parent is alive
STOP_SECONDS = 2.0  # how long terminated workers are waited for
CLOSE_SECONDS = 2.0  # how long closing a Dask client may take
# what a Dask scheduler's address may look like: [PROTOCOL://]HOST:PORT
SCHEDULER_ADDRESS = re.compile(
    r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[\w.-]+):(?P<port>\d+)"
)
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run. ``parts`` holds every task's result in task order, None for a task
    that had not finished; ``done`` of ``total`` units of work had finished. A KeyboardInterrupt,
    so that code which only knows Ctrl-C still sees one."""

    def __init__(self, parts: list[Any], done: int, total: int) -> None:
        super().__init__(f"interrupted after {done} of {total}")
        self.parts = parts
        self.done = done
        self.total = total


def gather(futures: list[Any], completed: Any, sizes: Sequence[int], progress: Progress | None) -> list[Any]:
    """The futures' results in their order, whatever order they finish in; RunInterrupted with
    the finished ones on Ctrl-C."""
    where = {_key(future): i for i, future in enumerate(futures)}
    parts: list[Any] = [None] * len(futures)
    done, total = 0, sum(sizes)
    try:
        for future in completed(futures):
            i = where[_key(future)]
            parts[i] = future.result()
            done += sizes[i]
            if progress:
                progress(done, total)
    except RunInterrupted:
        raise
    except KeyboardInterrupt:
        raise RunInterrupted(parts, done, total) from None
    return parts


def _key(future: Any) -> Any:
    """What identifies a future: a Dask future's key, a local one itself."""
    return getattr(future, "key", None) or id(future)


def run_inline(fn: Callable[..., Any], tasks: Sequence[Task], progress: Progress | None) -> list[Any]:
    """The tasks one after the other in this process."""
    results: list[Any] = [None] * len(tasks)
    done, total = 0, sum(size for _args, size in tasks)
    try:
        for i, (args, size) in enumerate(tasks):
            results[i] = fn(*args)
            done += size
            if progress:
                progress(done, total)
    except RunInterrupted:
        raise
    except KeyboardInterrupt:
        raise RunInterrupted(results, done, total) from None
    return results


# ---- local worker processes ------------------------------------------------------------------------


def _worker_start(parent: int) -> None:
    """A local worker's initializer: Ctrl-C is the parent's to handle (it reaches the whole process
    group), and the worker exits as soon as its parent is gone. A thread polls the parent's pid
    rather than PR_SET_PDEATHSIG, which is Linux-only and fires when the *thread* that started
    the worker ends. The C calls release the GIL, so the thread runs while a game is played."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)  # no clean-up: nothing a worker holds outlives it, and the parent is gone


@contextmanager
def local_pool(workers: int) -> Iterator[Any]:
    """A ProcessPoolExecutor of ``workers`` processes that ignore Ctrl-C and die with this one.
    Leaving the block by an exception (Ctrl-C among them) cancels what is queued and terminates
    the workers at once instead of waiting for the tasks under way."""
    # imported here: multiprocessing is a quarter of the package's import time in the browser,
    # where no process is ever started
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def stop_pool(pool: Any) -> None:
    """Cancel a pool's queued tasks and terminate its workers without waiting for their tasks."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # private, but the only handle
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown(wait=False) forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(timeout=max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
    if manager is not None:
        # the manager thread sees its workers gone and closes its wake-up pipe; wait for that, or
        # the interpreter's exit hook may write to the pipe as it closes ("Exception ignored in
        # threading._shutdown ... send_bytes")
        manager.join(timeout=max(0.1, deadline - time.monotonic()))
        if manager.is_alive():
            # a worker terminated in the middle of writing its result leaves the thread waiting
            # for the rest of it, for ever; the interpreter would wait for the thread at exit
            _STUCK_THREADS.append(manager)


# Threads of stopped pools that could not finish (see stop_pool): a program that stopped a run
# exits without waiting for them (cli.main). Only ever appended to, after a Ctrl-C.
_STUCK_THREADS: list[threading.Thread] = []


def stuck_threads() -> list[threading.Thread]:
    """The worker pools' threads that a stopped run left blocked (normally none)."""
    return [thread for thread in _STUCK_THREADS if thread.is_alive()]


def run_local(
    fn: Callable[..., Any], tasks: Sequence[Task], workers: int, progress: Progress | None
) -> list[Any]:
    """The tasks on ``workers`` local processes (see :func:`local_pool`)."""
    from concurrent.futures import as_completed

    sizes = [size for _args, size in tasks]
    try:
        with local_pool(workers) as pool:
            futures = [pool.submit(fn, *args) for args, _size in tasks]
            return gather(futures, as_completed, sizes, progress)
    except RunInterrupted:
        raise
    except KeyboardInterrupt:  # before the first result
        raise RunInterrupted([None] * len(tasks), 0, sum(sizes)) from None


# ---- Dask ------------------------------------------------------------------------------------------


def check_scheduler_address(address: str, error: type[Exception]) -> str:
    """``address`` when it has the form of a Dask scheduler's address ([PROTOCOL://]HOST:PORT),
    else ``error`` at once (Dask itself may take its whole timeout to say so)."""
    match = SCHEDULER_ADDRESS.fullmatch(address.strip())
    scheme = match and match["scheme"]
    if (
        match is None
        or (scheme is not None and scheme not in SCHEDULER_SCHEMES)
        or not (0 < int(match["port"]) < 65536)
    ):
        hint = " (the dashboard's http address is not the scheduler's)" if address.startswith("http") else ""
        raise error(
            f"--scheduler {address!r} is not a Dask scheduler address: write tcp://HOST:PORT "
            f"(e.g. tcp://127.0.0.1:8786){hint}"
        )
    return address.strip()


class _QuietDask(logging.Filter):
    """Drops the tracebacks Dask logs when the connection to the scheduler breaks: the run says in
    one line that the scheduler was lost."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.ERROR and not record.exc_info


DASK_LOGGERS = (
    "distributed",
    "distributed.client",
    "distributed.core",
    "distributed.comm",
    "distributed.batched",
)


@contextmanager
def dask_client(scheduler: str, timeout: float, error: type[Exception]) -> Iterator[Any]:
    """A Dask client of the scheduler at ``scheduler``, closed at the end (within CLOSE_SECONDS);
    ``error`` when Dask is missing, the address is malformed or the scheduler cannot be reached
    within ``timeout`` seconds. Dask's own error logs are quiet meanwhile: the caller reports."""
    try:
        from distributed import Client
    except ImportError:
        raise error(
            "--scheduler needs Dask: pip install 'gaddag-solver[cluster]' (or 'dask[distributed]')"
        ) from None
    address = check_scheduler_address(scheduler, error)
    quiet = _QuietDask()
    loggers = [logging.getLogger(name) for name in DASK_LOGGERS]
    for logger in loggers:
        logger.addFilter(quiet)
    try:
        try:
            client = _connect(Client, address, timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            raise error(
                f"cannot reach the Dask scheduler at {scheduler!r} within {timeout:g} s: {exc}"
            ) from None
        try:
            yield client
        finally:
            _close(client)
    finally:
        for logger in loggers:
            logger.removeFilter(quiet)


def _connect(client_type: Any, address: str, timeout: float) -> Any:
    """A connected client. A ``Client(...)`` that fails to connect is left half-made, and its
    __del__ tries to close it at exit on a loop already gone (20 s, then "Exception ignored in
    Client.__del__"): it is closed here, while its loop still runs, or at least disarmed."""

    class Client(client_type):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            try:
                super().__init__(*args, **kwargs)
            except BaseException:
                _close(self)
                with suppress(Exception):
                    self._loop_runner.stop()
                self._Client__loop = None  # what __del__ takes for "nothing to close"
                raise

    return Client(address, timeout=timeout, set_as_default=False)


def _close(client: Any) -> None:
    with suppress(Exception):  # a scheduler already gone: nothing is left to close
        client.close(timeout=CLOSE_SECONDS)


def lost_scheduler(client: Any, exc: BaseException) -> bool:
    """Whether ``exc`` (raised waiting on a future of a client that was running) means the
    scheduler is gone rather than that a task failed: the client no longer running (it is
    reconnecting or closed), a broken connection, or Dask's own word for a task cancelled so."""
    try:
        from distributed.comm.core import CommError
    except ImportError:
        CommError = OSError  # noqa: N806
    if client.status != "running" or isinstance(exc, (CommError, OSError, TimeoutError)):
        return True
    text = str(exc)
    return "scheduler-connection-lost" in text or "lost the connection to the scheduler" in text


def run_dask(
    fn: Callable[..., Any],
    plan: Callable[[int], Sequence[Task]],
    scheduler: str,
    timeout: float,
    progress: Progress | None,
    error: type[Exception],
    lost: str = "",
) -> list[Any]:
    """The tasks ``plan(number of workers)`` gives, on the Dask cluster at ``scheduler``. Raises
    ``error`` when Dask is missing, the scheduler cannot be reached within ``timeout`` seconds or
    is lost during the run (the message then ends with ``lost``), RunInterrupted on Ctrl-C (the
    tasks left are cancelled)."""
    from distributed import as_completed as dask_completed

    with dask_client(scheduler, timeout, error) as client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        tasks = plan(workers)
        sizes = [size for _args, size in tasks]
        futures: list[Any] = []
        try:
            futures = [client.submit(fn, *args, pure=False) for args, _size in tasks]
            completed = functools.partial(dask_completed, loop=client.loop)  # the client is not the default
            return gather(futures, completed, sizes, progress)
        except KeyboardInterrupt as exc:
            cancel(client, futures)
            if isinstance(exc, RunInterrupted):
                raise
            raise RunInterrupted([None] * len(tasks), 0, sum(sizes)) from None
        except Exception as exc:
            if lost_scheduler(client, exc):
                raise error(f"lost the Dask scheduler at {scheduler!r}{lost}") from None
            raise


def cancel(client: Any, futures: list[Any]) -> None:
    """Cancel futures on the cluster, without waiting long for a scheduler that may be gone."""
    if not futures:
        return
    try:
        client.cancel(futures, asynchronous=False)
    except Exception:
        pass
