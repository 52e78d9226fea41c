"""The phase machine, views and events (RULES.md §1–§4, §7, §10)."""
import random

import pytest

from engine.events import CardsDealt, KittyTaken, ThrowFailed
from engine.ruleset import hongwu
from engine.state import Bid, Bury, ChooseTrump, Game, IllegalAction, Phase, Play, match_seed


def to_play(game, rng=None, trump="S"):
    """Drive ``game`` through the auction (first seat bids 60, all others pass), trump and a
    bury of the dealer's first cards."""
    while game.phase is Phase.BID:
        s = game.to_act
        game.apply(Bid(s, 60 if not game.auction.actions else None))
    game.apply(ChooseTrump(game.dealer, trump))
    v = game.view(game.dealer)
    game.apply(Bury(game.dealer, v.hand[: v.bury_count]))
    return game


def test_seed_reproduces_the_deal():
    a, b = Game.new(hongwu(2), seed=42), Game.new(hongwu(2), seed=42)
    assert a.hands == b.hands and a.kitty == b.kitty and a.first_bidder == b.first_bidder
    assert Game.new(hongwu(2), seed=43).hands != a.hands


@pytest.mark.parametrize("decks", [2, 3])
def test_deal_sizes_and_events(decks):
    g = Game.new(hongwu(decks), seed=1)
    rs = g.ruleset
    assert [len(h) for h in g.hands] == [rs.hand_size] * 4 and len(g.kitty) == rs.kitty_size
    assert g.phase is Phase.BID
    dealt = [e for e in g.events if isinstance(e, CardsDealt)]
    assert len(dealt) == 4
    assert dealt[1].for_seat(0).cards is None and dealt[1].for_seat(1).cards == dealt[1].cards


def test_turn_order_and_illegal_actions_keep_state():
    g = Game.new(hongwu(2), seed=3, first_bidder=2)
    assert g.to_act == 2
    with pytest.raises(IllegalAction, match="turn"):
        g.apply(Bid(1, 60))
    with pytest.raises(IllegalAction):
        g.apply(Bid(2, 55))
    with pytest.raises(IllegalAction, match="phase"):
        g.apply(Play(2, g.hands[2][:1]))
    assert g.auction.actions == () and g.to_act == 2


def test_trump_kitty_and_bury():
    g = Game.new(hongwu(2), seed=5, first_bidder=0)
    for s, a in [(0, 60), (1, None), (2, None), (3, None)]:
        g.apply(Bid(s, a))
    assert g.phase is Phase.TRUMP and g.dealer == 0 and g.bid == 60
    with pytest.raises(IllegalAction):
        g.apply(ChooseTrump(0, "X"))
    events = g.apply(ChooseTrump(0, "H"))
    assert g.phase is Phase.BURY and len(g.hands[0]) == 33
    kitty = [e for e in events if isinstance(e, KittyTaken)][0]
    assert kitty.for_seat(1).cards is None and kitty.for_seat(0).cards == g.kitty
    assert g.view(0).kitty == g.kitty and g.view(1).kitty is None
    with pytest.raises(IllegalAction, match="exactly 8"):
        g.apply(Bury(0, g.hands[0][:7]))
    with pytest.raises(IllegalAction, match="hold"):
        g.apply(Bury(0, g.hands[1][:8]))
    g.apply(Bury(0, g.hands[0][:8]))
    assert g.phase is Phase.PLAY and g.to_act == 0 and len(g.hands[0]) == 25
    assert g.view(0).buried is not None and g.view(1).buried is None


def test_views_hide_other_hands():
    g = to_play(Game.new(hongwu(2), seed=9))
    for seat in range(4):
        v = g.view(seat)
        assert sorted(v.hand) == sorted(g.hands[seat])
    obs = g.view(None)
    assert obs.hand == () and obs.kitty is None and obs.buried is None


def test_illegal_follow_is_explained_and_refused():
    hands = [
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 2C",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 2C",
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
    ]
    g = Game.from_deal(hands, "BJ BJ SJ SJ 2H 2H 3C 3C", first_bidder=0)
    for s, a in [(0, 60), (1, None), (2, None), (3, None)]:
        g.apply(Bid(s, a))
    g.apply(ChooseTrump(0, "S"))
    g.apply(Bury(0, g.hands[0][-8:]))
    lead = tuple(c for c in g.hands[0] if str(c) == "9D")
    g.apply(Play(0, lead))
    with pytest.raises(IllegalAction, match="♦"):
        g.apply(Play(1, tuple(c for c in g.hands[1] if str(c) == "AC")))
    assert len(g.hands[1]) == 25


def test_failed_throw_plays_forced_cards_for_all_to_see():
    hands = [
        "AD QD 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4H 6H 7H 8H 9H 10H JH QH KH AH 4S 5S",
        "KD 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4H 6H 7H 8H 9H 10H JH QH KH AH 6S 7S 8S",
        "4D 5D 6D 7D 8D 9D 10D JD 3D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 9S 10S JS QS",
        "KS AS 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3H 3H 5H 5H 2S 2S 2H 2H 2C 2C 2D 2D",
    ]
    g = Game.from_deal(hands, "BJ BJ SJ SJ 3C 3C 3S 3S", first_bidder=0)
    for s, a in [(0, 60), (1, None), (2, None), (3, None)]:
        g.apply(Bid(s, a))
    g.apply(ChooseTrump(0, "S"))
    g.apply(Bury(0, tuple(c for c in g.hands[0] if str(c) in ("BJ", "SJ", "3C", "3S"))))
    attempt = tuple(c for c in g.hands[0] if str(c) in ("AD", "QD"))
    events = g.apply(Play(0, attempt))
    failed = [e for e in events if isinstance(e, ThrowFailed)]
    assert failed and [str(c) for c in failed[0].forced] == ["QD"] and failed[0].blocker == 1
    assert [str(c) for c in g.current[0][1]] == ["QD"]
    assert any(str(c) == "AD" for c in g.hands[0])  # taken back
    assert g.view(2).failed_throws == (0,)


