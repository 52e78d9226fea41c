"""找朋友 rules below the judge: the ruleset and its options, level contexts beside the 红五
ones, and properties of the shared pattern/trick code on level-card orders."""
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, parse_cards
from engine.order import context, level_context
from engine.patterns import INVALID, classify
from engine.ruleset import ZPY_CHOICES, RuleSet, ZhaoPengyouOptions, hongwu, zhaopengyou
from engine.tricks import PlayOptions, check_lead, follow_error, legal_follows, trick_winner
from engine.zhaopengyou_rules import (
    FriendCall, apply_levels, check_declaration, deal_window, kitty_flip, friend_call_error, kitty_multiplier, level_gains,
    raise_level, settle_hand, track_friend,
)


def test_ruleset_shape_and_hongwu_untouched():
    rs = zhaopengyou()
    assert (rs.name, rs.players, rs.decks, rs.hand_size, rs.kitty_size, rs.total_points) == (
        "zhaopengyou", 5, 3, 31, 7, 300)
    assert rs.players * rs.hand_size + rs.kitty_size == 162
    assert isinstance(rs.options, ZhaoPengyouOptions) and rs.options == ZhaoPengyouOptions()
    hw = hongwu()
    assert (hw.players, hw.decks, hw.hand_size, hw.kitty_size, hw.bid_min) == (4, 2, 25, 8, 60)
    assert hw.trump_context("S") is context("S")
    assert rs.trump_context("S", 5) is level_context(5, "S")
    assert zhaopengyou(trump_top_tractors=True).trump_context(None, 5) is level_context(5, "none", True)
    with pytest.raises(ValueError):
        rs.trump_context("S")
    assert rs.with_options(step=30).options.step == 30
    assert isinstance(rs.with_options(step=30), RuleSet)


NON_DEFAULT = {
    "single_joker_declares": True, "self_overbid": False, "max_redeals": 0, "trump_top_tractors": True,
    "failed_throw_penalty": 10, "threshold": 100, "step": 40, "lone_dealer_bonus": 0,
    "must_play_levels": ["5", "10", "K"],
    **{name: values[-1] for name, values in ZPY_CHOICES.items()},
}


@pytest.mark.parametrize("name", sorted(NON_DEFAULT))
def test_every_option_takes_its_other_value(name):
    opts = ZhaoPengyouOptions.from_mapping({name: NON_DEFAULT[name]})
    value = getattr(opts, name)
    assert value != getattr(ZhaoPengyouOptions(), name)
    if name == "must_play_levels":
        assert value == (5, 10, 13)


@pytest.mark.parametrize("mapping,error", [
    ({"bogus": 1}, ValueError), ({"base_score": 2}, ValueError), ({"declaration_mode": "loud"}, ValueError),
    ({"self_overbid": "yes"}, TypeError), ({"step": 0}, ValueError), ({"step": 60.0}, TypeError),
    ({"threshold": True}, TypeError), ({"max_redeals": -1}, ValueError), ({"game_end": 1}, TypeError),
    ({"must_play_levels": "5"}, TypeError), ({"must_play_levels": ["1"]}, ValueError),
    ({"must_play_levels": [True]}, TypeError),
])
def test_option_errors(mapping, error):
    with pytest.raises(error):
        ZhaoPengyouOptions.from_mapping(mapping)


def test_level_contexts_beside_hongwu_contexts():
    cards = parse_cards("2S 2S 3S 3S")
    assert classify(cards, context("S")).kind == "throw"  # 红五: 2 and 3 of trump are fixed trumps
    assert classify(cards, level_context(5, "S")).kind == "tractor"
    assert classify(cards, context("S")).kind == "throw"  # the caches keep them apart
    assert level_context(5, "S") is level_context(5, "S")
    keys = {level_context(lv, t, top).key for lv in range(2, 15) for t in ("S", "H", "C", "D", None) for top in (False, True)}
    assert len(keys) == 13 * 5 * 2 and not keys & {"S", "H", "C", "D"}
    with pytest.raises(ValueError):
        level_context(1, "S")
    with pytest.raises(ValueError):
        level_context(5, "X")


def test_kitty_multiplier_uses_the_largest_component():
    ctx, opts = level_context(5, "S"), ZhaoPengyouOptions()
    assert kitty_multiplier(parse_cards("9D 9D 9D AD"), ctx, opts) == 6
    assert kitty_multiplier(parse_cards("AS AS 5H 5H"), ctx, opts) == 4
    top = level_context(5, "S", True)
    assert kitty_multiplier(parse_cards("AS AS 5H 5H"), top, opts) == 8
    with pytest.raises(ValueError):
        kitty_multiplier(parse_cards("AS AD"), ctx, opts)


