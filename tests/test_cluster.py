"""Arena and league on a real Dask cluster: a LocalCluster with two worker processes on
127.0.0.1. The numbers must equal the local run's, survive a killed worker, and plugins given
to the client (drop-in folders, ``--ai module:object``) must reach the workers."""
from __future__ import annotations

import json
import logging
import os
import signal
import sys
import tempfile
import threading
import uuid
from pathlib import Path

import distributed
import pytest

from ai_helpers import write_plugin
from ai_plugins.arena import ArenaConfig, run_arena
from ai_plugins.cluster import ClusterError, dask_executor
from ai_plugins.league import run_league
from game.cli import main as hongwu_main

RUN_TIMEOUT = 180.0  # seconds; every cluster run in this file is bounded by it


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two single-thread worker processes on loopback, ports chosen by the OS."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", scheduler_port=0,
                                  dashboard_address="127.0.0.1:0",  # HTTP routes, loopback
                                  scheduler_kwargs={"dashboard": False},
                                  worker_dashboard_address=None,
                                  silence_logs=logging.ERROR) as c:
        with distributed.Client(c.scheduler_address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
            yield c, client


def _config(**kw):
    kw.setdefault("user_dir", False)
    kw.setdefault("entry_points", False)
    return ArenaConfig(**kw)


def _executor(c):
    return dask_executor(c.scheduler_address, run_timeout=RUN_TIMEOUT)


def test_cli_arena_on_cluster_equals_local_run(cluster, tmp_path, capsys):
    c, _client = cluster
    common = ["arena", "--ai", "basic", "--ai", "random", "--hands", "6", "--seed", "11",
              "--no-user-plugins", "--quiet"]
    assert hongwu_main([*common, "--jobs", "1", "--json", str(tmp_path / "local.json")]) == 0
    local_out = capsys.readouterr().out
    assert hongwu_main([*common, "--scheduler", c.scheduler_address,
                        "--json", str(tmp_path / "cluster.json")]) == 0
    cluster_out = capsys.readouterr().out
    local = json.loads((tmp_path / "local.json").read_text())
    remote = json.loads((tmp_path / "cluster.json").read_text())
    assert remote == local and local["deals"] == 6
    assert cluster_out == local_out


def test_progress_comes_from_cluster_completions(cluster):
    c, _client = cluster
    ticks: list[int] = []
    config = _config(ais=("random", "basic"), deals=5, seed=2)
    summary = run_arena(config, progress=ticks.append, executor=_executor(c))
    assert sum(ticks) == 5 and len(ticks) > 1  # several chunks, each reported as it finished
    assert summary == run_arena(config, jobs=1)


def test_killed_worker_mid_run_gives_the_same_numbers(cluster):
    c, client = cluster
    config = _config(ais=("basic", "random"), deals=24, seed=9)
    expected = run_arena(config, jobs=1)
    pids = client.run(os.getpid)  # {worker address: pid}
    killed: list[int] = []

    def progress(_n):
        if killed:
            return
        busy = [addr for addr, keys in client.processing().items() if keys and addr in pids]
        victim = pids[busy[0] if busy else sorted(pids)[0]]
        os.kill(victim, signal.SIGKILL)
        killed.append(victim)

    box: dict = {}

    def run():
        try:
            box["summary"] = run_arena(config, progress=progress, executor=_executor(c))
        except BaseException as exc:  # reported by the assertion below
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(RUN_TIMEOUT + 30)
    assert not t.is_alive(), "the cluster run did not finish"
    assert "error" not in box, box.get("error")
    assert killed, "no worker was killed"
    assert box["summary"] == expected
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next tests
    assert killed[0] not in client.run(os.getpid).values()


def test_plugins_reach_the_workers(cluster, tmp_path, monkeypatch):
    c, client = cluster
    token = uuid.uuid4().hex[:8]
    write_plugin(tmp_path / "plugins", "firstbot", f"""
        TOKEN = "{token}"

        class First:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                return next(iter(options))

        @hookimpl
        def register_ais(register):
            register("first", First, "1.0")
        """)
    module = f"lastbot_{token}"
    write_plugin(tmp_path / "mods", module, """
        class Last:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                return next(iter(options))

        @hookimpl
        def register_ais(register):
            register("last", Last, "1.0")
        """)
    monkeypatch.syspath_prepend(str(tmp_path / "mods"))  # the client finds it; workers do not
    config = _config(ais=("first", f"{module}:", "basic"), deals=2, seed=4,
                     plugin_dirs=(str(tmp_path / "plugins"),), budget_s=2.0)
    expected = run_arena(config, jobs=1)
    assert run_arena(config, executor=_executor(c)) == expected
    assert all(s["faults"] == 0 for s in expected["ais"].values())

    def loaded_from(token=token, module=module):
        mods = [m for m in list(sys.modules.values())
                if getattr(m, "TOKEN", None) == token or getattr(m, "__name__", "") == module]
        return sorted(str(getattr(m, "__file__", "")) for m in mods)

    shipped = Path(tempfile.gettempdir()) / "hongwu-shipped"
    files = [f for per_worker in client.run(loaded_from).values() for f in per_worker]
    assert any(f.endswith("firstbot.py") for f in files), files  # the drop-in file
    assert any(f.endswith(f"{module}.py") for f in files), files  # the module:object module
    assert all(Path(f).is_relative_to(shipped) for f in files), files


def test_league_on_cluster_equals_local_run(cluster, tmp_path):
    c, _client = cluster
    config = _config(ais=("basic", "random", "basic"), seed=3)
    local = run_league(config, 2, jobs=1, bootstrap=50)
    remote = run_league(config, 2, executor=_executor(c), bootstrap=50,
                        results_file=tmp_path / "r.jsonl")
    assert remote == local and local["complete"]


def test_zpy_league_on_cluster_equals_local_run(cluster, tmp_path):
    c, _client = cluster
    config = _config(ais=("basic", "random"), seed=9, decks=3, ruleset="zhaopengyou")
    local = run_league(config, 2, jobs=1, bootstrap=20)
    remote = run_league(config, 2, executor=_executor(c), bootstrap=20,
                        results_file=tmp_path / "zpy.jsonl")
    assert remote == local and local["complete"] and local["ruleset"] == "zhaopengyou"
    assert all(s["mean_level_gain"] is not None for s in local["ratings"].values())


def test_scheduler_without_dask_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    code = hongwu_main(["arena", "--ai", "basic", "--ai", "random", "--hands", "1",
                        "--no-user-plugins", "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "hongwu[cluster]" in err


def test_unreachable_scheduler_is_a_clear_error():
    run = dask_executor("tcp://127.0.0.1:9", connect_timeout=1.0)
    with pytest.raises(ClusterError, match="cannot reach"):
        run_arena(_config(ais=("basic", "random"), deals=1, seed=1), executor=run)
