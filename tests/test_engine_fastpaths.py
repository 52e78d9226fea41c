"""The engine's fast paths give exactly what the plain definitions give (issue 2, speed target).

- the throw verdict of a play (singles judged first) agrees with :func:`check_lead`;
- the decomposition agrees with a one-tractor-at-a-time reference (RULES.md §6);
- a Game's per-seat suit split stays equal to its hands through play, clone and from_view;
- the deal's inlined shuffle is ``random.Random.shuffle``; the auction's stepped state is the
  replayed one; the events made without ``__init__`` equal the constructed ones;
- ``PlayOptions.sample`` from a Game and from a plain PlayOptions draw the same plays, and leads
  are uniform over the non-empty sets of cards of one suit.
"""
import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bidding import Auction
from engine.cards import ALL_CARDS, make_deck
from engine.events import CardsPlayed, ThrowFailed, TrickWon
from engine.order import context
from engine.patterns import _component, counts_of, decompose_counts, runs
from engine.ruleset import hongwu
from engine.state import (
    Bid, Bury, ChooseTrump, FinishedTrick, Game, Phase, Play, _cards_played, _finished_trick,
    _shuffle, _throw_failed, _trick_won,
)
from engine.tricks import PlayOptions, _throw_verdict, check_lead, split_suits

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ throws (RULES.md §7)
@st.composite
def throw_positions(draw):
    """A lead of one suit (often a throw) and three other hands, from one shuffled pack."""
    decks = draw(st.sampled_from([2, 3]))
    ctx = context(draw(st.sampled_from("SHCD")))
    rng = random.Random(draw(st.integers(0, 10**9)))
    deck = make_deck(decks)
    rng.shuffle(deck)
    size = draw(st.integers(1, 25))
    leader, rest = deck[:size], deck[size:]
    sx = ctx.SUITX[rng.choice(leader)]
    suit = [c for c in leader if ctx.SUITX[c] == sx]
    lead = tuple(c for c in suit if rng.random() < draw(st.sampled_from([0.3, 0.6, 0.9]))) or (suit[0],)
    others = []
    for _ in range(3):
        k = draw(st.integers(0, 12))
        others.append(rest[:k])
        rest = rest[k:]
    return ctx, lead, others


@SETTINGS
@given(throw_positions())
def test_throw_verdict_agrees_with_check_lead(pos):
    ctx, lead, others = pos
    check = check_lead(lead, others, ctx)
    sx = ctx.SUITX[lead[0]]
    holdings = [tuple(c for c in h if ctx.SUITX[c] == sx) for h in others]
    forced, blocker = _throw_verdict(lead, counts_of(lead), holdings, ctx)
    assert check.valid == (forced is None)
    if forced is not None:
        assert tuple(forced.cards) == check.forced and blocker == check.blocker


def test_throw_verdict_examples():
    ctx = context("S")
    cards = {str(c): c for c in ALL_CARDS}

    def verdict(lead, hands):
        lead = tuple(cards[t] for t in lead.split())
        holdings = [tuple(cards[t] for t in h.split()) for h in hands]
        forced, blocker = _throw_verdict(lead, counts_of(lead), holdings, ctx)
        return (None if forced is None else " ".join(map(str, forced.cards))), blocker

    assert verdict("QD QD JD JD 9D", ["KD KD AD AD", "", ""]) == ("9D", 0)  # singles fail first
    assert verdict("QD QD JD JD AD", ["", "KD KD AD AD", ""]) == ("QD QD JD JD", 1)
    assert verdict("2H 2C", ["", "", "2S"]) == ("2H", 2)  # equal 副2: first in ♠♥♣♦ order
    assert verdict("AD KD", ["", "", ""]) == (None, None)
    assert verdict("9D 9D", ["AD AD", "", ""]) == (None, None)  # one pattern always stands


# ------------------------------------------------------------------ decomposition (§6)
def _decompose_reference(counts, ctx):
    """RULES.md §6 as first written: take the longest tractor (ties: higher top) one at a
    time, then the groups, then singles."""
    counts = dict(counts)
    val = ctx.VAL
    out = []

    def take(cards, group):
        for c in cards:
            counts[c] -= group
            if not counts[c]:
                del counts[c]
        out.append(_component(cards, group, ctx))

    most = max(counts.values(), default=0)
    for group in (3, 2):
        if most < group:
            continue
        while True:
            best = max((r for r in runs(counts, group, ctx) if len(r) >= 2),
                       key=lambda r: (len(r), val[r[-1]]), default=None)
            if best is None:
                break
            take(best, group)
        for c in sorted((c for c, n in counts.items() if n >= group), key=lambda c: (-val[c], c)):
            take([c], group)
    for c in sorted(counts, key=lambda c: (-val[c], c)):
        for _ in range(counts[c]):
            out.append(_component([c], 1, ctx))
    return out


@SETTINGS
@given(st.sampled_from("SHCD"), st.integers(0, 10**9), st.integers(1, 6), st.booleans())
def test_decompose_agrees_with_reference(trump, seed, most, mixed):
    ctx = context(trump)
    rng = random.Random(seed)
    sx = ctx.SUITX[rng.choice(ALL_CARDS)]
    suit = [c for c in ALL_CARDS if mixed or ctx.SUITX[c] == sx]
    counts = {c: rng.randint(1, most) for c in rng.sample(suit, rng.randint(1, min(len(suit), 20)))}
    assert decompose_counts(counts, ctx) == _decompose_reference(counts, ctx)


