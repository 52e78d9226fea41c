"""The expert's learned auction and dealer decisions (ai_plugins/builtin/expert_bid.py):
features, the shipped model, the band expectation, bids that read the rivals, buries."""
from __future__ import annotations

from collections import Counter

import pytest

from ai_plugins.base import AISettings
from ai_plugins.builtin import expert, expert_bid as eb
from ai_plugins.builtin.basic import keep_value
from ai_plugins.builtin.expert import ExpertAI
from engine.cards import Card, make_deck, parse_cards
from engine.order import TRUMP_INDEX
from engine.ruleset import hongwu
from engine.state import Bid, Bury, ChooseTrump, Game, Phase

STRONG = "5H 5H BJ BJ SJ 3S 3S 3C 2S 2H 2D AS AS KS QS QS JS 10S 9S AH AH KH AD 4C 6D"
WEAK = "4S 6S 7C 8C 9C 4D 6D 7D 8D 9D JD 4H 6H 7H 8H 9H JH QH 4C 6C 7S 8S 9S JC QC"


def _auction(hand_text: str, decks: int = 2, bids: tuple = ()) -> Game:
    """A game in the auction whose seat 0 holds ``hand_text`` (the other hands and the kitty
    from the rest of the deck in order); the rivals' earlier ``bids`` (amount or None, in
    turn, the last by seat 3) applied, seat 0 then to act."""
    rs = hongwu(decks)
    mine = [int(c) for c in parse_cards(hand_text)]
    deck = Counter(int(c) for c in make_deck(rs.decks))
    deck.subtract(mine)
    pool = sorted(deck.elements())
    k = rs.hand_size
    hands = [mine] + [pool[i * k:(i + 1) * k] for i in range(rs.players - 1)]
    kitty = pool[(rs.players - 1) * k:]
    first = (rs.players - len(bids)) % rs.players
    g = Game.from_deal([[str(Card(c)) for c in h] for h in hands], [str(Card(c)) for c in kitty], rs,
                       first_bidder=first)
    for i, amt in enumerate(bids):
        g.apply(Bid((first + i) % rs.players, amt))
    assert g.to_act == 0
    return g


def test_features_count_the_trumps_and_the_red_fives():
    hand = [int(c) for c in parse_cards(STRONG)]
    x = dict(zip(eb.FEATURE_NAMES, eb.features(hand, "S")))
    assert len(eb.features(hand, "S")) == len(eb.FEATURE_NAMES)
    assert x["red5"] == 2 and x["bigj"] == 2 and x["smallj"] == 1
    assert x["main3"] == 2 and x["sub3"] == 1 and x["main2"] == 1 and x["sub2"] == 2
    assert x["trumps"] == 19  # 11 red fives, jokers, 3s and 2s + 8 spades (A A K Q Q J 10 9)
    assert x["voids"] == 0 and x["rival"] == 0
    assert eb.features(hand, "S", rival=25)[-1] == 25


def test_the_shipped_model_knows_both_deck_counts_and_ranks_hands():
    model = eb.load_model()
    strong = [int(c) for c in parse_cards(STRONG)]
    weak = [int(c) for c in parse_cards(WEAK)]
    for decks in (2, 3):
        assert str(decks) in model.weights
    m_strong, sd = model.predict(strong, "S", 2)
    m_weak, _ = model.predict(weak, "S", 2)
    assert m_strong > m_weak + 40 and sd >= 10
    assert eb.best_suit(model, strong, 2)[0] == "S"


def test_expected_game_points_fall_with_the_bid_within_the_table():
    rs = hongwu(2)
    values = [eb.expected_gp(rs, 90.0, 25.0, b) for b in range(60, 205, 5)]
    assert all(a >= b for a, b in zip(values, values[1:]))
    assert -18 <= values[-1] < values[0] <= 18
    assert eb.expected_gp(rs, 400.0, 10.0, 60) == pytest.approx(18.0)
    assert eb.expected_gp(rs, -200.0, 10.0, 60) == pytest.approx(-18.0)


def test_a_strong_hand_bids_a_weak_one_passes_and_a_rival_bid_lowers_the_value():
    g = _auction(STRONG)
    v = g.view(0)
    choice, rows = eb.choose_bid(v, v.legal_bids())
    assert choice == min(v.legal_bids()) and rows[0]["note"].endswith("chosen")
    gw = _auction(WEAK, bids=(None, None, 60))
    assert eb.choose_bid(gw.view(0), gw.view(0).legal_bids())[0] == 0
    quiet = _auction(STRONG, bids=(None, None, None))
    loud = _auction(STRONG, bids=(75, 90, 105))
    model = eb.load_model()
    assert eb.rival_strength(loud.view(0), model) > eb.rival_strength(quiet.view(0), model) == 0
    _, _, m_quiet, _ = eb.bid_values(quiet.view(0), [125])
    _, _, m_loud, _ = eb.bid_values(loud.view(0), [125])
    assert m_loud < m_quiet


