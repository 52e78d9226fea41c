"""A host that comes back, with real processes: ``python -m game host --headless`` journals
its table in a SQLite file; four ``python -m game join --headless --ai basic`` players play
over TCP on 127.0.0.1. The host is SIGKILLed in the middle of a trick and started again with
``--resume`` on the same port and journal: the four players reconnect by themselves (with
backoff and their saved tokens), every seat is resumed, and the hand finishes with the very
settlement an uninterrupted hand with the same seed and the same (deterministic) AIs gives.
A replayed pre-restart token is refused with BAD_TOKEN.

Every process gets its own state/config directories and SDL dummy drivers; every wait is
bounded; every process is killed at the end whatever happens.
"""
from __future__ import annotations

import asyncio
import json
import random
import signal

import pytest

from engine.ruleset import hongwu
from engine.scoring import result_line
from engine.state import Game, Phase
from net.ai import AIProvider
from net.client import Client, RemoteError
from net.journal import Journal

import test_net_e2e_processes as e2e
from test_net_e2e_processes import LISTENING, hand_lines

spawn = e2e.spawn  # the fixture: processes with their own state dirs, killed at the end

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

SEED = 7
#: generous turn timers: no seat times out while its player is reconnecting
HOST_ARGS = ["--headless", "--bind", "127.0.0.1", "--no-discovery", "--no-user-plugins",
             "--hands", "1", "--seed", str(SEED), "--seat-grace", "60", "--ai-delay", "0",
             "--auto-delay", "0.02", "--timer-bid", "60", "--timer-trump", "60",
             "--timer-bury", "60", "--timer-play", "60"]
AI_BUDGET = 30.0  # an AI never falls back for lack of time, even on a loaded machine


def join_args(port: int, i: int) -> list[str]:
    return ["join", f"127.0.0.1:{port}", "--name", f"P{i}", "--seat", str(i), "--headless",
            "--no-user-plugins", "--ai", "basic", "--seed", str(i), "--think", "0.05",
            "--ai-budget", str(AI_BUDGET), "--reconnect", "60"]


def uninterrupted_result() -> str:
    """The result line of hand 1 played without interruption: the host's deal for
    ``--seed 7`` (its table generator's first draw) and the same ``basic`` AIs."""
    provider = AIProvider(user_plugins=False)
    players = [provider.make("basic", i, AI_BUDGET, seed=i) for i in range(4)]
    game = Game.new(hongwu(2), random.Random(SEED).getrandbits(63), hand_no=1)
    while game.phase is not Phase.SETTLE:
        seat = game.to_act
        game.apply(players[seat].act(game.view(seat)))
    return result_line(1, game.settlement)


async def watch_until_mid_trick(port: int, trick: int, timeout: float, then) -> int:
    """Watch the table as an observer until a player leads trick ``trick`` (so the trick is
    in progress), then call ``then()`` at once (from the notification callback). Returns
    the number of events announced by then."""
    client = await Client.connect("127.0.0.1", port, timeout=5)
    hit = asyncio.get_running_loop().create_future()

    def on(method, params):
        ev = params.get("event") or {}
        if (method == "event" and ev.get("kind") == "cards_played" and ev.get("lead")
                and ev.get("trick_no", 0) >= trick and not hit.done()):
            then()
            hit.set_result(params["n"] + 1)
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


def test_a_host_killed_mid_trick_resumes_and_the_hand_ends_as_if_uninterrupted(spawn, tmp_path):
    journal = tmp_path / "host.sqlite3"
    host = spawn("host", ["host", *HOST_ARGS, "--port", "0", "--journal", str(journal)])
    port = int(host.wait_for(LISTENING.pattern, 30).group(1))
    joins = [spawn(f"P{i}", join_args(port, i), dirs=f"P{i}") for i in range(4)]
    for i, j in enumerate(joins):
        j.wait_for(rf"^joined 127\.0\.0\.1:{port} as P{i}: seat {i}$", 30)
    old_tokens = []
    for i in range(4):
        saved = json.loads((tmp_path / f"P{i}" / "state" / "lan_tokens.json").read_text())
        old_tokens.append(saved[f"127.0.0.1:{port}//P{i}"])
    host.wait_for(r"^hand 1 in play", 30)

    kill = lambda: host.popen.send_signal(signal.SIGKILL)  # noqa: E731
    announced = asyncio.run(asyncio.wait_for(watch_until_mid_trick(port, 3, 60, kill), 70))
    assert host.wait_exit(10) == -signal.SIGKILL

    # what the killed host left: hand 1 in the play phase, a trick under way
    j = Journal.open(journal, resume=True)
    try:
        assert j.problem is None
        (rec,) = j.load()
        game = rec.replay(hongwu(2))
    finally:
        j.close()
    assert rec.hand_no == 1 and game.phase is Phase.PLAY and game.trick_no >= 3
    assert game.current, "the host was killed between tricks, not mid-trick"
    # everything announced before the kill was in the journal first
    assert len(game.events) >= announced

    again = spawn("host2", ["host", *HOST_ARGS, "--port", str(port), "--journal",
                            str(journal), "--resume"], dirs="host")
    again.wait_for(rf"^listening on 127\.0\.0\.1:{port}$", 30)
    again.wait_for(r"^resumed 1 table\(s\) from ", 5)
    # the hand goes on where it was (not dealt afresh): the trick the killed host was in
    where = again.wait_for(r"^  table 'Hong Wu': hand 1 in play \(play, trick (\d+)\)", 5)
    assert int(where.group(1)) == game.trick_no
    for i, p in enumerate(joins):
        p.wait_for(rf"^reconnected to 127\.0\.0\.1:{port}: seat {i} resumed$", 60)
        again.wait_for(rf"^seat {i} resumed by P{i}$", 15)
    # the tokens from before the restart were rotated: replayed, they take no seat
    assert asyncio.run(asyncio.wait_for(try_token(port, old_tokens[0]), 20)) == "BAD_TOKEN"

    assert again.wait_exit(90) == 0, again.text  # --hands 1: stops once hand 1 is settled
    again.wait_for(r"^hand 1 settled$", 1)
    expected = uninterrupted_result()
    for p in joins:
        assert p.wait_exit(20) == 0, p.text
        assert hand_lines(p) == {1: expected}, p.text
        saved = json.loads((tmp_path / p.name / "state" / "lan_tokens.json").read_text())
        assert saved[f"127.0.0.1:{port}//{p.name}"] not in old_tokens  # the new one is kept
