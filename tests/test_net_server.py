"""net.server over real sockets on 127.0.0.1: seats, hands, AI seats, timers, auto-play,
disconnects and reconnects. Every wait is bounded."""
from __future__ import annotations

import asyncio

import pytest

from net import codec
from net.ai import FirstLegal
from net.bot import Bot
from net.client import RemoteError
from net.protocol import check_type
from net.server import Timers
from net.testing import close_all, connect, fast_table, running_server, seat_four


def run(coro, timeout: float = 60.0):
    """Run a test coroutine with an overall time bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def is_view(m, p):
    return m == "view"


async def latest_view(client, pred, timeout=10.0):
    """Skip notifications until a view satisfying ``pred`` arrives; return the wire view."""
    _, p = await client.wait_for(lambda m, p: m == "view" and pred(p["view"]), timeout)
    return p["view"]


def test_hello_assigns_seats_then_observers_and_tokens():
    async def main():
        async with running_server() as srv:
            clients = [await connect(srv, f"p{i}") for i in range(5)]
            seats = [c.welcome["seat"] for c in clients]
            assert seats == [0, 1, 2, 3, None]
            assert all(c.welcome["token"] for c in clients[:4])
            assert clients[4].welcome["token"] is None
            for c in clients:
                check_type(c.welcome, "Welcome")
            table = clients[4].welcome["snapshot"]["table"]
            assert table["observers"] == 1 and [s["kind"] for s in table["seats"]] == ["human"] * 4
            await close_all(clients)
    run(main())


def test_four_bots_play_several_hands_and_scores_add_up():
    async def main():
        async with running_server() as srv:
            clients = await seat_four(srv)
            bots = [Bot(c, FirstLegal(i), hands=3) for i, c in enumerate(clients)]
            await asyncio.gather(*(b.run(50) for b in bots))
            assert all(not b.errors for b in bots)
            totals = [sum(s["game_points"][i] for s in bots[0].settlements) for i in range(4)]
            snap = await clients[0].call("snapshot")
            check_type(snap, "Snapshot")
            assert [s["score"] for s in snap["table"]["seats"]] == totals
            assert sum(totals) == 0 and snap["table"]["hand_no"] == 3
            await close_all(clients)
    run(main())


def test_sit_stand_and_ready_rules():
    async def main():
        async with running_server() as srv:
            a = await connect(srv, "a", seat=2)
            b = await connect(srv, "b", observer=True)
            assert a.welcome["seat"] == 2 and b.welcome["seat"] is None
            with pytest.raises(RemoteError) as e:
                await b.call("sit", seat=2)
            assert e.value.name == "SEAT_TAKEN"
            seated = await b.call("sit", seat=3)
            check_type(seated, "Seated")
            assert seated["seat"] == 3 and seated["table"]["seats"][3]["name"] == "b"
            await a.call("sit", seat=0)
            await a.call("stand")
            with pytest.raises(RemoteError) as e:
                await a.call("ready", ready=True)
            assert e.value.name == "NOT_SEATED"
            with pytest.raises(RemoteError) as e:
                await a.call("bid", amount=None)
            assert e.value.name == "NOT_SEATED"
            await close_all([a, b])
    run(main())


def test_fill_needs_host_rights_and_ai_seats_play():
    async def main():
        async with running_server() as srv:
            guest = await connect(srv, "guest", seat=1)
            with pytest.raises(RemoteError) as e:
                await guest.call("fill", seat=0, ai="first-legal")
            assert e.value.name == "FORBIDDEN"
            host = await connect(srv, "host", seat=0, host_key=srv.host_key)
            assert host.welcome["host"] is True
            ais = await host.call("list_ais")
            assert ais and all(check_type(a, "AI") is None for a in ais)
            with pytest.raises(RemoteError) as e:
                await host.call("fill", seat=2, ai="no-such-ai")
            assert e.value.name == "UNKNOWN_AI"
            with pytest.raises(RemoteError) as e:
                await host.call("fill", seat=1, ai=ais[0]["name"])
            assert e.value.name == "SEAT_TAKEN"  # a connected human holds it
            for seat in (2, 3):
                table = await host.call("fill", seat=seat, ai=ais[0]["name"])
            assert [s["kind"] for s in table["seats"]] == ["human", "human", "ai", "ai"]
            bots = [Bot(host, FirstLegal(0), hands=2), Bot(guest, FirstLegal(1), hands=2)]
            await asyncio.gather(*(b.run(40) for b in bots))
            table = (await host.call("fill", seat=3, ai=None))
            assert table["seats"][3]["kind"] == "empty"
            await close_all([host, guest])
    run(main())


def test_trump_timeout_chooses_spades_marked_timed_out():
    async def main():
        timers = Timers(bid=0, trump=0.3, bury=0, play=0)
        async with running_server([fast_table(timers=timers)]) as srv:
            clients = await seat_four(srv, protocol=1)  # version 1: a full view after each bid
            for c in clients:
                await c.call("ready", ready=True)
            # everyone passes: the first bidder becomes dealer at the minimum
            for _ in range(4):
                v = await latest_view(clients[0], lambda v: v["phase"] != "bid" or v["to_act"] is not None)
                if v["phase"] != "bid":
                    break
                await clients[v["to_act"]].call("bid", amount=None)
            _, p = await clients[0].wait_for(
                lambda m, p: m == "event" and p["event"]["kind"] == "trump_chosen", 5)
            assert p["event"]["suit"] == "S" and p["event"]["timed_out"] is True
            await close_all(clients)
    run(main())


def test_play_timeout_turns_on_auto_play_until_the_player_acts():
    async def main():
        timers = Timers(bid=0.3, trump=0, bury=0, play=0)
        async with running_server([fast_table(timers=timers)]) as srv:
            clients = await seat_four(srv)
            for c in clients:
                await c.call("ready", ready=True)
            v = await latest_view(clients[0], lambda v: v["phase"] == "bid")
            sleeper = v["to_act"]
            # nobody acts: the bidder times out and is auto-played (marker), the next one too
            _, p = await clients[(sleeper + 1) % 4].wait_for(
                lambda m, p: m == "auto" and p["seat"] == sleeper, 5)
            assert p["on"] is True and p["reason"] == "timeout"
            snap = await clients[sleeper].call("snapshot")
            assert snap["table"]["seats"][sleeper]["auto"] is True
            # the player switches auto-play off again
            state = await clients[sleeper].call("auto", on=False)
            assert state == {"seat": sleeper, "auto": False}
            _, p = await clients[sleeper].wait_for(
                lambda m, p: m == "auto" and p["seat"] == sleeper and not p["on"], 5)
            assert p["reason"] == "request"
            await close_all(clients)
    run(main())


def test_auto_on_request_plays_for_the_seat_and_an_action_turns_it_off():
    async def main():
        async with running_server() as srv:
            clients = await seat_four(srv)
            await clients[0].call("auto", on=True)
            await clients[0].call("ready", ready=True)
            bots = [Bot(c, FirstLegal(i), hands=1) for i, c in enumerate(clients[1:], 1)]
            await asyncio.gather(*(b.run(30) for b in bots))  # seat 0 played by auto-play
            snap = await clients[0].call("snapshot")
            assert snap["view"]["phase"] == "settle" and snap["view"]["hand_sizes"] == [0] * 4
            # next hand: seat 0 acts itself when it can; its action turns auto-play off
            await clients[0].call("auto", on=False)
            await close_all(clients)
    run(main())


def test_disconnected_seat_is_auto_played_and_reconnect_resumes_mid_trick():
    async def main():
        async with running_server() as srv:
            clients = await seat_four(srv)
            watcher = await connect(srv, "watcher", observer=True)
            token = clients[2].welcome["token"]
            for c in clients:
                await c.call("ready", ready=True)
            await clients[2].close()
            _, p = await watcher.wait_for(lambda m, p: m == "auto" and p["seat"] == 2, 5)
            assert p["reason"] == "disconnect" and p["on"]
            # drive seats 0, 1, 3 by hand (seat 2 is auto-played) until the middle of a trick
            # where one of them is to act: nothing moves while we reconnect
            room = srv.rooms[0]
            for _ in range(400):
                g = room.game
                if g.phase.value == "play" and g.current and g.to_act != 2 and g.trick_no >= 3:
                    break
                if g.to_act == 2:
                    await asyncio.sleep(0.005)
                    continue
                method, params = codec.action_out(FirstLegal(g.to_act).act(g.view(g.to_act)))
                await clients[g.to_act].call(method, params)
            else:
                pytest.fail("no mid-trick moment reached")
            back = await connect(srv, "p2-again", token=token)
            assert back.welcome["resumed"] is True and back.welcome["seat"] == 2
            view = back.welcome["snapshot"]["view"]
            check_type(view, "View")
            assert view == codec.view_out(room.game.view(2))  # the full seat view, mid-trick
            assert view["current_trick"] and len(view["hand"]) == view["hand_sizes"][2]
            assert codec.view_in(view) == room.game.view(2)
            bots = [Bot(clients[i], FirstLegal(i), hands=1) for i in (0, 1, 3)]
            tasks = [asyncio.ensure_future(b.run(30)) for b in bots]
            tasks.append(asyncio.ensure_future(Bot(back, FirstLegal(2), hands=1).run(30)))
            await asyncio.gather(*tasks)
            final = await back.call("snapshot")
            assert final["view"]["phase"] == "settle"
            seat2 = final["table"]["seats"][2]
            assert seat2["connected"] and not seat2["auto"] and seat2["name"] == "p2-again"
            await close_all(clients + [back, watcher])
    run(main())


def test_token_reuse_replaces_the_old_connection():
    async def main():
        async with running_server() as srv:
            a = await connect(srv, "a")
            b = await connect(srv, "a", token=a.welcome["token"])
            await asyncio.wait_for(a.closed.wait(), 5)
            assert a.goodbye["name"] == "REPLACED" and b.welcome["seat"] == a.welcome["seat"]
            with pytest.raises(RemoteError) as e:
                await connect(srv, "c", token="not-a-token")
            assert e.value.name == "BAD_TOKEN"
            await close_all([a, b])
    run(main())


def test_observer_sees_the_game_without_a_hand():
    async def main():
        async with running_server() as srv:
            clients = await seat_four(srv)
            obs = await connect(srv, "watcher", observer=True)
            bots = [Bot(c, FirstLegal(i), hands=1) for i, c in enumerate(clients)]
            seen = []
            watch = Bot(obs, FirstLegal(0), hands=1, on_message=lambda m, p: seen.append((m, p)))
            await asyncio.gather(*(b.run(30) for b in bots + [watch]))
            views = [p["view"] for m, p in seen if m == "view"]
            assert views and all(v["seat"] is None and v["hand"] == [] for v in views)
            with pytest.raises(RemoteError) as e:
                await obs.call("play", cards=["BJ"])
            assert e.value.name == "NOT_SEATED"
            await close_all(clients + [obs])
    run(main())


def test_two_tables_are_independent():
    async def main():
        async with running_server([fast_table("A"), fast_table("B")]) as srv:
            a = [await connect(srv, f"a{i}", table="A") for i in range(4)]
            b = [await connect(srv, f"b{i}", table="B") for i in range(4)]
            with pytest.raises(RemoteError) as e:
                await connect(srv, "x", table="C")
            assert e.value.name == "UNKNOWN_TABLE"
            tables = await a[0].call("tables")
            assert [t["name"] for t in tables] == ["A", "B"]
            bots = [Bot(c, FirstLegal(c.welcome["seat"]), hands=1) for c in a]
            await asyncio.gather(*(x.run(30) for x in bots))
            snap_b = await b[0].call("snapshot")
            assert snap_b["view"] is None and snap_b["table"]["hand_no"] == 0
            await close_all(a + b)
    run(main())


def test_ping_and_bye():
    async def main():
        async with running_server() as srv:
            c = await connect(srv, "a")
            pong = await c.call("ping")
            assert isinstance(pong["time"], float)
            await c.call("bye")
            await asyncio.wait_for(c.closed.wait(), 5)
            assert c.goodbye["name"] == "LEAVING"
    run(main())


def test_idle_clients_keep_their_connection_with_keepalive_pings():
    async def main():
        async with running_server(idle_timeout=0.4) as srv:
            from net.client import Client
            from net.testing import LOOPBACK
            quiet = await Client.connect(LOOPBACK, srv.port, keepalive=None)
            await quiet.hello("quiet")
            alive = await Client.connect(LOOPBACK, srv.port, keepalive=0.1)
            await alive.hello("alive")
            await asyncio.wait_for(quiet.closed.wait(), 5)
            assert quiet.goodbye["name"] == "TIMEOUT"
            assert not alive.closed.is_set()
            assert "time" in await alive.call("ping")
            await close_all([quiet, alive])
    run(main())


def test_action_refusals_carry_the_engines_code_and_params():
    """An illegal play (and a bid out of turn, a play in the wrong phase, a bad bid) is answered
    with the engine's stable code and parameters next to the English message."""
    from engine.state import IllegalAction, Play

    async def main():
        async with running_server() as srv:
            clients = await seat_four(srv)
            for c in clients:
                await c.call("ready", ready=True)
            room = srv.rooms[0]
            g = room.game
            first = g.to_act
            with pytest.raises(RemoteError) as e:
                await clients[(first + 1) % 4].call("bid", amount=None)
            assert e.value.refusal == {"code": "not_your_turn",
                                       "params": {"seat": (first + 1) % 4, "to_act": first}}
            with pytest.raises(RemoteError) as e:
                await clients[first].call("play", cards=["BJ"])
            assert e.value.refusal == {"code": "wrong_phase",
                                       "params": {"action": "Play", "phase": "bid"}}
            with pytest.raises(RemoteError) as e:
                await clients[first].call("bid", amount=68)
            assert e.value.name == "ILLEGAL_ACTION"
            assert e.value.refusal["code"] == "bad_bid"
            assert e.value.refusal["params"]["amount"] == 68
            assert e.value.refusal["params"]["options"] == list(g.view(first).legal_bid_amounts)
            # to the first trick: first bids, the others pass, it names ♥ and buries 8 cards
            await clients[first].call("bid", amount=60)
            for k in (1, 2, 3):
                await clients[(first + k) % 4].call("bid", amount=None)
            await clients[first].call("trump", suit="H")
            hand = codec.view_out(g.view(first))["hand"]
            await clients[first].call("bury", cards=hand[:8])
            # lead a plain-suit card that the next seat can follow, then let it play off-suit
            nxt = (first + 1) % 4
            ctx = g.view(first).ctx
            theirs = g.view(nxt).hand
            lead, off = next(
                (c, o) for c in g.view(first).hand if not ctx.is_trump(c)
                for o in theirs
                if any(ctx.suit_of(x) == ctx.suit_of(c) for x in theirs)
                and ctx.suit_of(o) != ctx.suit_of(c))
            await clients[first].call("play", cards=codec.cards_out([lead]))
            with pytest.raises(IllegalAction) as local:  # what the engine itself says
                g.apply(Play(nxt, (off,)))
            with pytest.raises(RemoteError) as e:
                await clients[nxt].call("play", cards=codec.cards_out([off]))
            err = e.value.error
            check_type(err, "Error")
            assert err["name"] == "ILLEGAL_ACTION" and err["message"] == str(local.value)
            assert err["refusal"] == {"code": "follow_suit", "params": local.value.params}
            assert local.value.code == "follow_suit"
            assert set(err["refusal"]["params"]) == {"suit"}
            await close_all(clients)
    run(main())


