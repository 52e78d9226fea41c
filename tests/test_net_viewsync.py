"""net.viewsync.ViewTracker: a view kept current from protocol-2 frames (a full view when a
hand is dealt, events after), including a lost event, held events and the next hand."""
from __future__ import annotations

import random

from engine.ruleset import hongwu
from engine.state import Bid, Bury, ChooseTrump, Game, Phase, Play
from net import codec
from net.viewsync import Fold, ViewTracker


def play_batch(g: Game, rng: random.Random) -> list:
    """Apply one random legal action; return its events."""
    s = g.to_act
    if g.phase is Phase.BID:
        return g.apply(Bid(s, None))
    if g.phase is Phase.TRUMP:
        return g.apply(ChooseTrump(s, rng.choice("SHCD")))
    if g.phase is Phase.BURY:
        return g.apply(Bury(s, tuple(rng.sample(g.hands[s], g.ruleset.kitty_size))))
    return g.apply(Play(s, g.play_options(s).sample(rng)))


def wire_event(ev, seat):
    """The event as it travels to ``seat`` and comes back decoded."""
    return codec.event_in(codec.event_out(ev.for_seat(seat)))


def deal(seed: int, seat, t: ViewTracker, hand_no: int = 1) -> Game:
    """A new hand fed to ``t`` as the host sends it: the deal events, then the full view."""
    g = Game.new(hongwu(2), seed=seed, hand_no=hand_no)
    for n, ev in enumerate(g.events):
        assert t.on_event(hand_no, n, wire_event(ev, seat)) is Fold.AWAIT_VIEW
    assert t.stale and not t.needs_snapshot
    assert t.on_view(hand_no, len(g.events), codec.view_out(g.view(seat)))
    return g


def test_a_whole_hand_from_one_view_and_the_events():
    for seat in (0, 2, None):
        t, rng = ViewTracker(), random.Random(5)
        g = deal(5, seat, t)
        while g.phase is not Phase.SETTLE:
            start = len(g.events)
            for i, ev in enumerate(play_batch(g, rng)):
                assert t.on_event(1, start + i, wire_event(ev, seat)) is Fold.FOLDED
            assert t.view == codec.view_in(codec.view_out(g.view(seat)))
            assert (t.hand_no, t.events, t.stale) == (1, len(g.events), False)
        # an event seen twice (already reflected) is ignored
        assert t.on_event(1, len(g.events) - 1, wire_event(g.events[-1], seat)) is Fold.OLD
        # the next hand starts from its own full view
        g2 = deal(6, seat, t, hand_no=2)
        assert t.view == codec.view_in(codec.view_out(g2.view(seat)))


def test_a_lost_event_asks_for_a_snapshot_and_later_events_are_replayed():
    t, rng = ViewTracker(), random.Random(9)
    g = deal(9, 1, t)
    while g.phase is not Phase.PLAY:
        start = len(g.events)
        for i, ev in enumerate(play_batch(g, rng)):
            t.on_event(1, start + i, wire_event(ev, 1))
    before = t.view
    lost = len(g.events)
    play_batch(g, rng)  # never delivered
    snap_at = len(g.events)
    snapshot = codec.view_out(g.view(1))  # what a snapshot request would answer now
    held = []
    for _ in range(3):
        start = len(g.events)
        held += [(start + i, ev) for i, ev in enumerate(play_batch(g, rng))]
    assert held[0][0] > lost
    assert t.on_event(1, held[0][0], wire_event(held[0][1], 1)) is Fold.OUT_OF_STEP
    assert t.needs_snapshot and t.view == before  # nothing was misapplied
    for n, ev in held[1:]:
        assert t.on_event(1, n, wire_event(ev, 1)) is Fold.OUT_OF_STEP
    assert t.on_view(1, snap_at, snapshot)
    assert not t.stale and t.events == len(g.events)
    assert t.view == codec.view_in(codec.view_out(g.view(1)))


def test_older_full_views_do_not_overwrite_newer_folded_state():
    t, rng = ViewTracker(), random.Random(3)
    g = deal(3, 0, t)
    old = codec.view_out(g.view(0)), len(g.events)
    start = len(g.events)
    for i, ev in enumerate(play_batch(g, rng)):
        t.on_event(1, start + i, wire_event(ev, 0))
    assert not t.on_view(1, old[1], old[0])
    assert t.view == codec.view_in(codec.view_out(g.view(0)))


def test_an_older_snapshot_does_not_replace_a_new_hand_in_progress():
    t = ViewTracker()
    g = deal(11, 0, t)
    old = codec.view_out(g.view(0)), len(g.events)
    g2 = Game.new(hongwu(2), seed=12, hand_no=2)
    for n, ev in enumerate(g2.events[:3]):  # the next hand's deal, its view still to come
        assert t.on_event(2, n, wire_event(ev, 0)) is Fold.AWAIT_VIEW
    assert not t.on_view(1, old[1], old[0])  # the earlier hand's snapshot, answered late
    for n, ev in enumerate(g2.events[3:], start=3):
        t.on_event(2, n, wire_event(ev, 0))
    assert t.on_view(2, len(g2.events), codec.view_out(g2.view(0)))
    assert t.view == codec.view_in(codec.view_out(g2.view(0)))
