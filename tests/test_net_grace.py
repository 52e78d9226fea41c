"""The seat grace time (``TableConfig.seat_grace_s``, ``hongwu host --seat-grace``): a player
who is away between hands keeps the seat for that long; then auto-play stands in so the
table goes on, and the token still brings the player back. Sockets on 127.0.0.1, every wait
bounded."""
from __future__ import annotations

import asyncio

from net.ai import FirstLegal
from net.bot import Bot
from net.testing import close_all, connect, fast_table, running_server, seat_four


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


def test_away_between_hands_is_auto_played_after_the_grace_time_and_can_come_back():
    async def main():
        async with running_server([fast_table(seat_grace_s=0.3)]) as srv:
            room = srv.rooms[0]
            clients = await seat_four(srv)
            watcher = await connect(srv, "watcher", observer=True)
            token = clients[3].welcome["token"]
            await clients[3].close()  # gone before the first hand, without bye
            await until(lambda: room.seats[3].session is None, what="the drop")
            assert room.seats[3].kind == "human" and not room.seats[3].ready
            bots = [Bot(clients[i], FirstLegal(i), hands=2) for i in range(3)]
            play = asyncio.gather(*(b.run(40) for b in bots))
            _, p = await watcher.wait_for(lambda m, p: m == "auto" and p["seat"] == 3, 5)
            assert p == {"seat": 3, "on": True, "reason": "disconnect"}
            await play  # two hands: the stand-in stays ready after the first one
            assert room.hand_no == 2 and not room.in_hand
            seat3 = room.table_wire()["seats"][3]
            assert seat3["kind"] == "human" and seat3["name"] == "p3"
            assert seat3["ready"] and seat3["auto"] and not seat3["connected"]

            back = await connect(srv, "p3", token=token)
            assert back.welcome["resumed"] and back.welcome["seat"] == 3
            _, p = await watcher.wait_for(lambda m, p: m == "auto" and p["seat"] == 3, 5)
            assert p == {"seat": 3, "on": False, "reason": "reconnect"}
            seat3 = room.table_wire()["seats"][3]
            assert seat3["connected"] and not seat3["auto"] and not seat3["ready"]
            for c in clients[:3] + [back]:
                await c.call("ready", ready=True)
            await until(lambda: room.hand_no == 3 and room.in_hand, what="hand 3")
            await close_all(clients + [back, watcher])
    run(main())


def test_dropped_during_a_hand_the_grace_time_starts_when_the_hand_ends():
    async def main():
        async with running_server([fast_table(seat_grace_s=0.3)]) as srv:
            room = srv.rooms[0]
            clients = await seat_four(srv)
            bots = [Bot(c, FirstLegal(i), hands=2) for i, c in enumerate(clients)]
            tasks = [asyncio.ensure_future(b.run(40)) for b in bots[:3]]
            drop = asyncio.ensure_future(bots[3].run(40))
            await until(lambda: room.in_hand and room.game.trick_no >= 2, what="hand 1")
            drop.cancel()
            await clients[3].close()
            await until(lambda: room.seats[3].session is None, what="the drop")
            assert room.seats[3].auto and not room.seats[3].stand_in
            assert 3 not in room._grace  # no grace timer while the hand is on
            await until(lambda: room.hand_no == 1 and not room.in_hand, 20, "the end of hand 1")
            assert 3 in room._grace
            await asyncio.gather(*tasks)
            assert room.hand_no == 2 and room.seats[3].stand_in
            await close_all(clients)
    run(main())


def test_grace_zero_waits_for_ever_and_a_fill_ends_the_wait():
    async def main():
        async with running_server([fast_table(seat_grace_s=0)]) as srv:
            room = srv.rooms[0]
            clients = await seat_four(srv, host_key=srv.host_key)
            for c in clients[:3]:
                await c.call("ready", ready=True)
            await clients[3].close()
            await until(lambda: room.seats[3].session is None, what="the drop")
            await asyncio.sleep(0.5)
            assert room.hand_no == 0 and not room.seats[3].ready and not room._grace
            await clients[0].call("fill", seat=3, ai="first-legal")  # the host decides
            await until(lambda: room.hand_no == 1, what="hand 1")
            await close_all(clients)
    run(main())


def test_a_fill_or_a_return_cancels_the_grace_timer():
    async def main():
        async with running_server([fast_table(seat_grace_s=5)]) as srv:
            room = srv.rooms[0]
            clients = await seat_four(srv, host_key=srv.host_key)
            tokens = [c.welcome["token"] for c in clients]
            await clients[2].close()
            await clients[3].close()
            await until(lambda: sorted(room._grace) == [2, 3], what="two grace timers")
            back = await connect(srv, "p2", token=tokens[2])
            assert back.welcome["resumed"] and 2 not in room._grace
            await clients[0].call("fill", seat=3, ai="first-legal")
            assert not room._grace and room.seats[3].kind == "ai"
            await close_all(clients + [back])
    run(main())


def test_host_command_options_reach_the_table_config():
    import argparse

    from net.cli import add_host_parser, host_config

    sub = argparse.ArgumentParser().add_subparsers()
    ns = add_host_parser(sub).parse_args(["--headless", "--seat-grace", "12.5",
                                          "--auto-delay", "0.1"])
    table = host_config(ns).tables[0]
    assert table.seat_grace_s == 12.5 and table.auto_delay_s == 0.1
    default = host_config(add_host_parser(argparse.ArgumentParser().add_subparsers())
                          .parse_args([])).tables[0]
    assert default.seat_grace_s == 60.0


def test_headless_host_console_reports_seat_changes():
    from net.cli import seat_changes

    empty = [("empty", None, False, 0, False)] * 4
    ann = ("human", "Ann", True, 0, False)
    gone = ("human", "Ann", False, 0, False)
    assert seat_changes(None, [ann] + empty[1:]) == ["seat 0: Ann joined"]
    assert seat_changes([ann] + empty[1:], [gone] + empty[1:]) == ["seat 0 (Ann) disconnected"]
    stand_in = ("human", "Ann", False, 0, True)
    assert seat_changes([gone], [stand_in]) == ["seat 0 (Ann) auto-played until they come back"]
    back = ("human", "Ann", True, 1, False)
    assert seat_changes([stand_in], [back]) == ["seat 0 resumed by Ann"]
    # dropped and back between two looks: still reported as a resume
    assert seat_changes([ann], [back]) == ["seat 0 resumed by Ann"]
    assert seat_changes([ann], [("ai", "basic AI", True, 0, False)]) == ["seat 0: basic AI"]
