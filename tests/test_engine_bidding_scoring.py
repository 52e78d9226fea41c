"""Bidding, settlement and titles (RULES.md §2, §10, §11)."""
import pytest

from engine.bidding import Auction, BidError, bid_options, replay_auction
from engine.ruleset import hongwu
from engine.scoring import settle, title_for
from tests.helpers import C

R2, R3 = hongwu(2), hongwu(3)


def test_first_bid_options():
    assert bid_options(R2, None) == (60, 65, 70, 75)
    assert bid_options(R3, None) == (80, 85, 90, 95)
    assert bid_options(R2, 100) == (105, 110, 115)
    assert bid_options(R2, 190) == (195, 200)
    assert bid_options(R3, 290) == (295, 300)


def test_auction_turns_skip_passed_seats():
    a = replay_auction(R2, 1, [60, None, 70])
    assert a.to_act == 0 and not a.done
    a = a.apply(None)  # seat 0 passes; seat 1 (60) still active
    assert a.to_act == 1
    a = a.apply(None)  # seat 1 passes: seat 3 bid 70, all others passed
    assert a.done and a.dealer == 3 and a.bid == 70


def test_auction_max_bid_ends_at_once():
    a = replay_auction(R2, 2, [75, 90, 105, 120, 135, 150, 165, 180, 195])
    assert not a.done
    a = a.apply(200)
    assert a.done and a.dealer == 3 and a.bid == 200


def test_auction_all_pass():
    a = replay_auction(R2, 2, [None] * 4)
    assert a.done and a.dealer == 2 and a.bid == 60


def test_auction_three_passes_after_a_bid():
    a = replay_auction(R2, 0, [60, None, None, None])
    assert a.done and (a.dealer, a.bid) == (0, 60)


@pytest.mark.parametrize("actions", [[55], [80], [60, 60], [60, 90], [61], [True]])
def test_auction_rejects_bad_bids(actions):
    with pytest.raises(BidError):
        replay_auction(R2, 0, actions)


def test_auction_rejects_actions_after_done():
    with pytest.raises(BidError):
        Auction(R2, 0, (60, None, None, None)).apply(65)


def settle2(**kw):
    args = dict(dealer=0, bid=100, trick_points=[110, 30, 40, 20], kitty=C("3D 4D 6D 7D 8D 9D JD QD"),
                last_trick_winner=1, red_fives=())
    args.update(kw)
    rs = args.pop("rs", R2)
    return settle(rs, **args)


def test_settle_examples():
    s = settle2()
    assert s.dealer_final == 10 and s.game_points == (6, -2, -2, -2)
    s = settle(R2, 1, 120, [30, 120, 20, 30], C("3D 4D 6D 7D 8D 9D JD QD"), 1, [(1, 0), (2, 1)])
    assert s.dealer_final == 0 and s.game_points == (4, -6, 0, 2)


def test_kitty_counts_only_when_dealer_takes_last_trick():
    kitty = C("KD 10D 5D 5S 4D 6D 7D 8D")  # 30 points
    assert settle2(kitty=kitty).dealer_final == 10
    assert settle2(kitty=kitty, last_trick_winner=0).dealer_final == 40
    assert settle2(kitty=kitty, rs=hongwu(2, kitty_to_dealer_always=True)).dealer_final == 40
    assert settle2(kitty=kitty).kitty_points == 30


@pytest.mark.parametrize(
    "final, dealer_gp",
    [(-100, -18), (-70, -18), (-69, -12), (-30, -12), (-29, -6), (0, -6), (1, 6), (30, 6),
     (31, 12), (70, 12), (71, 18)],
)
def test_bands_two_decks(final, dealer_gp):
    s = settle2(trick_points=[100 + final, 0, 0, 0])
    assert s.dealer_final == final
    assert s.game_points[0] == dealer_gp and s.game_points[1:] == (-dealer_gp // 3,) * 3


@pytest.mark.parametrize("final, dealer_gp", [(-80, -18), (-79, -12), (-40, -12), (0, -6), (40, 6), (80, 12), (81, 18)])
def test_bands_three_decks(final, dealer_gp):
    s = settle(R3, 0, 100, [100 + final, 0, 0, 0], C("4D 6D 7D 8D 9D JD"), 1)
    assert s.game_points[0] == dealer_gp


def test_base_score_scales_table_and_transfers():
    rs = hongwu(2, base_score=3)
    s = settle(rs, 0, 100, [110, 0, 0, 0], C("3D 4D 6D 7D 8D 9D JD QD"), 1, [(2, 0)])
    # final 10 + 20 = 30: dealer +9 from the table, +3 from seat 2's red five
    assert s.dealer_final == 30 and s.game_points == (12, -3, -6, -3)


def test_red_fives_within_a_side_do_not_count():
    s = settle2(red_fives=[(1, 2), (0, 0)])
    assert s.red_five_adjust == 0 and s.red_fives == ()


def test_failed_throw_penalty_option():
    rs = hongwu(2, failed_throw_penalty=10)
    assert settle(rs, 0, 100, [110, 0, 0, 0], (), 1, (), [0]).dealer_final == 0
    assert settle(rs, 0, 100, [110, 0, 0, 0], (), 1, (), [2]).dealer_final == 20


def test_settlement_is_zero_sum():
    for final in range(-200, 201, 5):
        for rf in ([], [(0, 1)], [(1, 0), (3, 0)]):
            s = settle2(trick_points=[100 + final, 0, 0, 0], red_fives=rf)
            assert sum(s.game_points) == 0


@pytest.mark.parametrize(
    "points, title",
    [(-5, "赤脚"), (0, "赤脚"), (4, "赤脚"), (5, "穿鞋"), (10, "单车"), (143, "面包车"), (144, "轿车"),
     (92897, "太空堡垒"), (92898, "神"), (10**9, "神")],
)
def test_titles(points, title):
    assert title_for(points) == title
