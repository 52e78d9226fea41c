"""docs/raw_client.py, the client written from PROTOCOL.md alone (a socket and
msgpack, no project imports), plays a whole 红五 hand against a real ``python -m game host
--headless`` process on 127.0.0.1: hello as an observer, sit, ready, every turn answered
(its follows found by trying candidates and reading the coded refusals), the settlement
printed, bye. Both processes are bounded in time and killed at the end.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from test_net_e2e_processes import LISTENING, spawn  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "docs" / "raw_client.py"
PROJECT = {"engine", "game", "net", "ai_plugins"}


def test_the_raw_client_imports_nothing_of_the_project():
    tree = ast.parse(CLIENT.read_text(encoding="utf-8"))
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
             for a in n.names}
    names |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
              if isinstance(n, ast.ImportFrom)}
    assert names & PROJECT == set()
    assert "msgpack" in names and "socket" in names


@pytest.mark.parametrize("seed", [3, 8])
def test_the_raw_client_plays_a_hand_to_its_settlement(spawn, seed):  # noqa: F811
    host = spawn("host", ["host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                          "--no-discovery", "--no-journal", "--no-user-plugins",
                          "--ai", "1=basic", "--ai", "2=basic", "--ai", "3=basic",
                          "--hands", "1", "--ai-delay", "0", "--seed", str(seed),
                          # no turn timers: on a loaded machine a slow turn must not be auto-played
                          "--timer-bid", "0", "--timer-trump", "0", "--timer-bury", "0", "--timer-play", "0"])
    port = int(host.wait_for(LISTENING.pattern, 30).group(1))
    try:
        done = subprocess.run([sys.executable, str(CLIENT), "127.0.0.1", str(port), "Raw"],
                              cwd=CLIENT.parent, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as exc:  # pragma: no cover - a failure, reported
        pytest.fail(f"the raw client did not finish: {exc.stdout!r} {exc.stderr!r}")
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip()
    assert line.startswith("settled: dealer ") and line.endswith("auto-play off)"), line
    points = [int(x) for x in line.split("game points [")[1].split("]")[0].split(",")]
    assert len(points) == 4 and sum(points) == 0
    assert host.wait_exit(30) == 0
