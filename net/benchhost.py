"""A host in a child process, for the network benchmarks (``benchmarks/net_*.py``).

:func:`start_host` spawns a process running a :class:`~net.server.Server` on 127.0.0.1 with
``tables`` seeded tables (no timers, no AI delay, rate limits lifted) and returns
``(process, port, stop_event)``; :func:`rss_kib` reads a process's resident memory (Linux).
With the environment variable ``HONGWU_BENCH_PROFILE=FILE`` the host runs under cProfile and
writes its statistics to FILE when it stops (read them with ``python -m pstats FILE``).
"""
from __future__ import annotations

import asyncio
import multiprocessing as mp
from typing import Any


def _serve(tables: int, port_q: Any, stop: Any, config: dict[str, Any] | None = None,
           table_kw: list[dict[str, Any]] | None = None, journal: str | None = None) -> None:
    from .ai import AIProvider
    from .journal import Journal
    from .server import Server, ServerConfig, settle_heap
    from .testing import fast_table

    async def main() -> None:
        kw = table_kw or [{} for _ in range(tables)]
        made = [fast_table(f"t{i}", **{"seed": i, **k}) for i, k in enumerate(kw)]
        settings = (dict(rate=1e6, burst=1e6, max_connections=4096) if config is None
                    else dict(config))
        cfg = ServerConfig(bind="127.0.0.1", port=0, tables=made, **settings)
        server = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                        journal=Journal.open(journal) if journal else None)
        port = await server.start()
        settle_heap()  # as a dedicated `hongwu host --headless` does
        port_q.put(port)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, stop.wait)
        await server.close()
        if server.journal is not None:
            server.journal.close()

    import os
    prof_path = os.environ.get("HONGWU_BENCH_PROFILE")
    if not prof_path:
        asyncio.run(main())
        return
    import cProfile

    prof = cProfile.Profile()
    prof.enable()
    try:
        asyncio.run(main())
    finally:
        prof.disable()
        prof.dump_stats(prof_path)


def start_host(tables: int = 1, config: dict[str, Any] | None = None,
               table_kw: list[dict[str, Any]] | None = None,
               journal: str | None = None) -> tuple[Any, int, Any]:
    """Start the host process; returns (process, port, stop event). Raises RuntimeError when
    it does not come up within 20 s.

    ``config``: :class:`~net.server.ServerConfig` fields (None: rate limits lifted and 4096
    connections; a dict: those fields, the host's defaults otherwise, limits included);
    ``table_kw``: one dict of :func:`~net.testing.fast_table` arguments per table (then
    ``tables`` is ignored), e.g. ``ai_seats``; ``journal``: a file where the host keeps its
    journal, as ``hongwu host`` does (None: no journal)."""
    ctx = mp.get_context("spawn")
    port_q, stop = ctx.Queue(), ctx.Event()
    proc = ctx.Process(target=_serve, args=(tables, port_q, stop, config, table_kw, journal),
                       daemon=True)
    proc.start()
    try:
        port = port_q.get(timeout=20)
    except Exception as exc:
        proc.kill()
        raise RuntimeError("benchmark host did not start") from exc
    return proc, port, stop


def stop_host(proc: Any, stop: Any) -> None:
    """Stop the host process (bounded: killed after 10 s)."""
    stop.set()
    proc.join(10)
    if proc.is_alive():
        proc.kill()
        proc.join(5)


def rss_kib(pid: int) -> int:
    """Resident set size of process ``pid`` in KiB (0 where /proc is unavailable)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