def test_level_functions():
    o = ZhaoPengyouOptions()
    assert level_gains(0, o, alone=True) == ("dealer", 4)
    assert level_gains(119, o) == ("dealer", 1) and level_gains(120, o) == ("catchers", 1)
    assert raise_level(13, 5, as_dealer=True, options=o) == 14
    assert raise_level(14, 3, as_dealer=True, options=o) == 14
    m = ZhaoPengyouOptions.from_mapping({"must_play_levels": ["5"]})
    assert raise_level(4, 3, as_dealer=False, options=m) == 5
    assert raise_level(5, 3, as_dealer=False, options=m) == 5
    assert raise_level(5, 3, as_dealer=True, options=m) == 8
    assert apply_levels((5, 5, 2, 2, 2), (0, 1), 2, 0, True, m) == (7, 5, 2, 2, 2)


def test_declaration_and_friend_functions():
    o = ZhaoPengyouOptions()
    v = check_declaration("deal", 0, parse_cards("2H 2H"), standing=None, options=o, levels=(2,) * 5,
                          hand=parse_cards("2H 9C"))
    assert v.legal is False  # he holds one 2H only
    v = check_declaration("deal", 0, parse_cards("BJ BJ"), standing=None, options=o, levels=(2,) * 5)
    assert (v.trump, v.level) == ("none", 2)
    with pytest.raises(ValueError):
        check_declaration("deal", 0, parse_cards("2H"), standing=None, options=o)
    call = FriendCall(parse_cards("AS")[0], 2)
    assert friend_call_error(call, "D", 4, o) is None
    assert friend_call_error(FriendCall(parse_cards("AS")[0], 2), "S", 4, o)
    status = track_friend(call, 0, [(1, parse_cards("AS")), (2, parse_cards("3S")), (4, parse_cards("AS"))])
    assert (status.friend, status.revealed_at, status.alone) == (4, 2, False)


def test_settle_function_example():
    s = settle_hand(dealer=0, friend=2, levels=(4, 3, 3, 2, 2), trump="H", points_won=(40, 45, 90, 70, 40),
                    kitty=parse_cards("KC 5C 3S 6S 7C 8C 9D"), last_trick_winner=3, last_lead=parse_cards("QC QC"),
                    options=ZhaoPengyouOptions())
    assert s.catcher_points == 215 and s.levels == (4, 5, 3, 4, 4) and s.eligible == (1, 3, 4)
    with pytest.raises(ValueError):
        settle_hand(dealer=0, friend=2, levels=(4, 3, 3, 2), trump="H", points_won=(0,) * 5, kitty=(),
                    last_trick_winner=3, last_lead=parse_cards("QC"), options=ZhaoPengyouOptions())


# --- properties ---------------------------------------------------------------------------
contexts = st.builds(
    level_context, st.integers(2, 14), st.sampled_from(["S", "H", "C", "D", None]), st.booleans()
)
card_ids = st.integers(0, 53)


@settings(max_examples=200, deadline=None)
@given(contexts, card_ids, card_ids, card_ids)
def test_compare_antisymmetric_and_transitive(ctx, a, b, c):
    ab, ba = ctx.compare(a, b), ctx.compare(b, a)
    assert (ab is None) == (ba is None)
    if ab is not None:
        assert ab == -ba
    bc, ac = ctx.compare(b, c), ctx.compare(a, c)
    if ab is not None and bc is not None and ab >= 0 and bc >= 0:
        assert ac is not None and ac >= 0
        if ab > 0 or bc > 0:
            assert ac > 0


def _one_suit_multiset(ctx, data):
    suit = data.draw(st.sampled_from(sorted({ctx.SUITX[c] for c in ALL_CARDS})))
    members = [c for c in ALL_CARDS if ctx.SUITX[c] == suit]
    chosen = data.draw(st.lists(st.sampled_from(members), min_size=1, max_size=10))
    counts = Counter(chosen)
    return [c for c, k in counts.items() for _ in range(min(k, 3))]


@settings(max_examples=200, deadline=None)
@given(contexts, st.data())
def test_classify_of_any_one_suit_lead_is_a_pattern(ctx, data):
    cards = _one_suit_multiset(ctx, data)
    p = classify(cards, ctx)
    assert p.kind != INVALID
    assert sorted(c for comp in p.components for c in comp.cards) == sorted(cards)
    assert check_lead(cards, [[], [], [], []], ctx).valid  # nobody holds the suit: it stands


@settings(max_examples=200, deadline=None)
@given(st.one_of(contexts, st.builds(level_context, st.integers(2, 14), st.sampled_from(["S", None]), st.just(True))),
       st.data())