def test_expert_uses_the_model_for_bid_and_trump_reproducibly():
    g = _auction(STRONG)
    ai = ExpertAI(AISettings(seat=0, seed=3, options={"samples": 2}))
    v = g.view(0)
    amount = ai.choose_bid(v, v.legal_bids())
    assert amount == min(v.legal_bids())
    est = ai.estimates(v, "bid", [amount, 0])
    assert est[0]["gp"] > est[1]["gp"] and est[1]["points"] is None
    g = _auction(STRONG)
    g.apply(Bid(0, min(g.view(0).legal_bids())))
    while g.phase is Phase.BID:
        g.apply(Bid(g.to_act, None))
    assert g.phase is Phase.TRUMP and g.dealer == 0
    assert ai.choose_trump(g.view(0), "SHCD") == "S"


def test_bury_candidates_keep_trumps_and_the_red_five():
    rs = hongwu(2)
    g = Game.new(rs, seed=4)
    g.apply(Bid(g.to_act, 60))
    while g.phase is Phase.BID:
        g.apply(Bid(g.to_act, None))
    dealer = g.dealer
    g.apply(ChooseTrump(dealer, "S"))
    v = g.view(dealer)
    cands = eb.bury_candidates(v, v.bury_count, keep_value)
    assert cands and len(set(cands)) == len(cands)
    ctx = v.ctx
    side = sum(1 for c in v.hand if ctx.SUITX[c] != 4)
    for cand in cands:
        assert len(cand) == v.bury_count and not Counter(cand) - Counter(v.hand)
        assert sum(1 for c in cand if ctx.SUITX[c] == 4) == max(0, v.bury_count - side)


def test_bury_candidates_offer_to_bury_point_cards():
    """RULES.md §10: a kitty's points count for the dealer who wins the last trick, so besides
    buries keeping point cards (the first families) there are ones that bury them."""
    assert eb.BURY_POINT_WEIGHTS[0] > 0 > eb.BURY_POINT_WEIGHTS[-1]
    seen = 0
    for seed in range(4, 14):
        g = _at_bury(seed)
        v = g.view(g.dealer)
        cands = eb.bury_candidates(v, v.bury_count, keep_value)
        side = sorted((c.points for c in v.hand if v.ctx.SUITX[c] != TRUMP_INDEX), reverse=True)
        most = sum(side[: v.bury_count])  # the most points a bury of side cards can hold
        if most == 0:
            continue
        seen += 1
        points = [sum(c.points for c in cand) for cand in cands]
        assert max(points) >= min(25, most), (seed, points, most)  # keeping them all gave 5-20
        ai = ExpertAI(AISettings(seat=g.dealer, seed=1, options={"samples": 2}))
        assert max(sum(c.points for c in cand) for cand in ai._bury_candidates(v, v.bury_count)) == max(points)
    assert seen >= 5


def test_the_bury_search_defaults_to_burying_point_cards():
    """The gate's default (candidate 0, kept unless the sampled deals favour another) is the
    first point-burying candidate, not ``basic``'s bury (still among the candidates): side
    cards only, holding at least as many points as ``basic``'s bury (RULES.md §4, §10)."""
    differs = 0
    for seed in range(4, 14):
        g = _at_bury(seed)
        v = g.view(g.dealer)
        ai = ExpertAI(AISettings(seat=g.dealer, seed=1, options={"samples": 2}))
        cands = ai._bury_candidates(v, v.bury_count)
        first = eb.default_bury(v, v.bury_count, keep_value)
        assert cands[0] == first and len(set(cands)) == len(cands)
        basic = tuple(sorted(ai.basic.choose_bury(v, v.bury_count)))
        assert basic in cands
        if basic != first:
            differs += 1
            assert sum(c.points for c in first) >= sum(c.points for c in basic), seed
        assert all(v.ctx.SUITX[c] != TRUMP_INDEX for c in first)
    assert differs >= 5


def _at_bury(seed: int = 4, decks: int = 2):
    g = Game.new(hongwu(decks), seed=seed)
    g.apply(Bid(g.to_act, g.ruleset.bid_min))
    while g.phase is Phase.BID:
        g.apply(Bid(g.to_act, None))
    g.apply(ChooseTrump(g.dealer, "S"))
    return g