def test_protocol_versions_1_and_2_share_a_table():
    """Version 1 sessions get a full view after every change; version 2 sessions get one when
    the hand is dealt and fold the events in between (PROTOCOL.md §3, §12); both end with the
    same view as the host's. An unknown version is refused."""
    async def main():
        async with running_server() as srv:
            clients = [await connect(srv, f"p{i}", seat=i, protocol=1 + i % 2) for i in range(4)]
            assert [c.welcome["protocol"] for c in clients] == [1, 2, 1, 2]
            frames = {i: [] for i in range(4)}
            bots = [Bot(c, FirstLegal(i), hands=1,
                        on_message=lambda m, p, i=i: frames[i].append((m, p)))
                    for i, c in enumerate(clients)]
            await asyncio.gather(*(b.run(30) for b in bots))
            assert all(b.hands_done == 1 and not b.errors and not b.resyncs for b in bots)
            game = srv.rooms[0].game
            for i, c in enumerate(clients):
                views = [p for m, p in frames[i] if m == "view"]
                events = [p for m, p in frames[i] if m == "event"]
                if c.welcome["protocol"] == 1:
                    assert len(views) > 50  # one per change
                else:
                    assert [v["events"] for v in views] == [5]  # the deal only
                assert len(events) == len(game.events)
                assert bots[i].views.view == codec.view_in(codec.view_out(game.view(i)))
                assert bots[i].views.events == len(game.events)
            with pytest.raises(RemoteError) as e:
                await connect(srv, "old", protocol=4)  # the newest is 3 (PROTOCOL.md §12)
            assert e.value.name == "VERSION_MISMATCH"
            await close_all(clients)
    run(main())


