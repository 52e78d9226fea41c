"""Property tests over many random positions and hands (hypothesis).

- the legal-play generator and the legality check agree on every position;
- no reachable position is without a legal play;
- whole hands conserve cards, end, and settle zero-sum.
"""
import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import make_deck
from engine.order import context
from engine.patterns import classify
from engine.ruleset import hongwu
from engine.state import Bid, Bury, ChooseTrump, Game, Phase, Play
from engine.tricks import follow_error, legal_follows, lead_units

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def follow_positions(draw):
    """A lead (one pattern or a throw of one suit) and a small follower hand from the rest."""
    decks = draw(st.sampled_from([2, 3]))
    trump = draw(st.sampled_from("SHCD"))
    seed = draw(st.integers(0, 10**9))
    rng = random.Random(seed)
    deck = make_deck(decks)
    rng.shuffle(deck)
    ctx = context(trump)
    leader = deck[:20]
    units = lead_units(leader, ctx)
    first = rng.choice(units)
    suit = ctx.SUITX[first[0]]
    lead = list(first)
    if draw(st.booleans()):  # make it a throw by adding more of the suit
        extra = [c for c in leader if ctx.SUITX[c] == suit]
        for c in rng.sample(extra, min(len(extra), rng.randint(0, 3))):
            if lead.count(c) < decks:
                lead.append(c)
    rest = deck[20:]
    size = draw(st.integers(len(lead), min(len(lead) + 6, 12)))
    # bias the follower's hand towards the led suit so that structure matters
    same = [c for c in rest if ctx.SUITX[c] == suit]
    other = [c for c in rest if ctx.SUITX[c] != suit]
    k = min(len(same), rng.randint(0, size))
    hand = rng.sample(same, k) + rng.sample(other, size - k)
    return ctx, tuple(lead), tuple(hand)


@SETTINGS
@given(follow_positions())
def test_generator_agrees_with_check(pos):
    ctx, lead, hand = pos
    generated = list(legal_follows(lead, hand, ctx))
    assert len(generated) == len(set(generated)), "the generator repeats a play"
    gen = set(generated)
    brute = {
        p for p in {tuple(sorted(c)) for c in combinations(hand, len(lead))}
        if follow_error(lead, hand, p, ctx) is None
    }
    assert gen == brute
    assert gen, "no legal play in a reachable position"


@st.composite
def hand_seeds(draw):
    return draw(st.integers(0, 2**32)), draw(st.sampled_from([2, 3])), draw(st.booleans())


@settings(max_examples=40, deadline=None)
@given(hand_seeds())
def test_random_hands_end_conserve_and_are_zero_sum(arg):
    seed, decks, kitty_always = arg
    rng = random.Random(seed)
    g = Game.new(hongwu(decks, kitty_to_dealer_always=kitty_always), seed=seed)
    total = sorted([c for h in g.hands for c in h] + list(g.kitty))
    for _ in range(500):
        if g.phase is Phase.SETTLE:
            break
        s = g.to_act
        v = g.view(s)
        if g.phase is Phase.BID:
            g.apply(Bid(s, rng.choice(list(v.legal_bids()) + [None] * 3)))
        elif g.phase is Phase.TRUMP:
            g.apply(ChooseTrump(s, rng.choice("SHCD")))
        elif g.phase is Phase.BURY:
            g.apply(Bury(s, tuple(rng.sample(list(v.hand), v.bury_count))))
        else:
            opts = v.play_options()
            play = opts.sample(rng)
            assert opts.explain(play) is None
            if not opts.leading:  # the sampled play is one the generator yields
                assert tuple(sorted(play)) in set(opts)
            g.apply(Play(s, play))
        # cards are conserved at every step
        now = [c for h in g.hands for c in h] + list(g.buried) + [
            c for t in g.tricks for _, p in t.plays for c in p] + [c for _, p in g.current for c in p]
        if g.phase in (Phase.BID, Phase.TRUMP):
            now += list(g.kitty)
        assert sorted(now) == total
    assert g.phase is Phase.SETTLE
    assert sum(g.settlement.game_points) == 0


@SETTINGS
@given(follow_positions())
def test_every_generated_lead_unit_is_one_pattern(pos):
    ctx, lead, hand = pos
    for unit in lead_units(hand, ctx):
        assert classify(unit, ctx).kind in ("single", "pair", "triple", "tractor")
