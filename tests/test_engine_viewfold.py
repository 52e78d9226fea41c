"""engine.viewfold: folding a seat's events into its view gives exactly ``game.view(seat)``.

Checked after every action of many random hands (two and three decks, all-pass auctions,
failed throws, every seat and an observer), plus the cases that must ask for a full view.
"""
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.events import CardsPlayed, HandStarted
from engine.ruleset import hongwu
from engine.state import Bid, Bury, ChooseTrump, Game, Phase, Play
from engine.viewfold import NeedsFullView, advance, advance_all

SEATS = (0, 1, 2, 3, None)


def random_action(g: Game, rng: random.Random, pass_rate: float):
    """A uniformly random legal action (bids pass with probability ``pass_rate``)."""
    s = g.to_act
    if g.phase is Phase.BID:
        opts = g.auction.options()
        return Bid(s, None if rng.random() < pass_rate else rng.choice(opts))
    if g.phase is Phase.TRUMP:
        return ChooseTrump(s, rng.choice("SHCD"), timed_out=rng.random() < 0.2)
    if g.phase is Phase.BURY:
        return Bury(s, tuple(rng.sample(g.hands[s], g.ruleset.kitty_size)))
    return Play(s, g.play_options(s).sample(rng))


def check_hand(decks: int, seed: int, pass_rate: float) -> Game:
    """Play one random hand, folding every seat's events and comparing after each action."""
    rng = random.Random(seed)
    g = Game.new(hongwu(decks), seed=seed)
    views = {s: g.view(s) for s in SEATS}  # the full view at the hand's start
    start, dealt = dict(views), len(g.events)
    while g.phase is not Phase.SETTLE:
        events = g.apply(random_action(g, rng, pass_rate))
        for s in SEATS:
            for i, e in enumerate(events):
                views[s] = advance(views[s], e.for_seat(s))
                if i < len(events) - 1:  # part way through the action's events
                    assert views[s].to_act is None, (s, events[: i + 1])
            assert views[s] == g.view(s), (s, events)
    for s in SEATS:  # the whole hand in one go
        assert advance_all(start[s], [e.for_seat(s) for e in g.events[dealt:]]) == g.view(s)
    return g


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([2, 3]), st.integers(0, 10**9), st.sampled_from([0.3, 0.7, 1.0]))
def test_folded_views_equal_game_views(decks, seed, pass_rate):
    check_hand(decks, seed, pass_rate)


def test_many_seeded_hands_include_failed_throws_and_red_fives():
    saw_failed = saw_red = 0
    for seed in range(40):
        g = check_hand(2, seed, 0.5)
        saw_failed += bool(g.failed_throws)
        saw_red += bool(g.red_fives)
    assert saw_failed and saw_red  # the random hands did exercise those folds


def test_new_hand_events_need_a_full_view():
    g = Game.new(hongwu(2), seed=1)
    v = g.view(0)
    for ev in g.events[:2]:  # hand_started, cards_dealt
        with pytest.raises(NeedsFullView):
            advance(v, ev)
    with pytest.raises(NeedsFullView):
        advance(v, HandStarted(2, None, 2, 0))


def test_out_of_step_events_are_refused_not_misapplied():
    g = Game.new(hongwu(2), seed=3)
    rng = random.Random(3)
    while g.phase is not Phase.PLAY:
        g.apply(random_action(g, rng, 0.5))
    v = g.view(1)
    wrong_seat = (g.to_act + 1) % 4
    with pytest.raises(NeedsFullView):
        advance(v, CardsPlayed(wrong_seat, (g.hands[wrong_seat][0],), v.trick_no, True))
    with pytest.raises(NeedsFullView):  # a trick the view is not at
        advance(v, CardsPlayed(g.to_act, (g.hands[g.to_act][0],), v.trick_no + 1, True))
    with pytest.raises(NeedsFullView):  # a card the seat does not hold
        stranger = next(c for c in g.hands[2] if c not in g.hands[1])
        advance(replace(v, to_act=1), CardsPlayed(1, (stranger,), v.trick_no, True))
    before = g.view(1)
    assert v == before  # nothing was changed in place
