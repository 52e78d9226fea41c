"""Running arena and league deals on a Dask cluster (``--scheduler tcp://HOST:PORT``).

Dask distributed is an optional dependency (``pip install 'hongwu[cluster]'``); nothing here
imports it until a cluster run starts, so ``hongwu arena`` works without it, and
``--scheduler`` without it is an error naming the extra (exit status 2).

:func:`dask_executor` is an :data:`ai_plugins.arena.Executor`: the deals of every work item are
split into chunks (:func:`~ai_plugins.arena.plan_chunks`, about four per worker thread), each
chunk is one Dask task (``Client.submit`` with ``retries=``), and the chunks are yielded as the
cluster completes them (``distributed.as_completed``); the caller files them by deal number, so
the numbers do not depend on the completion order or on which worker played what. A worker
lost mid-run has its chunks run again elsewhere by the scheduler (and a chunk that raised is
retried up to ``retries`` times); deals are pure functions of the seed, so a re-run chunk gives
the same rows.

**Plugins reach the workers.** The scheduler and the workers need the same hongwu installed
(the scheduler unpickles the tasks, which name hongwu's functions), and the workers any plugin
installed as a distribution (entry points). Everything else the client found is shipped with
each task as file contents (a few kilobytes): the drop-in files of the user plugin folder and
of every ``--plugin-dir``, and the source of ``--ai module:object`` modules that are not
installed (a single ``.py`` file or a package folder). A worker writes them once into a folder
named after their SHA-256 under the temporary directory and discovers from there, so it builds
the same AI line-up as the client; a replacement worker does the same. (The files travel with
the tasks rather than through ``Client.upload_file``: that would import every plugin on the
scheduler and on every worker at upload time and leave it on their ``sys.path`` for the life of
the cluster, for every later client too; a task's files are only what its run asked for.)
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.util
import os
import sys
import sysconfig
import tempfile
import uuid
from pathlib import Path
from typing import Any, Iterator, Sequence

from .arena import ArenaConfig, Executor, SeatResult, Work, _run_chunk, plan_chunks
from .manager import user_plugin_dir
from .specs import spec_name

INSTALL_HINT = "pip install 'hongwu[cluster]'"
"""What to install for ``--scheduler``."""

PROJECT_PACKAGES = ("engine", "ai_plugins", "net", "game")
"""Top-level packages of hongwu itself, never shipped (the workers have them installed)."""

#: Files to recreate on a worker: ``((relative_path, content), ...)``.
Files = tuple[tuple[str, bytes], ...]


class ClusterError(RuntimeError):
    """A cluster run cannot start or finish: Dask missing, scheduler unreachable, no workers,
    or a chunk that kept killing its workers. The message says what to do."""


@dataclasses.dataclass(frozen=True)
class Bundle:
    """What a worker needs besides the config: ``dirs``, one :data:`Files` per plugin folder in
    discovery order (the user folder first if it exists, then each ``--plugin-dir``), and
    ``modules``, one :data:`Files` per shipped ``--ai module:object`` top-level module."""

    dirs: tuple[Files, ...] = ()
    modules: tuple[Files, ...] = ()


def require_dask() -> Any:
    """Import and return ``distributed``; raises :class:`ClusterError` naming the extra."""
    try:
        import distributed
    except ImportError as exc:
        raise ClusterError(f"--scheduler needs Dask distributed, which is not installed "
                           f"({exc.name or exc}): {INSTALL_HINT}") from exc
    return distributed


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--scheduler ADDRESS`` (a Dask scheduler, e.g. ``tcp://10.0.0.5:8786``)."""
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", default=None,
        help="run the deals on the Dask cluster of this scheduler (tcp://HOST:PORT; needs "
             "'hongwu[cluster]'); --jobs is then ignored, the numbers are the same")


def executor_from_args(ns: argparse.Namespace) -> Executor | None:
    """The Dask executor for ``ns.scheduler``, or None (the local pool) when it is not given.
    Raises :class:`ClusterError` when Dask is not installed."""
    address = getattr(ns, "scheduler", None)
    if not address:
        return None
    require_dask()
    return dask_executor(address)


# ---------------------------------------------------------------------------- shipping
def _folder_files(folder: Path) -> Files:
    """The drop-in files of ``folder`` as the manager would load them (``*.py``, not ``_*``)."""
    return tuple((p.name, p.read_bytes()) for p in sorted(folder.glob("*.py"))
                 if not p.name.startswith(("_", ".")))


def _installed_roots() -> list[Path]:
    paths = sysconfig.get_paths()
    return [Path(paths[k]).resolve() for k in ("stdlib", "platstdlib", "purelib", "platlib")
            if paths.get(k)]


def _module_files(spec: str) -> Files | None:
    """Source of the top-level module of ``module:object`` ``spec`` when it is not installed
    (not under site-packages or the standard library, not hongwu itself); None otherwise."""
    top = spec.partition(":")[0].split(".")[0]
    if top in PROJECT_PACKAGES or top in sys.builtin_module_names:
        return None
    try:
        found = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if found is None:
        return None
    if found.submodule_search_locations:
        root = Path(list(found.submodule_search_locations)[0]).resolve()
        base = root.parent
        paths = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    elif found.origin and found.origin.endswith(".py"):
        root = Path(found.origin).resolve()
        base = root.parent
        paths = [root]
    else:
        return None
    if any(root.is_relative_to(r) for r in _installed_roots()):
        return None
    return tuple((p.relative_to(base).as_posix(), p.read_bytes()) for p in paths)