def test_generator_and_check_agree(ctx, data):
    lead = _one_suit_multiset(ctx, data)
    if len(lead) > 6:
        lead = lead[:6]
    suit = ctx.SUITX[lead[0]]
    pool = [c for c in ALL_CARDS if ctx.SUITX[c] == suit] + list(parse_cards("3D 4D 9D AD 7S"))
    hand = data.draw(st.lists(st.sampled_from(pool), min_size=len(lead), max_size=len(lead) + 6))
    counts = Counter(hand)
    hand = [c for c, k in counts.items() for _ in range(min(k, 3))]
    if len(hand) < len(lead):
        hand += [ALL_CARDS[c] for c in parse_cards("5C 6C 7C 8C 9C 10C")][: len(lead) - len(hand)]
    follows = set(legal_follows(lead, hand, ctx))
    assert follows
    for play in follows:
        assert follow_error(lead, hand, play, ctx) is None
    pick = data.draw(st.permutations(hand))[: len(lead)]
    play = tuple(sorted(pick))
    assert (follow_error(lead, hand, play, ctx) is None) == (play in follows)
    plays = [lead] + [next(iter(follows))] * 4
    assert 0 <= trick_winner(plays, ctx) < 5
    sampled = PlayOptions(hand, lead, ctx).sample(random.Random(len(hand)))
    assert tuple(sorted(sampled)) in follows


def test_kitty_flip_and_windows():
    levels = (4, 3, 3, 2, 2)
    assert kitty_flip(parse_cards("BJ 9C 3H 3S KD 3D 7H"), 2, {0, 1, 3}, levels) == (3, "C")  # no 2: first non-joker
    assert kitty_flip(parse_cards("BJ 9C 3H 2S KD 3D 7H"), 2, {0, 1, 3}, levels) == (3, "S")  # first card of L = 2
    assert kitty_flip(parse_cards("4D 9C 3H 2S KD 3D 7H"), 4, {0, 1}, levels) == (0, "D")
    with pytest.raises(ValueError):
        kitty_flip(parse_cards("9C"), 0, set(), levels)
    assert deal_window(3) == (3, 4, 0, 1, 2)


@settings(max_examples=200, deadline=None)
@given(st.builds(level_context, st.integers(2, 14), st.sampled_from(["S", "H", None]), st.just(True)),
       st.lists(st.integers(0, 53), max_size=24), st.integers(2, 3), st.integers(1, 4))
def test_tractor_windows_through_equal_rungs(ctx, ids, group, length):
    """Every window of ``length`` consecutive rungs (one card per rung) is found once, and
    nothing else (a brute-force reading of Z§7 with equal 副级牌 on one rung)."""
    from itertools import product as cartesian

    from engine.tricks import _units

    counts = Counter(ids)
    counts = {c: min(k, 3) for c, k in counts.items()}
    held = [c for c, k in counts.items() if k >= group and ctx.SEQ[c] >= 0]
    expected = set()
    for combo in cartesian(held, repeat=length):
        if all(ctx.SUITX[a] == ctx.SUITX[combo[0]] and ctx.SEQ[a] == ctx.SEQ[combo[0]] + i for i, a in enumerate(combo)):
            expected.add(combo)
    got = [tuple(u) for u in _units(counts, group, length, ctx)]
    assert len(got) == len(set(got)) and set(got) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 4), st.one_of(st.none(), st.integers(0, 4)), st.lists(st.integers(2, 14), min_size=5, max_size=5),
    st.lists(st.integers(0, 60).map(lambda x: 5 * x), min_size=5, max_size=5), st.integers(0, 4),
    st.lists(st.integers(0, 4), max_size=3), st.sampled_from([
        {}, {"level_table": "dead_band"}, {"game_end": "reach_a"}, {"must_play_levels": ["5", "10", "K"]},
        {"failed_throw_penalty": 25}, {"kitty_multiplier": "power", "threshold": 100, "step": 30},
    ]),
)
def test_settle_properties(dealer, friend, levels, points, last, failed, opts):
    options = ZhaoPengyouOptions.from_mapping(opts)
    s = settle_hand(dealer=dealer, friend=friend, levels=levels, trump="S", points_won=points,
                    kitty=parse_cards("KD 5C 3S 6S 7C 8C 9D"), last_trick_winner=last,
                    last_lead=parse_cards("9D 9D"), options=options, failed_throws=failed)
    assert sorted(s.dealer_side + s.catchers) == [0, 1, 2, 3, 4] and dealer in s.dealer_side
    assert len(s.dealer_side) == (1 if friend in (None, dealer) else 2)
    assert s.catcher_points >= 0 and all(g >= 0 for g in s.gains)
    assert all(old <= new <= 14 for old, new in zip(levels, s.levels))
    assert all(new == old for i, (old, new) in enumerate(zip(levels, s.levels)) if i not in s.eligible)
    assert (s.winner == "dealer") == (s.catcher_points < options.threshold)
    assert s.eligible == (s.dealer_side if s.winner == "dealer" else s.catchers)
    assert s.multiplier == 0 or last in s.catchers
    assert s.game_over == bool(s.game_winners) and s.first_card_to == dealer
