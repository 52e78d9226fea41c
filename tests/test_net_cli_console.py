"""What ``hongwu host`` / ``hongwu join`` print and how long they wait: the address to join,
who is missing and how to fill seats, ``join --wait`` (first hand only), result lines in the
format of ``hongwu play``. Hosts run on 127.0.0.1 with ephemeral ports and no LAN
announcements; every wait is bounded."""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net import cli, codec
from net.ai import AIProvider
from net.bot import Bot, NoHandStarted
from net.cli import BackgroundHost, announce_targets, host_waiting_lines, join_hint, missing_seats
from net.server import ServerConfig
from net.testing import LOOPBACK, close_all, connect, fast_table, running_server

ROOT = Path(__file__).resolve().parents[1]

SETTLEMENT = {"dealer": 2, "bid": 75, "trick_points": [0, 10, 65, 5], "kitty": [],
              "kitty_points": 0, "kitty_taker": 2, "kitty_counted": True, "red_fives": [],
              "red_five_adjust": 0, "penalty_adjust": 0, "dealer_final": 15,
              "game_points": [-2, -2, 6, -2]}


def empty(n: int = 4) -> list[dict]:
    """``n`` empty wire Seat maps."""
    return [{"seat": i, "kind": "empty"} for i in range(n)]


@pytest.fixture
def start_host():
    """``start_host(**table_kw)``: a BackgroundHost on 127.0.0.1:0 (first-legal AIs, no
    announcements); returns ``(host, port)``; all are stopped at the end."""
    hosts: list[BackgroundHost] = []

    def start(**kw):
        cfg = ServerConfig(bind=LOOPBACK, port=0, rate=10_000, burst=10_000,
                           tables=[fast_table(**kw)])
        h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False),
                           announce=None)
        hosts.append(h)
        return h, h.start()

    try:
        yield start
    finally:
        for h in hosts:
            h.stop()


# ------------------------------------------------------------------ addresses
def test_join_hint_names_the_addresses_it_is_given():
    assert join_hint(["127.0.0.1:5000"]) == "players join with: hongwu join 127.0.0.1:5000 --name NAME"
    assert join_hint(["192.168.1.20:5", "[2001:db8::2]:5"]) == (
        "players join with: hongwu join 192.168.1.20:5 --name NAME (or [2001:db8::2]:5)")


def test_loopback_hosts_are_not_announced_on_the_lan():
    assert announce_targets("127.0.0.1", [], off=False) == ["127.0.0.1"]
    assert announce_targets("::1", [], off=False) == ["127.0.0.1"]
    assert announce_targets("0.0.0.0", [], off=False) == ["255.255.255.255"]
    assert announce_targets("0.0.0.0", ["10.0.0.255"], off=False) == ["10.0.0.255"]
    assert announce_targets("127.0.0.1", [], off=True) is None


def test_host_command_prints_the_address_it_is_bound_to(capsys):
    from game.cli import main

    code = main(["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                 "--ai", "0=random", "--ai", "1=random", "--ai", "2=random", "--ai", "3=random",
                 "--hands", "1", "--ai-delay", "0", "--no-user-plugins"])
    out = capsys.readouterr().out
    assert code == 0, out
    port = re.search(r"^listening on 127\.0\.0\.1:(\d+)$", out, re.M).group(1)
    assert f"players join with: hongwu join 127.0.0.1:{port} --name NAME" in out
    assert "<this machine's address>" not in out


# ------------------------------------------------------------------ who is missing
def test_missing_seats_lists_what_keeps_a_hand_from_starting():
    seats = [{"kind": "human", "name": "Ann", "ready": True, "connected": True},
             {"kind": "empty"},
             {"kind": "human", "name": "Bob", "ready": False, "connected": True},
             {"kind": "human", "name": "Cy", "ready": False, "connected": False}]
    assert missing_seats(seats) == ["seat 1 empty", "seat 2 (Bob) not ready",
                                    "seat 3 (Cy) disconnected"]
    assert missing_seats(seats, skip=2) == ["seat 1 empty", "seat 3 (Cy) disconnected"]
    assert missing_seats([{"kind": "ai"}] * 4) == []


