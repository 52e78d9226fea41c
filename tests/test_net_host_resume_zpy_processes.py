"""A 找朋友 host that comes back, with real processes: ``python -m game host --headless
--ruleset zhaopengyou`` journals its five-seat table in a SQLite file; five ``python -m game
join --headless --ai basic`` players play over TCP on 127.0.0.1. The host is SIGKILLed in
the middle of a trick (or while the cards are still being dealt, a declaration window open)
and started again with ``--resume`` on the same port and journal: the five players reconnect
by themselves (backoff, saved tokens), every seat is resumed, and the hand finishes with the
very result an uninterrupted hand with the same seed and the same (deterministic) AIs gives;
the killed host's file passes ``PRAGMA integrity_check``.

Every process gets its own state/config directories and SDL dummy drivers; every wait is
bounded; every process is killed at the end whatever happens.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import sqlite3

import pytest

from engine.match import ZpyMatch
from engine.ruleset import zhaopengyou
from engine.zhaopengyou import ZPhase
from net import zpy_codec
from net.ai import AIProvider
from net.cli import zpy_result_line
from net.client import Client, RemoteError
from net.journal import Journal

import test_net_e2e_processes as e2e
from test_net_e2e_processes import LISTENING

spawn = e2e.spawn  # the fixture: processes with their own state dirs, killed at the end

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

SEED = 3
SEATS = 5
#: generous timers: no seat times out (nor lets a window pass) while its player reconnects
HOST_ARGS = ["--headless", "--ruleset", "zhaopengyou", "--bind", "127.0.0.1", "--no-discovery",
             "--no-user-plugins", "--hands", "1", "--seed", str(SEED), "--seat-grace", "60",
             "--ai-delay", "0", "--auto-delay", "0.02", "--timer-deal", "60", "--timer-call",
             "60", "--timer-counter", "60", "--timer-bury", "60", "--timer-play", "60"]
AI_BUDGET = 30.0  # an AI never falls back for lack of time, even on a loaded machine


def join_args(port: int, i: int) -> list[str]:
    return ["join", f"127.0.0.1:{port}", "--name", f"P{i}", "--seat", str(i), "--headless",
            "--no-user-plugins", "--ai", "basic", "--seed", str(i), "--think", "0.05",
            "--ai-budget", str(AI_BUDGET), "--reconnect", "60"]


def zpy_lines(proc) -> dict[int, str]:
    """``hand N: dealer side ...`` result lines printed by a join process, by hand number."""
    out = {}
    for line in proc.lines:
        m = re.match(r"^hand (\d+): dealer side", line)
        if m:
            out[int(m.group(1))] = line
    return out


def uninterrupted_result() -> str:
    """The result line of hand 1 played without interruption: the match the host deals for
    ``--seed 3`` (its table generator's first draw is the match seed) and the same ``basic``
    AIs."""
    provider = AIProvider(user_plugins=False)
    players = [provider.make("basic", i, AI_BUDGET, seed=i) for i in range(SEATS)]
    hand = ZpyMatch(zhaopengyou(), seed=random.Random(SEED).getrandbits(63)).hand
    for _ in range(5000):  # bounded: a hand takes a few hundred decisions
        if hand.is_over:
            break
        seat = hand.to_act
        hand.apply(players[seat].act(hand.view(seat)))
    assert hand.is_over
    return zpy_result_line(1, zpy_codec.settlement_out(hand.settlement, hand.levels,
                                                       hand.buried))


async def watch_and_kill(port: int, where: str, timeout: float, kill) -> int:
    """Watch the table as an observer; ``where="trick"``: kill when a player leads trick 3 or
    later (the trick then in progress); ``"deal"``: kill when, 40 cards or more into the deal,
    a declaration window is announced (a seat is being polled). Returns the number of events
    announced by then."""
    client = await Client.connect("127.0.0.1", port, timeout=5)
    hit = asyncio.get_running_loop().create_future()
    seen = {"n": 0, "dealt": 0}

    def on(method, params):
        if hit.done():
            return True
        if method == "event":
            seen["n"] = params["n"] + 1
            ev = params["event"]
            if ev.get("kind") == "card_dealt":
                seen["dealt"] = max(seen["dealt"], ev.get("card_no") or 0)
            if (where == "trick" and ev.get("kind") == "cards_played" and ev.get("lead")
                    and ev.get("trick_no", 0) >= 3):
                kill()
                hit.set_result(seen["n"])
        elif (method == "turn" and where == "deal" and seen["dealt"] >= 40
              and (params.get("turn") or {}).get("phase") == "deal"):
            kill()
            hit.set_result(seen["n"])
        return True

    try:
        client.on_notification = on
        await client.hello("watcher", observer=True)
        return await asyncio.wait_for(hit, timeout)
    finally:
        await client.close(1.0)


async def try_token(port: int, token: str) -> str | None:
    """The error name a hello with ``token`` gets (None: accepted)."""
    client = await Client.connect("127.0.0.1", port, timeout=5)
    try:
        await client.hello("thief", token=token, timeout=5)
        return None
    except RemoteError as exc:
        return exc.name
    finally:
        await client.close(1.0)


@pytest.mark.parametrize("where", ["trick", "deal"])
def test_a_zpy_host_killed_mid_hand_resumes_and_the_hand_ends_as_if_uninterrupted(
        spawn, tmp_path, where):
    journal = tmp_path / "host.sqlite3"
    host = spawn("host", ["host", *HOST_ARGS, "--port", "0", "--journal", str(journal)])
    port = int(host.wait_for(LISTENING.pattern, 30).group(1))
    joins = [spawn(f"P{i}", join_args(port, i), dirs=f"P{i}") for i in range(SEATS)]
    for i, j in enumerate(joins):
        j.wait_for(rf"^joined 127\.0\.0\.1:{port} as P{i}: seat {i}$", 30)
    old_tokens = []
    for i in range(SEATS):
        saved = json.loads((tmp_path / f"P{i}" / "state" / "lan_tokens.json").read_text())
        old_tokens.append(saved[f"127.0.0.1:{port}//P{i}"])
    host.wait_for(r"^hand 1 in play", 30)

    kill = lambda: host.popen.send_signal(signal.SIGKILL)  # noqa: E731
    announced = asyncio.run(asyncio.wait_for(watch_and_kill(port, where, 90, kill), 100))
    assert host.wait_exit(10) == -signal.SIGKILL

    # what the killed host left: a sound file, hand 1 where it was killed
    conn = sqlite3.connect(str(journal))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    j = Journal.open(journal, resume=True)
    try:
        assert j.problem is None
        (rec,) = j.load()
        hand = rec.replay(zhaopengyou())
    finally:
        j.close()
    assert rec.hand_no == 1 and rec.match is not None and rec.match["hand_no"] == 1
    if where == "trick":
        assert hand.phase is ZPhase.PLAY and hand.trick_no >= 3
        assert hand.current, "the host was killed between tricks, not mid-trick"
    else:
        assert hand.phase is ZPhase.DEAL and hand.dealt >= 40 and hand.to_act is not None
    assert len(hand.events) >= announced  # everything announced was in the journal first

    again = spawn("host2", ["host", *HOST_ARGS, "--port", str(port), "--journal",
                            str(journal), "--resume"], dirs="host")
    again.wait_for(rf"^listening on 127\.0\.0\.1:{port}$", 30)
    again.wait_for(r"^resumed 1 table\(s\) from ", 5)
    if where == "trick":
        m = again.wait_for(r"^  table 'Hong Wu': hand 1 in play \(play, trick (\d+)\)", 5)
        assert int(m.group(1)) == hand.trick_no
    else:
        again.wait_for(r"^  table 'Hong Wu': hand 1 in play \(deal\)", 5)
    for i, p in enumerate(joins):
        p.wait_for(rf"^reconnected to 127\.0\.0\.1:{port}: seat {i} resumed$", 60)
        again.wait_for(rf"^seat {i} resumed by P{i}$", 15)
    assert asyncio.run(asyncio.wait_for(try_token(port, old_tokens[0]), 20)) == "BAD_TOKEN"

    assert again.wait_exit(120) == 0, again.text  # --hands 1: stops once hand 1 is settled
    again.wait_for(r"^hand 1 settled$", 1)
    expected = uninterrupted_result()
    for p in joins:
        assert p.wait_exit(20) == 0, p.text
        assert zpy_lines(p) == {1: expected}, p.text
        saved = json.loads((tmp_path / p.name / "state" / "lan_tokens.json").read_text())
        assert saved[f"127.0.0.1:{port}//{p.name}"] not in old_tokens  # the new one is kept
    conn = sqlite3.connect(str(journal))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
