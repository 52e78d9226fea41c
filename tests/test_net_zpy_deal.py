"""The 找朋友 deal over the LAN, card by card (issue 16, PROTOCOL.md §14 "The deal, card by
card"): five real socket clients on 127.0.0.1 at a host that paces the deal. Every client gets
one dealt card per ``event`` frame, each followed by its view of the deal so far (its own cards
shown, in order, nothing else), the polled seat's window opens only once the cards before it
have gone out (mid-deal, and the seat's Declare choices with it), and every frame still passes
the hidden-information check of tests/test_net_zpy.py. An unpaced host (``deal_card_s`` 0)
sends many cards per view, which is what the checks tell apart."""
from __future__ import annotations

import asyncio
from typing import Any

from engine.cards import Card
from net import protocol
from net.bot import Bot
from net.testing import close_all, running_server
from net.zpy_deal import DEAL_CARD_S, deal_card_s, view_so_far
from tests.test_net_zpy import ZRandom, check_frames, keep_hands, rconnect, run, zpy_table


def deal_frames(frames: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The ``event`` and ``view`` notifications of a client's first hand, in order, up to
    the end of the deal (the view after the ``deal_finished`` event)."""
    out: list[tuple[str, dict[str, Any]]] = []
    finished = False
    for doc in frames:
        if doc[0] != protocol.NOTIFICATION or doc[1] not in ("event", "view"):
            continue
        params = doc[2]
        if params["hand_no"] != 1:
            continue
        out.append((doc[1], params))
        if doc[1] == "event" and params["event"]["kind"] == "deal_finished":
            finished = True
        elif doc[1] == "view" and finished:
            break
    return out


def cards_per_view(frames: list[tuple[str, dict[str, Any]]]) -> list[int]:
    """For each view of the deal, how many ``card_dealt`` events came since the view before."""
    counts, n = [], 0
    for method, params in frames:
        if method == "event" and params["event"]["kind"] == "card_dealt":
            n += 1
        elif method == "view":
            counts.append(n)
            n = 0
    return counts


def check_paced_deal(frames: list[tuple[str, dict[str, Any]]], seat: int) -> int:
    """Assert that the deal reached ``seat`` a card at a time, in order, each card followed by
    a view holding exactly ``seat``'s own cards dealt so far (card texts only for its own
    cards); returns how many of its views named it polled before the last card."""
    mine: list[str] = []
    last_no = 0
    polled = 0
    pending_card = False
    for method, params in frames:
        if method == "event":
            ev = params["event"]
            if ev["kind"] == "redealt":
                mine, last_no = [], 0
            if ev["kind"] != "card_dealt":
                continue
            assert not pending_card, "two dealt cards without a view in between"
            assert ev["card_no"] == last_no + 1, (last_no, ev)
            last_no = ev["card_no"]
            if ev["seat"] == seat:
                assert ev["cards"] is not None and len(ev["cards"]) == 1
                mine.append(ev["cards"][0])
            else:
                assert ev["cards"] is None
            pending_card = True
            continue
        v = params["view"]
        pending_card = False
        if v["phase"] != "deal":
            continue
        assert v["cards_dealt"] == last_no, (v["cards_dealt"], last_no)
        assert sorted(v["hand"]) == sorted(mine)
        assert sum(v["hand_sizes"]) == last_no and v["hand_sizes"][seat] == len(mine)
        if v["to_act"] == seat:
            assert v["legal_declarations"], "polled without a declaration to make"
            if last_no < 155:
                polled += 1
        else:
            assert v["to_act"] is None and not v["legal_declarations"]
        assert v["dealer"] is None and v["trump"] is None and v["kitty"] is None
    assert last_no == 155, last_no
    return polled


def play_one_hand(deal_s: float, seed: int = 1234) -> tuple[list[Any], list[Any]]:
    """Five seeded bots play one hand at a host pacing its deal ``deal_s`` seconds a card;
    returns every client's frames and the hands dealt."""
    async def main() -> tuple[list[Any], list[Any]]:
        async with running_server([zpy_table(max_hands=1, deal_card_s=deal_s, seed=seed)]) as srv:
            hands = keep_hands(srv.rooms[0])
            clients = [await rconnect(srv, f"p{i}", seat=i) for i in range(5)]
            bots = [Bot(c, ZRandom(i, 3, declare=0.5), hands=1) for i, c in enumerate(clients)]
            await asyncio.gather(*(b.run(90) for b in bots))
            assert all(b.hands_done == 1 for b in bots) and not any(b.errors for b in bots)
            frames = [c.frames for c in clients]
            await close_all(clients)
            return frames, hands
    return run(main(), 120)