def test_a_bot_whose_snapshot_answer_arrives_with_a_new_hand_plays_that_hand():
    """A bot's opening ``snapshot`` answer can arrive in the same write as a new hand's deal:
    the bot handles the deal before its snapshot call returns, and the older snapshot must
    not replace the newer view (regression: such bots fell out of step and had to ask for
    another snapshot)."""
    async def main():
        async with running_server() as srv:
            for round_no in range(2):  # the second round joins a table with a settled hand
                clients = await seat_four(srv)
                for c in clients[1:]:
                    await c.call("ready", ready=True)
                bots = [Bot(c, FirstLegal(i), hands=1, auto_ready=i > 0)
                        for i, c in enumerate(clients)]
                tasks = [asyncio.ensure_future(b.run(30)) for b in bots]
                for _ in range(200):  # until bot 0's snapshot request is on its way
                    if clients[0]._pending:
                        break
                    await asyncio.sleep(0)
                assert clients[0]._pending
                clients[0].send_request("ready", {"ready": True})  # right behind it
                await asyncio.gather(*tasks)
                assert [b.hands_done for b in bots] == [1] * 4
                assert [b.resyncs for b in bots] == [0] * 4
                assert srv.rooms[0].hand_no == round_no + 1
                await asyncio.gather(*(c.bye(2.0) for c in clients))
    run(main())
