"""Cards, decks and card order (RULES.md §1, §5)."""
import pytest

from engine.cards import ALL_CARDS, Card, CardError, check_fits, format_cards, make_deck, parse_cards
from engine.order import TRUMP, context
from engine.ruleset import hongwu
from tests.helpers import C


def test_card_text_round_trip():
    for c in ALL_CARDS:
        assert Card.parse(str(c)) == c
    assert format_cards(parse_cards("th 10h 10♥ bj sj")) == ["10H", "10H", "10H", "BJ", "SJ"]


@pytest.mark.parametrize("bad", ["1H", "11S", "ZZ", "", "H", "10X", "5"])
def test_bad_card_text(bad):
    with pytest.raises(CardError):
        Card.parse(bad)


def test_points():
    assert [c.points for c in C("5H 5S 10D KC QC AS BJ")] == [5, 5, 10, 10, 0, 0, 0]
    assert sum(c.points for c in make_deck(2)) == 200
    assert sum(c.points for c in make_deck(3)) == 300


def test_deck_sizes_and_fit():
    assert len(make_deck(2)) == 108 and len(make_deck(3)) == 162
    check_fits(C("7D 7D"), 2)
    with pytest.raises(CardError):
        check_fits(C("7D 7D 7D"), 2)


def test_ruleset_sizes():
    two, three = hongwu(2), hongwu(3)
    assert two.players * two.hand_size + two.kitty_size == 108
    assert three.players * three.hand_size + three.kitty_size == 162
    assert (two.bid_min, two.bid_max, three.bid_min, three.bid_max) == (60, 200, 80, 300)
    with pytest.raises(ValueError):
        hongwu(4)
    with pytest.raises(ValueError):
        hongwu(2, no_such_option=True)
    with pytest.raises(TypeError):
        hongwu(2, base_score="2")


@pytest.mark.parametrize("trump", "SHCD")
def test_trump_order_top_lines(trump):
    ctx = context(trump)
    side = {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]
    ladder = ["5H", "BJ", "SJ", "3" + trump, "3" + side, "2" + trump]
    cards = C(" ".join(ladder))
    for hi, lo in zip(cards, cards[1:]):
        assert ctx.compare(hi, lo) == 1, (hi, lo)
    others = [s for s in "SHCD" if s != trump]
    for s in others:  # 副2 all equal, below 主2, above the trump ace
        assert ctx.compare(Card.parse("2" + trump), Card.parse("2" + s)) == 1
        assert ctx.compare(Card.parse("2" + s), Card.parse("A" + trump)) == 1
        assert ctx.compare(Card.parse("2" + s), Card.parse("2" + others[0])) == 0


def test_trump_counts():
    for trump in "SHCD":
        ctx = context(trump)
        n = sum(2 for c in ALL_CARDS if ctx.is_trump(c))
        assert n == (38 if trump == "H" else 40)


def test_effective_suits():
    ctx = context("S")
    assert ctx.suit_of(Card.parse("5H")) == TRUMP
    assert ctx.suit_of(Card.parse("3C")) == TRUMP  # 副参谋
    assert ctx.suit_of(Card.parse("3H")) == "H"  # a plain 3 of another colour
    assert ctx.suit_of(Card.parse("2D")) == TRUMP
    assert ctx.compare(Card.parse("AD"), Card.parse("KH")) is None
    assert ctx.compare(Card.parse("4S"), Card.parse("AD")) == 1  # the lowest trump beats a side ace
    assert ctx.compare(Card.parse("3H"), Card.parse("4H")) == -1


def test_sort_hand_groups_trumps_in_rank_order():
    ctx = context("H")
    hand = ctx.sort_hand(C("5H BJ 2C 4D AH 3S 3H 2H KS 3D"))
    trumps = [c for c in hand if ctx.is_trump(c)]
    assert hand[-len(trumps):] == tuple(trumps)  # trumps together, at the end
    vals = [ctx.rank(c) for c in trumps]
    assert vals == sorted(vals)
    assert str(hand[-1]) == "5H"
