"""The 找朋友 hand phase machine (engine/zhaopengyou.py) and its match (engine/match.py):
scripted deals through every phase, redeals and the kitty flip, the counter round, the friend
reveal, settlement carried to the next hand, and views that never leak (RULES.md "找朋友")."""
from __future__ import annotations

import copy
import random

import pytest

from engine.cards import Card, make_deck, parse_cards
from engine.events import (
    CardDealt, DealFinished, Declared, FriendCalled, FriendRevealed, HandSettled, KittyBuried,
    KittyFlipped, KittyTaken, Passed, Redealt,
)
from engine.match import HongwuMatch, MatchOver, ZpyMatch
from engine.ruleset import zhaopengyou
from engine.state import Bury, IllegalAction, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase, ZpyHand, result_line

C = Card.parse


def build_stack(first: int, wants: dict[int, list[str]], kitty: list[str] = (), seed: int = 0,
                spare_level_cards_to_kitty: bool = False) -> list[Card]:
    """A 162-card stack in which seat s is dealt ``wants[s]`` as its first cards (in that
    order) and the kitty starts with ``kitty``; the rest shuffled with ``seed``."""
    pool = make_deck(3)
    for cards in list(wants.values()) + [list(kitty)]:
        for c in parse_cards(cards):
            pool.remove(c)
    random.Random(seed).shuffle(pool)
    hands = {s: list(parse_cards(wants.get(s, []))) for s in range(5)}
    kt = list(parse_cards(kitty))
    for s in range(5):
        while len(hands[s]) < 31:
            hands[s].append(pool.pop())
    kt += pool
    assert len(kt) == 7
    stack = [None] * 162
    for i in range(155):
        s = (first + i) % 5
        stack[i] = hands[s][i // 5]
    stack[155:] = kt
    return stack


def drive_deal(hand: ZpyHand, script: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """Answer the deal's polls: the next ``(min_cards_dealt, seat, cards)`` of ``script`` is
    declared at the first poll of that seat once that many cards are out; every other poll
    passes. Returns the polls as ``(cards_dealt, seat)``."""
    polls = []
    script = list(script)
    while hand.phase is ZPhase.DEAL:
        seat = hand.to_act
        polls.append((hand.dealt, seat))
        if script and script[0][1] == seat and hand.dealt >= script[0][0]:
            _, _, cards = script.pop(0)
            hand.apply(Declare(seat, parse_cards(cards)))
        else:
            hand.apply(Pass(seat))
    assert not script, f"declarations never made: {script}"
    return polls


def example_hand(**options) -> ZpyHand:
    """The spec's worked example set-up: levels 4 3 3 2 2, right 0 1 3, first card seat 2."""
    stack = build_stack(2, {3: ["2H", "2S", "2S"], 1: ["3C", "3C", "4H", "4H"], 0: ["4D", "4D", "KC", "5C", "3S", "6S", "7C", "8C", "9H"]},
                        seed=11)
    return ZpyHand.from_stack(stack, zhaopengyou(**options), levels=(4, 3, 3, 2, 2), eligible=(0, 1, 3),
                              first_card=2)


def to_play(hand: ZpyHand, rng: random.Random) -> None:
    """Finish the current non-play phases with passes, a valid call and a random bury."""
    while hand.phase is not ZPhase.PLAY and not hand.is_over:
        seat = hand.to_act
        if hand.phase is ZPhase.BURY:
            hand.apply(Bury(seat, tuple(rng.sample(hand.hands[seat], 7))))
        elif hand.phase is ZPhase.CALL_FRIEND:
            hand.apply(next(hand.legal_actions()))
        else:
            hand.apply(Pass(seat))


def play_out(hand: ZpyHand, rng: random.Random) -> None:
    to_play(hand, rng)
    while not hand.is_over:
        hand.apply(Play(hand.to_act, hand.play_options().sample(rng)))


# --- the deal (§3) ------------------------------------------------------------------------
def test_worked_example_deal_contest_mode():
    hand = example_hand()
    script = [(12, 3, "2H"), (40, 1, "3C 3C"), (97, 0, "4D 4D")]
    polls = []
    while hand.phase is ZPhase.DEAL:
        seat = hand.to_act
        assert seat in (0, 1, 3), "seat 2 has no declaring right and is never polled"
        polls.append(seat)
        if script and script[0][1] == seat and hand.dealt >= script[0][0]:
            hand.apply(Declare(seat, parse_cards(script.pop(0)[2])))
        elif seat == 3 and hand.standing and hand.standing[0] == 0:
            # 2S 2S is legal but does not override 4D 4D: not offered, refused if tried
            assert hand.view(3).legal_declarations == ()
            with pytest.raises(IllegalAction):
                hand.apply(Declare(3, parse_cards("2S 2S")))
            hand.apply(Pass(3))
        else:
            hand.apply(Pass(seat))
    assert not script
    assert (hand.dealer, hand.level, hand.trump) == (0, 4, "D")
    assert hand.phase is ZPhase.CALL_FRIEND and hand.to_act == 0
    done = [e for e in hand.events if isinstance(e, DealFinished)]
    assert done == [DealFinished(0, 4, "D", True)]
    decl = [(e.seat, e.cards) for e in hand.events if isinstance(e, Declared)]
    assert decl == [(3, parse_cards("2H")), (1, parse_cards("3C 3C")), (0, parse_cards("4D 4D"))]
    assert sum(isinstance(e, CardDealt) for e in hand.events) == 155


def _late_stack() -> list[Card]:
    """First card to seat 2: seat 1 gets cards 5, 10, ... 155 and three 2H as its last
    three; seat 2 gets two 2D as its last two (cards 146, 151); nobody else of seats 1 and 2
    holds a 2 or a joker."""
    pool = make_deck(3)
    for c in parse_cards("2H 2H 2H 2D 2D"):
        pool.remove(c)
    plain = [c for c in pool if c.rank != 2 and not c.is_joker]
    rest = [c for c in pool if c.rank == 2 or c.is_joker]
    hands = {1: plain[:28] + list(parse_cards("2H 2H 2H")), 2: plain[28:57] + list(parse_cards("2D 2D"))}
    others = plain[57:] + rest
    hands[0], hands[3], hands[4] = others[:31], others[31:62], others[62:93]
    kitty = others[93:]
    stack = [hands[(2 + i) % 5][i // 5] for i in range(155)] + kitty
    return stack


def test_windows_after_the_last_card_start_after_the_last_declarer():
    hand = ZpyHand.from_stack(_late_stack(), zhaopengyou(), eligible=(1, 2), first_card=2)
    polls = drive_deal(hand, [(155, 1, "2H"), (155, 2, "2D 2D"), (155, 1, "2H 2H"), (155, 1, "2H 2H 2H")])
    # window after card 155: 1 declares, 2 outbids; the next starts at 3 (after 2): 1 outbids;
    # the next starts at 2, so 1 is polled last and outbids himself; then five passes
    assert [p for p in polls if p[0] == 155] == [(155, 1), (155, 2), (155, 1), (155, 1)]
    assert (hand.dealer, hand.trump, hand.standing) == (1, "H", (1, parse_cards("2H 2H 2H")))


def test_a_polled_seat_may_pass_and_declare_later():
    hand = ZpyHand.from_stack(_late_stack(), zhaopengyou(), eligible=(1, 2), first_card=2)
    polls = drive_deal(hand, [(150, 1, "2H 2H")])
    assert (145, 1) in polls and (150, 1) in polls  # passed at card 145, declared at 150
    assert hand.dealer == 1 and hand.standing == (1, parse_cards("2H 2H"))


def test_first_mode_lets_the_first_declaration_stand():
    hand = example_hand(declaration_mode="first")
    polls = drive_deal(hand, [(0, 3, "2H")])
    assert hand.dealer == 3 and hand.trump == "H" and hand.level == 2
    first = next(i for i, (_, s) in enumerate(polls) if s == 3)
    assert polls[first + 1:] == [], "nobody is polled once a declaration stands"


def test_self_overbid_and_joker_no_trump():
    stack = build_stack(0, {0: ["2S", "2S", "BJ", "BJ"]})
    hand = ZpyHand.from_stack(stack, zhaopengyou(), eligible=(0,), first_card=0)
    drive_deal(hand, [(0, 0, "2S"), (6, 0, "2S 2S"), (16, 0, "BJ BJ")])
    assert hand.dealer == 0 and hand.trump is None and hand.level == 2
    assert hand.ctx.trump is None  # no-trump: only jokers and level cards are trump


def test_no_self_overbid_option():
    stack = build_stack(0, {0: ["2S", "2S"]})
    hand = ZpyHand.from_stack(stack, zhaopengyou(self_overbid=False), eligible=(0,), first_card=0)
    polls = drive_deal(hand, [(0, 0, "2S")])
    assert len(polls) == 1 and hand.trump == "S"


def test_redeals_then_kitty_flip():
    rs = zhaopengyou(max_redeals=2)
    hand = ZpyHand.new(rs, seed=4, levels=(5, 3, 3, 7, 2), eligible=(3, 4), first_card=1)
    drive_deal(hand, [])
    redeals = [e.deal_no for e in hand.events if isinstance(e, Redealt)]
    assert redeals == [2, 3] and hand.deal_no == 3
    flip = [e for e in hand.events if isinstance(e, KittyFlipped)]
    assert len(flip) == 1
    # the dealer: first seat with the right counting from the first-card seat (1): seat 3
    assert hand.dealer == 3 and hand.level == 7
    kitty = flip[0].cards
    sevens = [c for c in kitty if c.rank == 7 and c.suit]
    assert hand.trump == (sevens[0].suit if sevens else next(c.suit for c in kitty if c.suit))
    assert hand.view(0).kitty_flip == kitty  # shown to all
    assert hand.card_count() == 162


def test_kitty_flip_at_once_and_counter_after_flip():
    hand = ZpyHand.new(zhaopengyou(no_declaration="kitty_flip"), seed=9, first_card=2)
    drive_deal(hand, [])
    assert not any(isinstance(e, Redealt) for e in hand.events)
    assert hand.dealer == 2 and any(isinstance(e, KittyFlipped) for e in hand.events)
    rng = random.Random(1)
    hand.apply(next(hand.legal_actions()))  # the call
    hand.apply(Bury(2, tuple(hand.hands[2][:7])))
    # after a flip the dealer stands with no cards: he is not polled in the counter round
    while hand.phase is ZPhase.COUNTER:
        assert hand.to_act != 2
        hand.apply(Pass(hand.to_act))
    assert hand.phase is ZPhase.PLAY
    play_out(hand, rng)
    assert hand.is_over


def test_redeal_keeps_first_seat_and_rights():
    hand = ZpyHand.new(zhaopengyou(max_redeals=1), seed=2, eligible=(1,), first_card=4)
    drive_deal(hand, [])
    assert hand.first_card == 4 and hand.eligible == (1,)
    assert hand.deal_no == 2 and sum(isinstance(e, Redealt) for e in hand.events) == 1
    assert hand.dealer == 1 and any(isinstance(e, KittyFlipped) for e in hand.events)
    # every deal is dealt card by card again: 155 cards per deal
    assert sum(isinstance(e, CardDealt) for e in hand.events) == 2 * 155


# --- the call, the kitty, the counter round (§4, §5) -------------------------------------
def _example_to_call() -> ZpyHand:
    hand = example_hand()
    drive_deal(hand, [(12, 3, "2H"), (40, 1, "3C 3C"), (97, 0, "4D 4D")])
    return hand


def test_friend_call_validated_by_the_rules():
    hand = _example_to_call()
    for bad in (CallFriend(0, C("4S"), 1), CallFriend(0, C("AD"), 1), CallFriend(0, C("BJ"), 1),
                CallFriend(0, C("AS"), 4), CallFriend(0, C("AS"), 0)):
        with pytest.raises(IllegalAction):
            hand.apply(bad)
    with pytest.raises(IllegalAction):
        hand.apply(CallFriend(1, C("AS"), 1))  # not the dealer
    events = hand.apply(CallFriend(0, C("AS"), 1))
    assert events[0] == FriendCalled(0, C("AS"), 1)
    assert isinstance(events[1], KittyTaken) and events[1].seat == 0
    assert all(hand.view(s).friend_call == (C("AS"), 1) for s in range(5))  # public
    assert hand.phase is ZPhase.BURY and len(hand.hands[0]) == 38


def test_bury_then_counter_then_rebury():
    hand = _example_to_call()
    hand.apply(CallFriend(0, C("AS"), 1))
    kitty = hand.kitty
    assert hand.view(0).kitty == kitty and all(hand.view(s).kitty is None for s in (1, 2, 3, 4, None))
    with pytest.raises(IllegalAction):
        hand.apply(Bury(0, parse_cards("KC 5C 3S 6S 7C 8C")))  # six cards
    hand.apply(Bury(0, parse_cards("KC 5C 3S 6S 7C 8C 9H")))
    assert hand.phase is ZPhase.COUNTER and hand.to_act == 1  # the dealer's 下家 first
    assert hand.view(0).buried == parse_cards("3S 5C 6S 7C 8C KC 9H") or sorted(hand.view(0).buried) == sorted(parse_cards("KC 5C 3S 6S 7C 8C 9H"))
    assert hand.view(1).buried is None
    assert parse_cards("4H 4H") in hand.view(1).legal_declarations
    assert hand.view(2).to_act is None  # who is polled is not shown to others
    events = hand.apply(Declare(1, parse_cards("4H 4H")))
    assert isinstance(events[0], Declared) and events[0].phase == "counter" and events[0].trump == "H"
    assert hand.trump == "H" and hand.dealer == 0 and hand.level == 4
    assert hand.phase is ZPhase.BURY and hand.to_act == 1 and len(hand.hands[1]) == 38
    assert hand.view(1).kitty == hand.kitty and hand.view(0).kitty is None
    hand.apply(Bury(1, tuple(sorted(hand.hands[1])[:7])))
    assert hand.view(1).buried is not None and hand.view(0).buried is None
    polled = []
    while hand.phase is ZPhase.COUNTER:
        polled.append(hand.to_act)
        hand.apply(Pass(hand.to_act))
    assert 1 not in polled  # the standing declarer is not polled
    assert hand.phase is ZPhase.PLAY and hand.to_act == 0  # the dealer leads
    assert hand.card_count() == 162


def test_counter_declare_off_and_eligible():
    hand = example_hand(counter_declare="off")
    drive_deal(hand, [(12, 3, "2H"), (40, 1, "3C 3C"), (97, 0, "4D 4D")])
    hand.apply(CallFriend(0, C("AS"), 1))
    hand.apply(Bury(0, parse_cards("KC 5C 3S 6S 7C 8C 9H")))
    assert hand.phase is ZPhase.PLAY
    hand = example_hand(counter_declare="eligible")
    drive_deal(hand, [(12, 3, "2H"), (40, 1, "3C 3C"), (97, 0, "4D 4D")])
    hand.apply(CallFriend(0, C("AS"), 1))
    hand.apply(Bury(0, parse_cards("KC 5C 3S 6S 7C 8C 9H")))
    while hand.phase is ZPhase.COUNTER:
        assert hand.to_act in (1, 3)  # only seats with the declaring right
        hand.apply(Pass(hand.to_act))


def test_friend_call_after_bury_order():
    hand = example_hand(friend_call_time="after_bury")
    drive_deal(hand, [(12, 3, "2H"), (40, 1, "3C 3C"), (97, 0, "4D 4D")])
    assert hand.phase is ZPhase.BURY and hand.to_act == 0
    hand.apply(Bury(0, parse_cards("KC 5C 3S 6S 7C 8C 9H")))
    hand.apply(Declare(1, parse_cards("4H 4H")))
    hand.apply(Bury(1, tuple(hand.hands[1][:7])))
    while hand.phase is ZPhase.COUNTER:
        hand.apply(Pass(hand.to_act))
    assert hand.phase is ZPhase.CALL_FRIEND and hand.to_act == 0
    with pytest.raises(IllegalAction):
        hand.apply(CallFriend(0, C("AH"), 1))  # ♥ is trump at the call now
    hand.apply(CallFriend(0, C("AS"), 1))
    assert hand.phase is ZPhase.PLAY


# --- play, the friend, settlement (§4, §7-§10) -------------------------------------------
def test_friend_revealed_to_all_at_once():
    for seed in range(40):
        hand = ZpyHand.new(seed=seed)
        rng = random.Random(seed)
        to_play(hand, rng)
        card, nth = hand.friend_call
        revealed_at = None
        while not hand.is_over:
            before = [hand.view(s).friend for s in range(5)]
            events = hand.apply(Play(hand.to_act, hand.play_options().sample(rng)))
            rev = [e for e in events if isinstance(e, FriendRevealed)]
            if rev and revealed_at is None:
                revealed_at = len(hand.plays)
                assert before == [None] * 5
                if not rev[0].alone:
                    assert all(hand.view(s).friend == rev[0].seat for s in list(range(5)) + [None])
                    assert rev[0].for_seat(3) == rev[0]  # public
                    seat, cards = hand.plays[-1]
                    assert seat == rev[0].seat and card in cards
                    copies = sum(c == card for _, p in hand.plays for c in p)
                    assert copies >= nth > copies - cards.count(card)
                    break
        if revealed_at is not None and hand.friend is not None:
            return
    pytest.fail("no friend revealed in 40 random hands")


def test_throw_judged_against_the_other_four_hands():
    rng = random.Random(3)
    for seed in range(30):
        hand = ZpyHand.new(seed=seed)
        play_out(hand, rng)
        fails = [e for e in hand.events if e.kind == "throw_failed"]
        for ev in fails:
            assert ev.blocker != ev.seat
        if fails:
            return
    pytest.fail("no failed throw in 30 random hands")


def test_settlement_is_the_rules_settlement():
    from engine.zhaopengyou_rules import settle_hand

    hand = ZpyHand.new(seed=21)
    play_out(hand, random.Random(2))
    st = hand.settlement
    assert isinstance(hand.events[-1], HandSettled) and hand.events[-1].settlement == st
    last = hand.tricks[-1]
    again = settle_hand(dealer=hand.dealer, friend=hand.friend, levels=hand.levels, trump=hand.trump,
                        points_won=hand.points_won, kitty=hand.kitty, last_trick_winner=last.winner,
                        last_lead=last.plays[0][1], failed_throws=hand.failed_throws,
                        options=hand.options,
                        friend_points_before_reveal=hand.friend_points_before)
    assert again == st
    assert sum(hand.points_won) + sum(c.points for c in hand.kitty) == 300
    assert all(len(t.plays) == 5 for t in hand.tricks)
    from engine.tricks import trick_winner

    for t in hand.tricks:  # every trick went to the rules' winner, points counted
        assert t.plays[trick_winner([p for _, p in t.plays], hand.ctx)][0] == t.winner
        assert t.points == sum(c.points for _, p in t.plays for c in p)
    assert sum(len(p) for t in hand.tricks for _, p in t.plays) == 155
    assert "hand 1: dealer" in result_line(hand)


def test_match_carries_levels_rights_and_first_card():
    match = ZpyMatch(seed=5, max_hands=3)
    rng = random.Random(5)
    for _ in range(3):
        hand = match.hand
        play_out(hand, rng)
        st = hand.settlement
        if len(match.results) == 2:
            match.finish_hand()
            with pytest.raises(MatchOver):
                match.next_hand()
            break
        nxt = match.next_hand()
        assert nxt.levels == st.levels and nxt.eligible == tuple(st.eligible)
        assert nxt.first_card == hand.dealer == st.first_card_to
        assert nxt.hand_no == hand.hand_no + 1
        assert max(nxt.levels) <= 14
    assert len(match.results) == 3


def test_match_is_reproducible_and_refuses_an_unfinished_hand():
    a, b = ZpyMatch(seed=8), ZpyMatch(seed=8)
    assert a.hand.stack == b.hand.stack and a.hand.first_card == b.hand.first_card
    with pytest.raises(ValueError):
        a.next_hand()


def test_hongwu_match_has_the_same_interface():
    from engine.state import first_legal_action

    m = HongwuMatch(seed=3, max_hands=2)
    for _ in range(2):
        g = m.hand
        while not g.is_over:
            g.apply(first_legal_action(g.view(g.to_act)))
        if len(m.results) == 1:
            m.finish_hand()
            with pytest.raises(MatchOver):
                m.next_hand()
            break
        m.next_hand()
    assert m.game_over and len(m.results) == 2


# --- views never leak ---------------------------------------------------------------------
def _check_views(hand: ZpyHand) -> None:
    phase = hand.phase
    for seat in list(range(5)) + [None]:
        v = hand.view(seat)
        if seat is None:
            assert v.hand == () and v.kitty is None and v.legal_declarations == ()
        else:
            assert sorted(v.hand) == sorted(hand.hands[seat])
        assert v.hand_sizes == tuple(len(h) for h in hand.hands)
        if v.kitty is not None:
            assert phase is ZPhase.BURY and seat == hand.burier
        if v.buried is not None:
            assert phase is ZPhase.SETTLE or seat == hand.burier
        if phase in (ZPhase.DEAL, ZPhase.COUNTER) and seat != hand.to_act:
            assert v.to_act is None and v.legal_declarations == ()
        if not hand.friend_resolved:
            assert v.friend is None
        if v.settlement is None:
            assert phase is not ZPhase.SETTLE


def test_views_and_events_never_leak_over_a_whole_hand():
    from ai_plugins.builtin.basic import BasicAI
    from ai_plugins.base import AISettings
    from ai_plugins.runner import SafePlayer

    hand = ZpyHand.new(seed=33)
    players = [SafePlayer(BasicAI(AISettings(seat=s, seed=s)), "basic", s) for s in range(5)]
    steps = 0
    while not hand.is_over:
        _check_views(hand)
        seat = hand.to_act
        hand.apply(players[seat].act(hand.view(seat)))
        steps += 1
        if steps % 7 == 0 or hand.phase is not ZPhase.PLAY:
            _check_views(hand)
    _check_views(hand)
    assert all(not p.faults for p in players)
    for ev in hand.events:
        for seat in range(5):
            seen = ev.for_seat(seat)
            if isinstance(ev, (CardDealt, KittyTaken, KittyBuried)) and ev.seat != seat:
                assert seen.cards is None
            if isinstance(ev, Passed) and ev.seat != seat:
                assert seen.seat is None
        assert ev.for_seat(None).__dict__.get("seed") is None


def test_bad_actions_leave_the_state_unchanged():
    hand = example_hand()
    snapshot = copy.deepcopy(hand.__dict__)
    seat = hand.to_act
    for bad in (Pass((seat + 1) % 5), Play(seat, parse_cards("2H")), CallFriend(seat, C("AS"), 1),
                Declare(seat, parse_cards("KD KD")), Declare(seat, ("XX",)), Pass(7), Pass("0")):
        with pytest.raises(IllegalAction):
            hand.apply(bad)
    assert hand.__dict__.keys() == snapshot.keys()
    assert hand.dealt == snapshot["dealt"] and hand.events == snapshot["events"]


def test_clone_and_from_view_replay_the_same_hand():
    rng = random.Random(4)
    hand = ZpyHand.new(seed=44)
    to_play(hand, rng)
    for _ in range(37):  # into the hand, past a few tricks
        hand.apply(Play(hand.to_act, hand.play_options().sample(rng)))
    twin = hand.clone()
    seat = hand.to_act
    view = hand.view(seat)
    rebuilt = ZpyHand.from_view(view, [hand.hands[s] for s in range(5)], kitty=hand.kitty)
    moves = random.Random(9)
    while not hand.is_over:
        play = hand.play_options().sample(moves)
        for h in (hand, twin, rebuilt):
            h.apply(Play(h.to_act, play))
    assert twin.settlement == hand.settlement == rebuilt.settlement
    assert twin.friend == hand.friend == rebuilt.friend
    with pytest.raises(ValueError):
        ZpyHand.from_view(view, [hand.hands[s] for s in range(5)])  # sizes no longer match


def test_friend_points_before_the_reveal_and_the_lone_dealer():
    found_friend = found_alone = False
    for seed in range(60):
        hand = ZpyHand.new(seed=seed)
        rng = random.Random(seed)
        play_out(hand, rng)
        rev = [e for e in hand.events if isinstance(e, FriendRevealed)]
        assert len(rev) == 1  # told once: at the Nth copy, or at the end when it never came
        if hand.friend is not None:
            k = rev[0].trick_no  # tricks finished before the trick of the reveal
            want = sum(t.points for t in hand.tricks[:k - 1] if t.winner == hand.friend)
            assert hand.friend_points_before == want
            assert hand.settlement.dealer_side == tuple(sorted((hand.dealer, hand.friend)))
            found_friend = True
        else:
            assert hand.alone and rev[0].alone and rev[0].seat == hand.dealer
            assert hand.settlement.dealer_side == (hand.dealer,)
            assert all(hand.view(s).friend is None and hand.view(s).alone for s in range(5))
            found_alone = True
        if found_friend and found_alone:
            return
    pytest.fail("60 random hands gave no friend or no lone dealer")
