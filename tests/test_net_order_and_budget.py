"""PROTOCOL.md as written, over real sockets on 127.0.0.1: nil params are refused, the table's
chat budget holds (observers included), nothing arrives before the Welcome (also on a resume
mid-hand, whose seat shows ``ready: false`` with ``in_hand: true``), and a hand ends with
``hand_settled``, then ``table``, then ``turn``. Every wait bounded."""
from __future__ import annotations

import asyncio

import pytest

from net import framing, protocol
from net.client import RemoteError
from net.protocol import PROTOCOL_VERSION
from net.testing import LOOPBACK, close_all, connect, fast_table, running_server

AI = "first-legal"


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(pred, timeout: float = 10.0, what: str = "condition") -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not pred():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def docs_until_answer(reader, dec, msgid: int) -> list:
    """Every document read up to and including the response to ``msgid``."""
    docs: list = []
    while not any(d[0] == protocol.RESPONSE and d[1] == msgid for d in docs):
        data = await asyncio.wait_for(reader.read(65536), 5)
        assert data, f"closed before the answer: {docs}"
        docs.extend(dec.feed(data))
    return docs


@pytest.mark.parametrize("method", ["ping", "tables", "hello"])
def test_nil_params_are_bad_params_not_an_empty_map(method):
    async def main():
        async with running_server() as srv:
            reader, writer = await asyncio.open_connection(LOOPBACK, srv.port)
            writer.write(framing.encode([0, 5, method, None]))
            docs = await docs_until_answer(reader, framing.Decoder(), 5)
            assert docs[-1][2]["name"] == "BAD_PARAMS", docs
            assert "nil" in docs[-1][2]["message"]
            writer.write(framing.encode(protocol.request(6, "ping", {})))  # still served
            docs = await docs_until_answer(reader, framing.Decoder(), 6)
            assert docs[-1][2] is None
            writer.close()
    run(main())


def test_the_table_chat_budget_holds_for_observers_and_players_alike():
    """A budget of 5 lines for the table (next to no refill) and 3 per session: three
    observers trying 4 lines each get 5 through in all; the player hears exactly those."""
    async def main():
        async with running_server([fast_table()], chat_rate=0.001, chat_burst=5,
                                  chat_session_rate=0.001, chat_session_burst=3) as srv:
            player = await connect(srv, "player", seat=0)
            watchers = [await connect(srv, f"w{i}", observer=True) for i in range(3)]
            outcomes = []
            for w in watchers:
                for n in range(4):
                    try:
                        await w.call("chat", text=f"{w.welcome['session']}:{n}")
                        outcomes.append("ok")
                    except RemoteError as exc:
                        assert exc.name == "RATE_LIMITED"
                        outcomes.append("table" if "table" in str(exc) else "session")
            assert outcomes == ["ok"] * 3 + ["session"] + ["ok"] * 2 + ["table"] * 6
            heard = []
            await player.call("ping")  # every relayed line reached it before this answer
            while not player.notifications.empty():
                m, p = player.notifications.get_nowait()
                if m == "chat":
                    heard.append(p["text"])
            assert len(heard) == 5
            await close_all([player, *watchers])
    run(main())


def test_a_resume_mid_hand_gets_the_welcome_first_then_the_notifications():
    async def main():
        table = fast_table(ai_seats={1: AI, 2: AI, 3: AI}, auto_delay_s=30.0)
        async with running_server([table]) as srv:
            room = srv.rooms[0]
            first = await connect(srv, "p0", seat=0)
            token = first.welcome["token"]
            await first.call("ready", ready=True)
            await until(lambda: room.in_hand and room.game.to_act == 0, what="seat 0's turn")
            await first.close()
            await until(lambda: room.seats[0].session is None and room.seats[0].auto,
                        what="the drop")
            reader, writer = await asyncio.open_connection(LOOPBACK, srv.port)
            writer.write(framing.encode(protocol.request(1, "hello", {
                "protocol": PROTOCOL_VERSION, "name": "p0", "token": token})))
            dec = framing.Decoder()
            docs = await docs_until_answer(reader, dec, 1)
            assert docs[0][:2] == [protocol.RESPONSE, 1], f"before the Welcome: {docs[0]}"
            welcome = docs[0][3]
            assert welcome["resumed"] and welcome["seat"] == 0
            snap_table = welcome["snapshot"]["table"]
            assert snap_table["in_hand"] and snap_table["seats"][0]["ready"] is False
            assert snap_table["seats"][0]["auto"] is False  # already switched off
            writer.write(framing.encode(protocol.request(2, "ping", {})))
            docs = docs[1:] + await docs_until_answer(reader, dec, 2)
            notes = [d for d in docs if d[0] == protocol.NOTIFICATION]
            kinds = [d[1] for d in notes]
            assert kinds[:2] == ["auto", "table"], kinds
            assert notes[0][2] == {"seat": 0, "on": False, "reason": "reconnect"}
            assert "turn" in kinds  # it is this seat's turn: the turn is announced again
            writer.close()
    run(main())


def test_a_hand_ends_with_hand_settled_then_table_then_turn():
    async def main():
        table = fast_table(ai_seats={i: AI for i in range(4)}, max_hands=1)
        async with running_server([table]) as srv:
            watcher = await connect(srv, "w", observer=True)
            seen = []
            while True:
                m, p = await watcher.next_notification(20)
                seen.append(m if m != "event" else p["event"]["kind"])
                if m == "turn" and p["turn"]["phase"] == "settle":
                    break
            at = seen.index("hand_settled")
            assert seen[at:] == ["hand_settled", "table", "turn"], seen[at:]
            await close_all([watcher])
    run(main())