def test_headless_host_says_how_to_fill_the_seats():
    lines = host_waiting_lines(empty(), "127.0.0.1:5000")
    text = "\n".join(lines)
    assert "seat 0 empty, seat 1 empty, seat 2 empty, seat 3 empty" in lines[0]
    assert "hongwu join 127.0.0.1:5000 --name NAME" in text
    # the exact options: AIs for the seats a joining player does not take
    assert "--ai 1=basic --ai 2=basic --ai 3=basic" in text
    assert "--fill 1=basic --fill 2=basic --fill 3=basic" in text
    one = host_waiting_lines(empty(1) + [{"kind": "ai"}] * 3, "h:1")
    assert "waiting for: seat 0 empty" in one[0] and "=basic" not in "\n".join(one)
    assert host_waiting_lines([{"kind": "ai"}] * 4, "h:1") == []


def test_headless_host_prints_the_fill_options_while_seats_are_empty(start_host, capsys):
    host, port = start_host(ai_seats={1: "first-legal", 2: "first-legal", 3: "first-legal"},
                            fill_policy="anyone")
    result: dict = {}

    async def seat_zero():
        c = await connect(host.server, "Ann", seat=0)
        try:
            await Bot(c, _first_legal(0), hands=1).run(timeout=30)
        finally:
            await close_all([c])

    import threading

    def join_later():
        time.sleep(0.3)
        asyncio.run(seat_zero())
        result["joined"] = True

    t = threading.Thread(target=join_later, daemon=True)
    t.start()
    assert cli._wait_headless(host, 1, poll=0.02, address=f"127.0.0.1:{port}") == 0
    t.join(30)
    out = capsys.readouterr().out
    assert result.get("joined"), out
    assert "waiting for players; seats: empty, ai, ai, ai" in out
    assert "waiting for: seat 0 empty" in out
    assert f"hongwu join 127.0.0.1:{port} --name NAME" in out
    assert "hand 1 settled" in out


def _first_legal(seat):
    """A first-legal player for ``seat``."""
    from net.ai import FirstLegal

    return FirstLegal(seat)


# ------------------------------------------------------------------ join --wait
def test_join_wait_gives_up_when_no_hand_starts(start_host, tmp_path, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path))
    host, port = start_host(fill_policy="anyone")  # every seat stays empty
    t0 = time.monotonic()
    code = main(["join", f"127.0.0.1:{port}", "--name", "W", "--headless", "--wait", "1",
                 "--no-user-plugins"])
    elapsed = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert 1.0 <= elapsed < 10, elapsed
    assert "no hand started within 1 s (--wait)" in err
    assert "missing: seat 1 empty, seat 2 empty, seat 3 empty" in err
    assert "waiting for the first hand; missing: seat 1 empty, seat 2 empty, seat 3 empty" in out
    assert "--fill 1=basic --fill 2=basic --fill 3=basic" in out  # how to fill them


def test_join_wait_bounds_only_the_first_hand(start_host, tmp_path, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path))
    host, port = start_host(ai_seats={1: "first-legal", 2: "first-legal", 3: "first-legal"},
                            ai_delay_s=0.015)
    t0 = time.monotonic()
    code = main(["join", f"127.0.0.1:{port}", "--name", "W", "--headless", "--wait", "1",
                 "--hands", "2", "--no-user-plugins", "--ai-budget", "1"])
    elapsed = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code == 0, (out, err)
    assert elapsed > 1.0, "the session must outlast --wait for this test to mean anything"
    assert "hand 1:" in out and "hand 2:" in out
    assert "waiting for the first hand" not in out  # nobody was missing but us


def test_bot_start_timeout_raises_no_hand_started():
    async def main():
        async with running_server() as srv:
            c = await connect(srv, "lonely", seat=0)
            try:
                bot = Bot(c, _first_legal(0), hands=None)
                t0 = time.monotonic()
                with pytest.raises(NoHandStarted):
                    await bot.run(timeout=None, start_timeout=0.3)
                assert 0.3 <= time.monotonic() - t0 < 5 and not bot.started
                assert isinstance(NoHandStarted(), asyncio.TimeoutError)
            finally:
                await close_all([c])
    asyncio.run(asyncio.wait_for(main(), 30))