def test_a_paced_host_sends_each_client_one_card_per_frame_in_order_with_its_view():
    frames, hands = play_one_hand(0.001)
    polled = 0
    for seat, f in enumerate(frames):
        deal = deal_frames(f)
        counts = cards_per_view(deal)
        assert max(counts) == 1 and sum(counts) >= 155, counts
        polled += check_paced_deal(deal, seat)
        assert check_frames(f, seat, hands) > 155
    assert polled > 0, "no seat was polled mid-deal"
    turns = [d[2]["turn"] for d in frames[0] if d[0] == protocol.NOTIFICATION and d[1] == "turn"]
    assert turns and all(t["seat"] in (None, 0) for t in turns if t["phase"] == "deal")
    assert any(ev.kind == "declared" for ev in hands[0].events)


def test_an_unpaced_host_sends_the_deal_in_batches():
    """The checks above fail for the old behaviour: without pacing the cards up to a poll
    arrive together, before one view."""
    frames, _hands = play_one_hand(0.0)
    assert max(cards_per_view(deal_frames(frames[0]))) > 1


def test_an_action_while_cards_are_still_going_out_is_refused_without_naming_anyone():
    """While the deal is being sent out nobody is to act: a declaration then is NOT_YOUR_TURN
    (the seat may even be the one the engine polls next)."""
    from net.client import RemoteError

    async def main() -> None:
        async with running_server([zpy_table(max_hands=1, deal_card_s=5.0,
                                             ai_seats={i: "first-legal" for i in (1, 2, 3, 4)})]) as srv:
            room = srv.rooms[0]
            c = await rconnect(srv, "p0", seat=0)
            await c.call("ready", ready=True)
            for _ in range(200):  # bounded: 10 s
                if room.game is not None:
                    break
                await asyncio.sleep(0.05)
            assert room.dealing and room.turn_wire(0)["seat"] is None
            try:
                await c.call("pass", {})
            except RemoteError as exc:
                assert exc.name == "NOT_YOUR_TURN" and exc.refusal["params"]["to_act"] is None
            else:
                raise AssertionError("an action mid-deal was accepted")
            snap = await c.call("snapshot")
            assert snap["events"] < len(room.game.events)  # the snapshot is the deal so far
            assert snap["view"]["cards_dealt"] <= 1 and snap["turn"]["seat"] is None
            await close_all([c])
    run(main(), 60)


def test_the_view_so_far_hides_what_the_deal_has_not_shown_yet():
    from engine.zhaopengyou import Pass, ZPhase, ZpyHand

    hand = ZpyHand.new(seed=5)
    while hand.to_act is not None and hand.phase is ZPhase.DEAL:  # every window passed
        hand.apply(Pass(hand.to_act))
    dealt = [ev for ev in hand.events if ev.kind == "card_dealt"][:12]
    shown = [[ev.cards[0] for ev in dealt if ev.seat == s] for s in range(5)]
    v = view_so_far(hand.view(2), shown)
    assert v.phase is ZPhase.DEAL and v.cards_dealt == 12 and v.to_act is None
    assert list(v.hand) == sorted(shown[2]) and all(isinstance(c, Card) for c in v.hand)
    assert v.hand_sizes == tuple(len(h) for h in shown)
    assert v.dealer is None and v.trump is None and v.kitty is None and not v.legal_declarations
    assert view_so_far(hand.view(None), shown).hand == ()


def test_the_host_deal_pace_follows_the_local_tables():
    from game.pacing import SPEEDS, pace

    for speed in SPEEDS:
        assert DEAL_CARD_S[speed] == pace(speed).deal_s / 32  # ZpyLocalTable.card_s
    assert deal_card_s(None) == DEAL_CARD_S["normal"] and deal_card_s("fast", 0.2) == 0.2