def play_random_hand(seed, decks=2, **options):
    rng = random.Random(seed)
    g = Game.new(hongwu(decks, **options), seed=seed)
    total = sorted(c for h in g.hands for c in h) + sorted(g.kitty)
    steps = 0
    while g.phase is not Phase.SETTLE:
        steps += 1
        assert steps < 1000
        s = g.to_act
        v = g.view(s)
        if g.phase is Phase.BID:
            a = Bid(s, rng.choice(list(v.legal_bids()) + [None, None]))
        elif g.phase is Phase.TRUMP:
            a = ChooseTrump(s, rng.choice("SHCD"))
        elif g.phase is Phase.BURY:
            a = Bury(s, tuple(rng.sample(list(v.hand), v.bury_count)))
        else:
            a = Play(s, v.play_options().sample(rng))
        g.apply(a)
    return g, sorted(total)


def test_full_random_hands_conserve_cards_and_settle():
    for seed in range(30):
        for decks in (2, 3):
            g, total = play_random_hand(seed, decks)
            played = [c for t in g.tricks for _, p in t.plays for c in p]
            assert sorted(played + list(g.buried)) == total
            s = g.settlement
            assert sum(s.game_points) == 0
            assert sum(t.points for t in g.tricks) + s.kitty_points == g.ruleset.total_points
            assert s.dealer_final == (
                g.points_won[g.dealer] + (s.kitty_points if s.kitty_counted else 0)
                + s.red_five_adjust - s.bid
            )


def test_match_seed_is_deterministic():
    assert match_seed(7, 1) == match_seed(7, 1) != match_seed(7, 2)
    assert match_seed(None, 1) is None


def test_clone_is_independent():
    g = to_play(Game.new(hongwu(2), seed=11))
    c = g.clone()
    opts = c.play_options()
    c.apply(Play(c.to_act, next(iter(opts))))
    assert len(g.current) == 0 and len(c.current) == 1


def test_from_view_rebuilds_a_position_for_search():
    g = to_play(Game.new(hongwu(2), seed=21))
    rng = random.Random(1)
    for _ in range(6):  # a trick and a half
        g.apply(Play(g.to_act, g.play_options().sample(rng)))
    seat = g.to_act
    v = g.view(seat)
    sim = Game.from_view(v, [list(h) for h in g.hands], g.buried)
    assert sim.to_act == g.to_act and sim.current == g.current and sim.points_won == g.points_won
    while sim.phase is Phase.PLAY:
        sim.apply(Play(sim.to_act, sim.play_options().sample(rng)))
    assert sum(sim.settlement.game_points) == 0 and len(g.current) == 2
    with pytest.raises(ValueError):
        Game.from_view(v, [list(h)[:-1] for h in g.hands])


def test_refusals_carry_stable_codes():
    g = Game.new(hongwu(2), seed=3, first_bidder=2)
    with pytest.raises(IllegalAction) as e:
        g.apply(Bid(1, 60))
    assert e.value.code == "not_your_turn" and e.value.params == {"seat": 1, "to_act": 2}
    with pytest.raises(IllegalAction) as e:
        g.apply(Bid(2, 90))
    assert e.value.code == "bad_bid" and e.value.params["options"] == [60, 65, 70, 75]
    with pytest.raises(IllegalAction) as e:
        g.apply(Play(2, g.hands[2][:1]))
    assert e.value.code == "wrong_phase"
    from engine.tricks import follow_error
    from tests.helpers import C, ctx
    r = follow_error(C("9D 9D"), C("8D 8D KD 3C"), C("KD 8D"), ctx("S"))
    assert r.code == "pair_owed" and r.params == {"suit": "D", "throw": False}
    assert follow_error(C("9D"), C("8D 4S"), C("4S"), ctx("S")).code == "follow_suit"
    assert follow_error(C("9D 9D"), C("8D 4S 4C"), C("4S 4C"), ctx("S")).code == "play_all_suit"
    assert follow_error(C("9D 9D 8D 8D"), C("QD QD JD JD 5D 5D"), C("QD QD 5D 5D"), ctx("S")).code == "tractor_owed"


def test_seed_is_never_shown_to_a_seat():
    from engine.events import HandStarted
    g = Game.new(hongwu(2), seed=99)
    started = g.events[0]
    assert isinstance(started, HandStarted) and started.seed == 99
    assert all(started.for_seat(s).seed is None for s in (0, 1, 2, 3, None))


def test_after_auction_starts_at_the_trump_choice():
    g0 = Game.new(hongwu(2), seed=8)
    g = Game.after_auction(g0.hands, g0.kitty, hongwu(2), dealer=2, bid=155)
    assert g.phase is Phase.TRUMP and g.to_act == 2 and (g.dealer, g.bid) == (2, 155)
    assert [a for _, a in g.view(0).bids] == [155, None, None, None]
    with pytest.raises(ValueError):
        Game.after_auction(g0.hands, g0.kitty, hongwu(2), dealer=2, bid=250)