# ------------------------------------------------------------------ result lines
def test_join_result_line_is_the_play_result_line():
    from game.app import result_line as play_line

    line = cli.result_line(3, SETTLEMENT)
    assert line == play_line(3, codec.settlement_in(SETTLEMENT))
    assert line == "hand 3: dealer seat 2 bid 75 final +15 game points [-2,-2,+6,-2]"


def test_join_prints_result_lines_like_play(start_host, tmp_path, monkeypatch, capsys):
    from game.app import result_line as play_line
    from game.cli import main

    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path))
    host, port = start_host(ai_seats={1: "first-legal", 2: "first-legal", 3: "first-legal"})
    code = main(["join", f"127.0.0.1:{port}", "--name", "R", "--headless", "--hands", "1",
                 "--no-user-plugins", "--ai-budget", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    line = next(x for x in out.splitlines() if x.startswith("hand 1:"))
    assert re.fullmatch(r"hand 1: dealer seat \d bid \d+ final [+-]\d+ "
                        r"game points \[[+-]\d+(,[+-]\d+){3}\]", line), line
    room = host.server.rooms[0]
    settlement = host.call(lambda: room.game.settlement)
    assert line == play_line(1, settlement)


def test_result_line_needs_no_pygame():
    """``join --headless`` prints ``hongwu play``'s result line (``engine.scoring.result_line``):
    importing it must not load pygame."""
    code = ("import sys, net.cli; net.cli.result_line(1, %r); "
            "sys.exit('pygame' in sys.modules)" % (SETTLEMENT,))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                                    os.environ.get("PYTHONPATH")])))
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          timeout=60).returncode == 0


@contextlib.contextmanager
def hongwu_process(tmp_path: Path, *args: str):
    """``python -m game ARGS`` as a child process (settings and state in ``tmp_path``, text
    pipes); killed on exit if still running."""
    env = dict(os.environ, HONGWU_STATE_DIR=str(tmp_path), HONGWU_CONFIG_DIR=str(tmp_path),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    # Ctrl-C acts as in a terminal even when the test run itself was started in the background
    # (a shell's background jobs inherit SIGINT ignored, and Python then keeps it ignored)
    proc = subprocess.Popen([sys.executable, "-m", "game", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)


def ctrl_c(proc: subprocess.Popen) -> tuple[str, str]:
    """Send SIGINT (Ctrl-C) and wait up to 30 s; returns (stdout, stderr)."""
    proc.send_signal(signal.SIGINT)
    return proc.communicate(timeout=30)


def test_ctrl_c_stops_a_headless_join_mid_hand_quietly_with_130(start_host, tmp_path):
    host, port = start_host(ai_seats={1: "first-legal", 2: "first-legal", 3: "first-legal"},
                            ai_delay_s=0.05)
    room = host.server.rooms[0]
    with hongwu_process(tmp_path, "join", f"127.0.0.1:{port}", "--name", "R", "--headless",
                        "--no-user-plugins", "--ai-budget", "1") as proc:
        for _ in range(300):  # until the hand is under way (at most 30 s)
            if host.call(lambda: room.in_hand and len(room.game.events) > 20):
                break
            time.sleep(0.1)
        assert host.call(lambda: room.in_hand), "the hand never started"
        out, err = ctrl_c(proc)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "interrupted" in err, err


def test_ctrl_c_stops_a_headless_host_with_130(tmp_path):
    with hongwu_process(tmp_path, "host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                        "--no-discovery", "--no-user-plugins") as proc:
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline and "listening on" not in line:
            line = proc.stdout.readline()
            if not line and proc.poll() is not None:
                break
        assert "listening on" in line
        out, err = ctrl_c(proc)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "interrupted" in err, err


def test_join_names_the_tables_house_rules(start_host, tmp_path, monkeypatch, capsys):
    from game.cli import main

    assert cli.house_rules_line({"base_score": 2, "kitty_to_dealer_always": False}) is None
    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path))
    host, port = start_host(ai_seats={1: "first-legal", 2: "first-legal", 3: "first-legal"},
                            options={"base_score": 3, "kitty_to_dealer_always": True})
    code = main(["join", f"127.0.0.1:{port}", "--name", "R", "--headless", "--hands", "1",
                 "--no-user-plugins", "--ai-budget", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "house rules: kitty_to_dealer_always=true, base_score=3" in out.splitlines()