# ------------------------------------------------------------------ whole hands
def _random_hand(decks, seed, check):
    """A random-legal hand (leads: random sets of one suit), calling ``check(game)`` often."""
    rng = random.Random(seed)
    rs = hongwu(decks)
    g = Game.new(rs, seed=seed)
    while g.phase is not Phase.PLAY:
        s = g.to_act
        if g.phase is Phase.BID:
            g.apply(Bid(s, rng.choice(g.auction.options() + (None, None))))
        elif g.phase is Phase.TRUMP:
            g.apply(ChooseTrump(s, rng.choice("SHCD")))
        else:
            g.apply(Bury(s, tuple(rng.sample(g.hands[s], rs.kitty_size))))
    while g.phase is Phase.PLAY:
        check(g)
        g.apply(Play(g.to_act, g.play_options().sample(rng)))
    return g


def test_suit_split_follows_the_hands_through_play_clone_and_from_view():
    pick = random.Random(0)

    def check(g):
        ix = g._suit_ix
        if ix is not None:
            assert [list(split_suits(h, g.ctx)) for h in g.hands] == ix
        c = g.clone()
        assert c._suit_ix == ix and (ix is None or c._suit_ix is not ix)
        if g.current and pick.random() < 0.3:  # the clone and a view-built game play on alike
            seat = g.to_act
            opts = g.play_options()
            play = opts.sample(random.Random(1))
            other = Game.from_view(g.view(seat), [list(h) for h in g.hands], g.buried)
            c.apply(Play(seat, play))
            other.apply(Play(seat, play))
            assert c.hands == other.hands and c._suit_ix == other._suit_ix
            assert [list(split_suits(h, c.ctx)) for h in c.hands] == c._suit_ix

    for decks in (2, 3):
        for seed in range(6):
            _random_hand(decks, seed, check)


def test_game_and_plain_play_options_sample_alike():
    """Game.play_options (suit split and memo at hand) and PlayOptions(hand, lead, ctx) draw
    the same plays from the same generator state."""
    seeds = random.Random(1)

    def check(g):
        seat = g.to_act
        lead = g.current[0][1] if g.current else None
        for _ in range(2):  # the second draw uses the memo
            seed = seeds.randrange(10**9)
            mine = g.play_options().sample(random.Random(seed))
            plain = PlayOptions(g.hands[seat], lead, g.ctx).sample(random.Random(seed))
            assert mine == plain

    for decks in (2, 3):
        for seed in range(4):
            _random_hand(decks, seed, check)


def test_lead_sample_is_uniform_over_one_suit_sets():
    ctx = context("S")
    hand = [c for c in ALL_CARDS if str(c) in ("4H", "6H", "9D", "BJ", "2C")] + [ALL_CARDS[17]]
    opts = PlayOptions(sorted(hand), None, ctx)
    expected = {tuple(sorted(p)) for p in opts}  # every lead the player may attempt
    rng = random.Random(7)
    n = 20_000
    seen = Counter(tuple(sorted(opts.sample(rng))) for _ in range(n))
    assert set(seen) == expected
    mean = n / len(expected)
    assert all(abs(k - mean) < 5 * mean ** 0.5 for k in seen.values()), seen


def test_follow_sample_with_no_structure_owed_is_uniform_and_legal():
    ctx = context("S")
    cards = {str(c): c for c in ALL_CARDS}
    hand = tuple(sorted(cards[t] for t in "4H 6H 8H 9H JH KH 9D".split()))
    opts = PlayOptions(hand, (cards["7H"], cards["7H"]), ctx)  # a pair led, no ♥ pair held
    legal = set(opts)
    rng = random.Random(3)
    n = 15_000
    seen = Counter(opts.sample(rng) for _ in range(n))
    assert set(seen) == legal
    mean = n / len(legal)
    assert all(abs(k - mean) < 5 * mean ** 0.5 for k in seen.values()), seen


# ------------------------------------------------------------------ small pieces
def test_shuffle_is_random_shuffle():
    for decks in (2, 3):
        for seed in range(50):
            a, b = make_deck(decks), make_deck(decks)
            random.Random(seed).shuffle(a)
            _shuffle(b, random.Random(seed))
            assert a == b


def test_auction_steps_as_it_replays():
    for decks in (2, 3):
        rs = hongwu(decks)
        rng = random.Random(decks)
        for _ in range(500):
            a = Auction(rs, rng.randrange(4))
            while not a.done:
                a = a.apply(rng.choice(a.options() + (None,) * rng.randint(0, 4)))
                b = Auction(rs, a.start, a.actions)
                assert a._state == b._state and a == b and repr(a) == repr(b)
                assert (a.to_act, a.done, a.dealer, a.bid, a.options()) == (
                    b.to_act, b.done, b.dealer, b.bid, b.options())


def test_events_made_without_init_equal_constructed_ones():
    c = (ALL_CARDS[3], ALL_CARDS[3])
    plays = ((0, c), (1, c))
    pairs = [
        (_cards_played(1, c, 2, True), CardsPlayed(1, c, 2, True)),
        (_trick_won(1, 20, 3, plays, True, ((0, 1),)), TrickWon(1, 20, 3, plays, True, ((0, 1),))),
        (_throw_failed(2, c, c[:1], 3), ThrowFailed(2, c, c[:1], 3)),
        (_finished_trick(3, 0, plays, 1, 20), FinishedTrick(3, 0, plays, 1, 20)),
    ]
    for fast, made in pairs:
        assert fast == made and hash(fast) == hash(made) and repr(fast) == repr(made)
        assert vars(fast) == vars(made) and list(vars(fast)) == list(vars(made))
        assert replace(fast) == made
    assert pairs[0][0].as_dict() == pairs[0][1].as_dict()