@pytest.mark.parametrize("mode", ["fast", "lean", "hybrid", "basic", "auto"])
def test_every_bury_finish_compares_the_candidates_reproducibly(mode):
    """Option ``bury_finish`` (expert.BURY_FINISHES): each way of playing the sampled deals
    out scores every candidate and buries one of them, the same one again at the same seed."""
    g = _at_bury()
    v = g.view(g.dealer)
    picks = []
    for _ in range(2):
        ai = ExpertAI(AISettings(seat=g.dealer, seed=5, options={"samples": 3, "bury_finish": mode}))
        cands = ai._bury_candidates(v, v.bury_count)
        assert len(cands) >= 2
        rows = ai._bury_rows(v, cands)
        assert len(rows) == 3 and all(len(r) == len(cands) for r in rows)
        assert all(-40 < x < 40 for r in rows for x in r)
        picks.append(tuple(sorted(ai.choose_bury(v, v.bury_count))))
    assert picks[0] == picks[1] and picks[0] in cands
    g.apply(Bury(g.dealer, picks[0]))
    assert g.phase is Phase.PLAY


@pytest.mark.parametrize("decks", [2, 3])
def test_bury_finish_auto_plays_the_deck_counts_own_way(decks):
    """``bury_finish="auto"`` (the default, expert.BURY_AUTO): with two decks the bury's sampled
    deals are played out exactly as ``fast`` plays them, with three as ``lean`` (same seed,
    same samples, the same utilities)."""
    g = _at_bury(decks=decks)
    v = g.view(g.dealer)
    expected = expert.BURY_AUTO[decks]

    def rows(mode):
        ai = ExpertAI(AISettings(seat=g.dealer, seed=11, options={"samples": 3, "bury_finish": mode}))
        return ai._bury_rows(v, ai._bury_candidates(v, v.bury_count))

    assert ExpertAI(AISettings(seat=0)).bury_finish == "auto"
    auto = rows("auto")
    assert auto == rows(expected)
    other = "lean" if expected == "fast" else "fast"
    assert auto != rows(other)


def test_bury_finish_must_be_a_known_way():
    with pytest.raises(ValueError, match="bury_finish"):
        ExpertAI(AISettings(seat=0, options={"bury_finish": "engine"}))


BORDERLINE = "2D 5H 10D JH KD 7D SJ 4D 9C 3S 5C 4H KD 5S QS 9S QH 6C JD KH 10C 8S QC 7D 2S"


def test_the_auction_bonus_bids_a_borderline_two_deck_hand_by_default():
    """2.1: with two decks the model's estimate gains :data:`expert_bid.PLAY_BONUS` card
    points, so a hand the plain model would pass is bid at the minimum; ``play_bonus=0``
    restores the plain model for the AI too (README "`expert` 2.1")."""
    assert eb.PLAY_BONUS[2] > 0 and eb.PLAY_BONUS[3] > 0
    v = _auction(BORDERLINE).view(0)
    bids = v.legal_bids()
    assert eb.choose_bid(v, bids, bonus=0)[0] == 0
    assert eb.choose_bid(v, bids)[0] == min(bids)
    plain = eb.bid_values(v, bids, bonus=0)[2]
    assert eb.bid_values(v, bids)[2] == pytest.approx(plain + eb.PLAY_BONUS[2])
    assert ExpertAI(AISettings(seat=0, seed=1, options={"samples": 2})).choose_bid(v, bids) == min(bids)
    assert ExpertAI(AISettings(seat=0, seed=1, options={"samples": 2, "play_bonus": 0})).choose_bid(v, bids) == 0


def test_bury_confidence_is_the_gate_of_the_bury():
    """Option ``bury_confidence`` (default expert.BURY_CONFIDENCE by deck count: 0 with two
    decks since 2.2, expert.CONFIDENCE with three): the bury chooses with ``expert.pick`` at
    that gate over the same sampled deals, so an unreachable gate keeps the default bury (the
    first candidate), and at this seed gate 0 — the two-deck default — takes a challenger that
    gate 1 does not."""
    g = _at_bury()
    v = g.view(g.dealer)
    plain = ExpertAI(AISettings(seat=g.dealer))
    assert plain.bury_confidence is None and plain.bury_gate(v) == expert.BURY_CONFIDENCE[2] == 0.0
    g3 = _at_bury(decks=3)
    assert plain.bury_gate(g3.view(g3.dealer)) == expert.CONFIDENCE == 1.0
    assert ExpertAI(AISettings(options={"bury_confidence": "2"})).bury_gate(v) == 2.0

    def bury(gate):
        ai = ExpertAI(AISettings(seat=g.dealer, seed=7, options={"samples": 4, "bury_confidence": gate}))
        return tuple(sorted(ai.choose_bury(v, v.bury_count)))

    probe = ExpertAI(AISettings(seat=g.dealer, seed=7, options={"samples": 4}))
    cands = probe._bury_candidates(v, v.bury_count)
    rows = probe._bury_rows(v, cands)
    assert expert.pick(rows, 0.0) != 0 and expert.pick(rows, 1.0) == 0
    assert bury("1e9") == bury("1") == cands[0]
    assert bury("0") == cands[expert.pick(rows, 0.0)]
    default = ExpertAI(AISettings(seat=g.dealer, seed=7, options={"samples": 4}))
    assert tuple(sorted(default.choose_bury(v, v.bury_count))) == bury("0")