def make_bundle(config: ArenaConfig) -> Bundle:
    """Collect, on the client, the plugin files the workers need for ``config``."""
    folders: list[Path] = []
    if config.user_dir:
        folders.append(user_plugin_dir() if config.user_dir is True else Path(config.user_dir))
    folders.extend(Path(d) for d in config.plugin_dirs)
    dirs = tuple(_folder_files(f) for f in folders if f.is_dir())
    names = [spec_name(a) for a in config.ais]
    modules = tuple(m for m in (_module_files(a) for a in names if ":" in a) if m)
    return Bundle(dirs, modules)


def materialize(files: Files, root: str | Path | None = None) -> Path:
    """Write ``files`` into ``ROOT/hongwu-shipped/<sha256>/`` (ROOT: the temporary directory)
    unless already there, and return that folder. Safe when several threads or processes do
    it at once (each file is written aside, then renamed)."""
    digest = hashlib.sha256()
    for name, data in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    folder = Path(root or tempfile.gettempdir()) / "hongwu-shipped" / digest.hexdigest()[:20]
    for name, data in files:
        target = folder / name
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:6]}")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def worker_config(config: ArenaConfig, bundle: Bundle) -> ArenaConfig:
    """On a worker: write the bundle out, put shipped modules on ``sys.path``, and return
    ``config`` discovering from the shipped folders (instead of the client's paths)."""
    for files in bundle.modules:
        folder = str(materialize(files))
        if folder not in sys.path:
            sys.path.append(folder)
            importlib.invalidate_caches()
    dirs = tuple(str(materialize(files)) for files in bundle.dirs)
    return dataclasses.replace(config, plugin_dirs=dirs, user_dir=False)


def _run_shipped_chunk(config: ArenaConfig, deals: Sequence[int],
                       bundle: Bundle) -> list[tuple[int, list[SeatResult]]]:
    """The Dask task: play ``deals`` with the plugins of ``bundle``."""
    return _run_chunk(worker_config(config, bundle), deals)


# ---------------------------------------------------------------------------- executor
def dask_executor(address: str, *, retries: int = 3, connect_timeout: float = 10.0,
                  worker_timeout: float = 60.0, run_timeout: float | None = None) -> Executor:
    """An :data:`~ai_plugins.arena.Executor` running chunks on the Dask scheduler at
    ``address`` (``tcp://HOST:PORT``, or any address ``distributed.Client`` takes).

    ``retries``: times a chunk that raised is run again (a chunk on a lost worker is rerun by
    the scheduler regardless); ``connect_timeout``: seconds to reach the scheduler;
    ``worker_timeout``: seconds to wait for a first worker; ``run_timeout``: seconds for the
    whole run (None: no limit). Raises :class:`ClusterError` for
    those failures and when a chunk keeps killing workers; an AI error raised by a chunk
    propagates as raised. The client is closed when the run ends or the generator is closed.
    """
    def run(work: Sequence[Work]) -> Iterator[tuple[int, list[tuple[int, list[SeatResult]]]]]:
        distributed = require_dask()
        bundles = [make_bundle(config) for config, _deals in work]
        try:
            client = distributed.Client(address, timeout=connect_timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
        futures: dict[Any, int] = {}
        try:
            try:
                client.wait_for_workers(1, timeout=worker_timeout)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"no Dask worker joined {address} within "
                                   f"{worker_timeout:g} s (start one: dask worker {address})"
                                   ) from exc
            threads = max(1, sum(client.nthreads().values()))
            token = uuid.uuid4().hex[:10]
            for i, (config, deals) in enumerate(work):
                for n, chunk in enumerate(plan_chunks(list(deals), threads)):
                    fut = client.submit(_run_shipped_chunk, config, chunk, bundles[i],
                                        key=f"hongwu-chunk-{token}-{i}-{n}", pure=False,
                                        retries=retries)
                    futures[fut] = i
            done = distributed.as_completed(list(futures), loop=client.loop,
                                            timeout=run_timeout)
            try:
                for fut in done:
                    try:
                        got = fut.result()
                    except distributed.KilledWorker as exc:
                        raise ClusterError(f"a chunk of deals kept killing Dask workers: "
                                           f"{exc}") from exc
                    except (ImportError, RuntimeError) as exc:
                        if isinstance(exc, RuntimeError) and "deserializ" not in str(exc):
                            raise
                        raise ClusterError(
                            f"the Dask scheduler or a worker at {address} cannot load "
                            f"hongwu's tasks ({str(exc).splitlines()[0]}): install the same "
                            f"hongwu there ({INSTALL_HINT})") from exc
                    yield futures[fut], got
            except TimeoutError as exc:
                raise ClusterError(f"the cluster run took more than {run_timeout:g} s") from exc
        finally:
            if futures:
                try:
                    client.cancel(list(futures))
                except Exception:  # pragma: no cover - the scheduler may already be gone
                    pass
            client.close()

    return run


__all__ = ["ClusterError", "Bundle", "INSTALL_HINT", "require_dask", "add_scheduler_option",
           "executor_from_args", "make_bundle", "materialize", "worker_config", "dask_executor"]
