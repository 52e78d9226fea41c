"""LAN play end to end with real processes: ``python -m game host --headless`` and four
``python -m game join --headless`` clients talk over TCP on 127.0.0.1.

- One client is SIGKILLed in the middle of a hand and started again with the same name and
  state directory: it resumes its seat from the saved reconnect token, and every hand is
  played to the end (the host stops by itself after ``--hands``; everyone exits 0).
- A client killed for good: after ``--seat-grace`` its seat is auto-played, so the next hand
  still starts.

Every process gets its own state/config directories and SDL dummy drivers; every wait is
bounded; every process is killed at the end whatever happens.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

ROOT = Path(__file__).resolve().parents[1]
LISTENING = re.compile(r"^listening on 127\.0\.0\.1:(\d+)$")

#: fast but watchable pacing: a hand takes a few seconds, so "mid-hand" is easy to hit
HOST_PACE = ["--ai-delay", "0", "--auto-delay", "0.02", "--timer-bid", "15", "--timer-trump", "15",
             "--timer-bury", "15", "--timer-play", "15"]
JOIN_PACE = ["--ai", "random", "--think", "0.03", "--ai-budget", "0.5"]


class Proc:
    """A child process whose output (stdout and stderr merged) is collected line by line by
    a reader thread; :meth:`wait_for` waits (bounded) for a line matching a pattern."""

    def __init__(self, name: str, args: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.lines: list[str] = []
        self._cond = threading.Condition()
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "game", *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8",
            errors="replace")
        self._reader = threading.Thread(target=self._read, name=f"read-{name}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    @property
    def text(self) -> str:
        """Everything printed so far."""
        with self._cond:
            return "\n".join(self.lines)

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str]:
        """The first line matching the regular expression ``pattern``; fails after
        ``timeout`` seconds or when the process ended without printing it."""
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        seen = 0
        with self._cond:
            while True:
                for line in self.lines[seen:]:
                    m = rx.search(line)
                    if m:
                        return m
                seen = len(self.lines)
                left = end - time.monotonic()
                if left <= 0 or (self.popen.poll() is not None and not self._reader.is_alive()):
                    raise AssertionError(f"{self.name}: no line matching {pattern!r} "
                                         f"(exit {self.popen.poll()}):\n{chr(10).join(self.lines)}")
                self._cond.wait(min(left, 0.2))

    def wait_exit(self, timeout: float) -> int:
        """The exit code; fails when the process is still running after ``timeout`` s."""
        try:
            code = self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} still running after {timeout} s:\n{self.text}")
        self._reader.join(5)
        return code

    def kill(self) -> None:
        """SIGKILL (if still running) and reap."""
        if self.popen.poll() is None:
            self.popen.kill()
        try:
            self.popen.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        if self.popen.stdout is not None:
            self._reader.join(5)
            self.popen.stdout.close()


@pytest.fixture
def spawn(tmp_path):
    """``spawn(name, args, dirs=name)``: start ``python -m game ARGS`` with its own
    HONGWU_STATE_DIR / HONGWU_CONFIG_DIR (``tmp_path/dirs``) and dummy SDL drivers. Every
    process started is killed when the test ends."""
    procs: list[Proc] = []

    def start(name: str, args: list[str], dirs: str | None = None) -> Proc:
        base = tmp_path / (dirs or name)
        env = dict(os.environ)
        env.update(HONGWU_STATE_DIR=str(base / "state"), HONGWU_CONFIG_DIR=str(base / "config"),
                   SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1", HONGWU_LOG="WARNING",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                            env.get("PYTHONPATH")])))
        p = Proc(name, args, env)
        procs.append(p)
        return p

    try:
        yield start
    finally:
        for p in procs:
            p.kill()


def start_host(spawn, hands: int, grace: float) -> tuple[Proc, int]:
    """A headless host on 127.0.0.1, any free port; returns it and its port."""
    host = spawn("host", ["host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                          "--no-discovery", "--no-user-plugins", "--hands", str(hands),
                          "--seat-grace", str(grace), "--seed", "7", *HOST_PACE])
    port = int(host.wait_for(LISTENING.pattern, 30).group(1))
    return host, port


def start_join(spawn, port: int, i: int) -> Proc:
    """``hongwu join 127.0.0.1:PORT --name P<i> --seat <i> --headless`` (state dir ``P<i>``)."""
    return spawn(f"P{i}", ["join", f"127.0.0.1:{port}", "--name", f"P{i}", "--seat", str(i),
                           "--headless", "--no-user-plugins", *JOIN_PACE], dirs=f"P{i}")


def hand_lines(proc: Proc) -> dict[int, str]:
    """``hand N: ...`` result lines printed by a join process, by hand number."""
    out = {}
    for line in proc.lines:
        m = re.match(r"^hand (\d+): dealer seat", line)
        if m:
            out[int(m.group(1))] = line
    return out


def test_four_join_processes_play_and_a_killed_one_resumes_its_seat(spawn):
    hands, victim = 2, 2
    host, port = start_host(spawn, hands, grace=60)
    joins = [start_join(spawn, port, i) for i in range(4)]
    for i, j in enumerate(joins):
        j.wait_for(rf"^joined 127\.0\.0\.1:{port} as P{i}: seat {i}$", 30)
    host.wait_for(r"^hand 1 in play", 30)
    time.sleep(0.3)

    joins[victim].popen.send_signal(signal.SIGKILL)  # mid-hand, no bye
    assert joins[victim].wait_exit(10) == -signal.SIGKILL
    host.wait_for(rf"^seat {victim} \(P{victim}\) disconnected$", 15)
    others = [j for i, j in enumerate(joins) if i != victim]
    others[0].wait_for(rf"^auto-play on for seat {victim} \(disconnect\)$", 15)
    # the drop happened during hand 1: the host reported it before hand 1 was settled
    settled_1 = next((n for n, line in enumerate(host.lines) if line == "hand 1 settled"), None)
    dropped = next(n for n, line in enumerate(host.lines) if line.endswith(") disconnected"))
    assert settled_1 is None or dropped < settled_1, host.text

    again = start_join(spawn, port, victim)  # same name, same state dir: the saved token
    again.wait_for(rf"^joined 127\.0\.0\.1:{port} as P{victim}: seat {victim}$", 30)
    again.wait_for(rf"^seat {victim} resumed$", 5)
    host.wait_for(rf"^seat {victim} resumed by P{victim}$", 15)

    assert host.wait_exit(60) == 0, host.text  # stops by itself after --hands
    host.wait_for(rf"^hand {hands} settled$", 1)
    assert f"hand {hands + 1}" not in host.text
    for j in others + [again]:
        assert j.wait_exit(20) == 0, j.text
        j.wait_for(r"^the host closed the table", 1)
    others[0].wait_for(rf"^auto-play off for seat {victim} \(reconnect\)$", 1)
    results = [hand_lines(j) for j in others]
    assert all(sorted(r) == list(range(1, hands + 1)) for r in results), results
    assert results[0] == results[1] == results[2]  # everyone saw the same settlements
    # it came back during hand 1 and played on from where its seat was
    assert hand_lines(again) == results[0], again.text


def test_a_player_who_never_comes_back_is_auto_played_after_the_grace_time(spawn):
    hands, victim = 2, 3
    host, port = start_host(spawn, hands, grace=1)
    joins = [start_join(spawn, port, i) for i in range(4)]
    host.wait_for(r"^hand 1 in play", 30)
    joins[victim].kill()
    host.wait_for(rf"^seat {victim} \(P{victim}\) disconnected$", 15)
    host.wait_for(rf"^seat {victim} \(P{victim}\) auto-played until they come back$", 30)
    assert host.wait_exit(60) == 0, host.text
    host.wait_for(rf"^hand {hands} settled$", 1)
    for i, j in enumerate(joins):
        if i != victim:
            assert j.wait_exit(20) == 0, j.text
            assert sorted(hand_lines(j)) == list(range(1, hands + 1)), j.text


def test_a_zpy_host_process_and_a_headless_basic_join_play_two_hands_of_a_match(spawn):
    """``hongwu host --headless --ruleset zhaopengyou`` with four AI seats and one ``hongwu
    join --headless --ai basic``: two hands of the match, each with its result line (levels
    before -> after, the second starting from the first's), then both exit 0."""
    host = spawn("host", ["host", "--headless", "--ruleset", "zhaopengyou", "--bind",
                          "127.0.0.1", "--port", "0", "--no-discovery", "--no-user-plugins",
                          "--hands", "2", "--seed", "11", "--ai-delay", "0", "--deal-pace", "0.002",
                          *[f"--ai={i}=random" for i in (1, 2, 3, 4)]])
    port = int(host.wait_for(LISTENING.pattern, 30).group(1))
    join = spawn("Z0", ["join", f"127.0.0.1:{port}", "--name", "Z0", "--headless",
                        "--no-user-plugins", "--ai", "basic", "--ai-budget", "0.5"])
    join.wait_for(rf"^joined 127\.0\.0\.1:{port} as Z0: seat 0$", 30)
    assert host.wait_exit(120) == 0, host.text
    assert join.wait_exit(20) == 0, join.text
    lines = [m for m in (re.match(r"^hand (\d): dealer side .* levels ([2-9JQKA0-9 ]+) -> "
                                  r"([2-9JQKA0-9 ]+)", line) for line in join.lines) if m]
    assert [m.group(1) for m in lines] == ["1", "2"], join.text
    assert lines[0].group(2) == "2 2 2 2 2" and lines[1].group(2) == lines[0].group(3)
    host.wait_for(rf"^levels after hand 2: {lines[1].group(3).strip()}", 1)
