"""Who may change seats (PROTOCOL.md ``fill``), and that nobody can keep a table from dealing
by sitting down and never saying ready (the ready grace, ``TableConfig.seat_grace_s``).
Real sockets on 127.0.0.1; every wait bounded."""
from __future__ import annotations

import asyncio

import pytest

from net.client import RemoteError
from net.testing import close_all, connect, fast_table, running_server

AI = "first-legal"


def run(coro, timeout: float = 60.0):
    """Run a test coroutine with an overall time bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(pred, timeout: float = 10.0, what: str = "condition") -> None:
    """Poll ``pred()`` (server state) every 10 ms for up to ``timeout`` seconds."""
    end = asyncio.get_running_loop().time() + timeout
    while not pred():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def headless_table(**kw):
    """A table as ``hongwu host --headless --ai 1=.. --ai 2=.. --ai 3=..`` sets it up."""
    kw.setdefault("fill_policy", "seated")
    return fast_table(ai_seats={1: AI, 2: AI, 3: AI}, **kw)


async def refused(call, name: str) -> None:
    with pytest.raises(RemoteError) as e:
        await call
    assert e.value.name == name, e.value


def test_an_observer_at_a_headless_host_cannot_fill_swap_or_take_ai_seats():
    async def main():
        async with running_server([headless_table(seat_grace_s=0.3)]) as srv:
            room = srv.rooms[0]
            player = await connect(srv, "p0", seat=0)
            stranger = await connect(srv, "stranger", observer=True)
            assert stranger.welcome["snapshot"]["table"]["fill"] == "seated"
            await refused(stranger.call("fill", seat=1, ai=None), "FORBIDDEN")  # the attack
            await refused(stranger.call("fill", seat=2, ai="basic"), "FORBIDDEN")  # a swap
            await refused(stranger.call("sit", seat=1), "SEAT_TAKEN")  # an AI holds it
            assert [s.kind for s in room.seats] == ["human", "ai", "ai", "ai"]
            await player.call("ready", ready=True)
            await until(lambda: room.hand_no == 1, what="the deal")
            await close_all([player, stranger])
    run(main())


def test_at_a_hosted_table_only_the_host_key_changes_seats():
    async def main():
        async with running_server([fast_table(ai_seats={1: AI}, fill_policy="host")]) as srv:
            guest = await connect(srv, "guest", seat=2)
            watcher = await connect(srv, "watcher", observer=True)
            await refused(guest.call("fill", seat=1, ai=None), "FORBIDDEN")
            await refused(watcher.call("fill", seat=3, ai=AI), "FORBIDDEN")
            host = await connect(srv, "host", observer=True, host_key=srv.host_key)
            table = await host.call("fill", seat=1, ai=None)  # host rights, even watching
            assert table["seats"][1]["kind"] == "empty" and table["fill"] == "host"
            await close_all([guest, watcher, host])
    run(main())


def test_anyone_is_the_old_name_of_seated():
    async def main():
        async with running_server([headless_table(fill_policy="anyone")]) as srv:
            watcher = await connect(srv, "watcher", observer=True)
            assert watcher.welcome["snapshot"]["table"]["fill"] == "seated"
            await refused(watcher.call("fill", seat=1, ai=None), "FORBIDDEN")
            await close_all([watcher])
    run(main())


def test_a_seat_taken_and_never_readied_is_auto_played_after_the_grace_and_the_table_deals():
    """The issue's attack made by a seated player (allowed to fill at a headless host): empty
    an AI seat, let a stranger sit there and never say ready. The table still deals, once the
    grace time is over, with the stranger's seat auto-played; the seat stays theirs."""
    async def main():
        async with running_server([headless_table(seat_grace_s=0.3)]) as srv:
            room = srv.rooms[0]
            player = await connect(srv, "p0", seat=0)
            stranger = await connect(srv, "stranger", observer=True)
            table = await player.call("fill", seat=1, ai=None)  # a seated player may
            assert table["seats"][1]["kind"] == "empty"
            seated = await stranger.call("sit", seat=1)
            assert seated["seat"] == 1
            await player.call("ready", ready=True)
            _, p = await player.wait_for(lambda m, p: m == "auto" and p["seat"] == 1, 10)
            assert p == {"seat": 1, "on": True, "reason": "timeout"}
            await until(lambda: room.hand_no == 1 and room.in_hand, what="the deal")
            seat1 = room.table_wire()["seats"][1]
            assert seat1["kind"] == "human" and seat1["name"] == "stranger"
            assert seat1["connected"] and seat1["auto"]
            await close_all([player, stranger])
    run(main())


def test_nobody_waiting_means_no_ready_timer():
    """Four humans, none ready: nobody is kept waiting, so nobody is auto-played."""
    async def main():
        async with running_server([fast_table(seat_grace_s=30.0)]) as srv:
            room = srv.rooms[0]
            clients = [await connect(srv, f"p{i}", seat=i) for i in range(4)]
            await until(lambda: all(s.session is not None for s in room.seats), what="seats")
            assert not room._ready_timers
            await clients[0].call("ready", ready=True)  # now three keep one waiting
            await until(lambda: len(room._ready_timers) == 3, what="the ready timers")
            await clients[1].call("ready", ready=True)
            await until(lambda: sorted(room._ready_timers) == [2, 3], what="two timers")
            await close_all(clients)
    run(main())


def test_the_host_itself_gets_no_ready_timer():
    async def main():
        async with running_server([headless_table(fill_policy="host", seat_grace_s=5.0)]) as srv:
            room = srv.rooms[0]
            host = await connect(srv, "host", seat=0, host_key=srv.host_key)
            guest_table = await connect(srv, "watcher", observer=True)
            await host.call("ping")
            assert not room._ready_timers and room.hand_no == 0
            await host.call("fill", seat=1, ai=None)
            guest = await connect(srv, "guest", seat=1)
            await until(lambda: 1 in room._ready_timers, what="the guest's timer")
            assert 0 not in room._ready_timers
            await close_all([host, guest, guest_table])
    run(main())


def test_an_ai_seat_a_player_empties_and_nobody_takes_gets_its_ai_back():
    async def main():
        async with running_server([headless_table(seat_grace_s=0.3)]) as srv:
            room = srv.rooms[0]
            player = await connect(srv, "p0", seat=0)
            await player.call("fill", seat=2, ai=None)  # and nobody sits there
            assert room.seats[2].kind == "empty" and room.hand_no == 0
            await until(lambda: room.seats[2].kind == "ai", what="the AI back")
            assert room.seats[2].ai_name == AI
            await player.call("ready", ready=True)
            await until(lambda: room.hand_no == 1, what="hand 1")
            await close_all([player])
    run(main())
