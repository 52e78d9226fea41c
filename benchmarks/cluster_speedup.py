"""Speed-up of an arena run on a Dask cluster going from one worker to two (same run).

Starts a LocalCluster on 127.0.0.1 with 1 worker process, then one with 2 (one thread each),
and plays the same arena on each, alternating ``--repeats`` times so that a change in the
machine's load hits both (and, for comparison, on the local pool with 2 processes); prints
the median wall time of each and the ratio of one worker's to two workers'. The AIs are
CPU-bound (default ``basic`` against ``random``: no thinking time, whose wall-clock budget
would hide the cores' work). Needs ``pip install 'hongwu[cluster]'``.

    python benchmarks/cluster_speedup.py [--hands 80] [--repeats 3] [--ai basic --ai random]
"""
from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_plugins.arena import ArenaConfig, local_executor, run_arena  # noqa: E402
from ai_plugins.cluster import dask_executor, require_dask  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=80, help="deals per run (default 80)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per worker count (default 3)")
    ap.add_argument("--ai", action="append", default=None, help="AIs (default basic, random)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    distributed = require_dask()
    config = ArenaConfig(ais=tuple(args.ai or ("basic", "random")), deals=args.hands,
                         seed=args.seed, user_dir=False, entry_points=False)
    clusters = {n: distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                            scheduler_kwargs={"dashboard": False},
                                            silence_logs=logging.ERROR)
                for n in (1, 2)}
    logging.getLogger("distributed").setLevel(logging.WARNING)
    times: dict[int, list[float]] = {1: [], 2: [], 0: []}  # 0: the local pool, 2 processes
    results = {}
    try:
        for n, c in clusters.items():  # warm-up: workers import the engine and the AIs
            run_arena(ArenaConfig(**{**config.__dict__, "deals": 2}),
                      executor=dask_executor(c.scheduler_address))
        for _ in range(args.repeats):
            for n, c in clusters.items():
                t0 = time.perf_counter()
                results[n] = run_arena(config, executor=dask_executor(c.scheduler_address))
                times[n].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            results[0] = run_arena(config, executor=local_executor(2))
            times[0].append(time.perf_counter() - t0)
    finally:
        for c in clusters.values():
            c.close()
    assert results[1] == results[2] == results[0], "the numbers differ between the runs"
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"arena {'/'.join(config.ais)}, {args.hands} deals, median of {args.repeats}:")
    print(f"  1 worker : {one:.2f} s  ({args.hands / one:.1f} deals/s)")
    print(f"  2 workers: {two:.2f} s  ({args.hands / two:.1f} deals/s)")
    print(f"  speed-up : x{one / two:.2f} (same numbers from both)")
    local = statistics.median(times[0])
    print(f"  local pool, 2 processes (--jobs 2): {local:.2f} s  ({args.hands / local:.1f} deals/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
