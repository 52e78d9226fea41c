"""Leading with throws, following with structure, trick winners (RULES.md §7, §8, §9)."""
import pytest

from engine.tricks import check_lead, follow_error, legal_follows, trick_winner
from tests.helpers import C, ctx


def lead(cards, hands, trump="S"):
    r = check_lead(C(cards), [C(h) for h in hands], ctx(trump))
    return r.valid, (None if r.forced is None else " ".join(map(str, r.forced)))


# ---------------------------------------------------------------- leading (§7)
@pytest.mark.parametrize(
    "cards, hands, expected",
    [
        ("AD QD", ["4C", "KD 3H", "4S"], (False, "QD")),
        ("BJ BJ SJ", ["9D", "5H", "4C"], (False, "SJ")),
        ("9D", ["AD", "KD", "QD"], (True, None)),  # one pattern always stands
        ("9D 9D 8D 8D", ["AD AD KD KD", "", ""], (True, None)),  # a tractor is one pattern
        ("AD AD KD", ["QD QD", "JD", "9D"], (True, None)),
        ("QD QD JD JD AD", ["KD KD AD", "", ""], (True, None)),  # KK alone is no tractor
        ("QD QD JD JD 9D", ["KD KD AD AD", "", ""], (False, "9D")),  # singles fail first
        ("QD QD JD JD AD", ["KD KD AD AD", "", ""], (False, "QD QD JD JD")),
        ("AD AD 8D 8D", ["9D 9D", "", ""], (False, "8D 8D")),
        ("2H 2C", ["2S", "", ""], (False, "2H")),  # equal 副2: the first in ♠♥♣♦ order
        ("AD KD", ["", "", ""], (True, None)),
        ("AD KD", ["4S 4S", "3C", "5H"], (True, None)),  # a void player cannot spoil a throw
        ("AD 4S", ["", "", ""], (False, None)),  # mixed suits cannot be led at all
    ],
)
def test_lead(cards, hands, expected):
    assert lead(cards, hands) == expected


def test_lead_longer_tractor_window_spoils():
    # a lone higher pair, or a lower tractor, does not spoil a tractor component
    assert lead("JD JD 10D 10D AD", ["QD QD 9D", "", ""]) == (True, None)
    assert lead("JD JD 10D 10D AD AD", ["QD QD 9D 9D 8D 8D", "", ""]) == (True, None)
    # a tractor of 3 pairs topped by Q contains the window QQJJ, which beats 9988
    assert lead("9D 9D 8D 8D AD", ["QD QD JD JD 10D 10D", "", ""]) == (False, "9D 9D 8D 8D")


def test_lead_tractor_failures_lowest_top_then_shorter():
    # both tractors can be beaten by AAKK: the one with the lower top is forced
    r = check_lead(C("QD QD JD JD 6D 6D 5D 5D"), [C("AD AD KD KD"), C(""), C("")], ctx("S"))
    assert not r.valid and " ".join(map(str, r.forced)) == "6D 6D 5D 5D"


def test_lead_three_decks():
    assert lead("AD AD AD KD", ["KD KD", "", ""]) == (True, None)
    assert lead("KD KD KD 9D", ["AD AD AD", "", ""]) == (False, "9D")
    # AAA beats the triple and, as a pair out of a triple, the pair: pairs are forced before triples
    assert lead("KD KD KD QD QD", ["AD AD AD", "", ""]) == (False, "QD QD")
    assert lead("KD KD KD QD QD", ["", "AD AD AD", ""]) == (False, "QD QD")


# ---------------------------------------------------------------- following (§8)
@pytest.mark.parametrize(
    "led, hand, play, legal",
    [
        ("9D 9D", "8D 8D KD 3C", "KD 8D", False),
        ("9D 9D", "8D 8D KD 3C", "8D 8D", True),
        ("KC", "3C 4S 5H", "4S", True),  # ♣3 is trump with ♠: void in ♣
        ("9D 9D", "KD 3C 4S", "KD 3C", True),
        ("9D 9D", "KD 3C 4S", "3C 4S", False),
        ("5H", "2C AD", "2C", True),  # trump led: trumps first (♣2 is trump)
        ("5H", "2C AD", "AD", False),
        ("9D 9D 8D 8D", "KD KD JD JD 3D 4C", "KD KD JD JD", True),
        ("9D 9D 8D 8D", "KD KD JD JD 3D 4C", "KD KD JD 3D", False),
        ("9D 9D 8D 8D", "QD QD JD JD 5D 5D", "QD QD 5D 5D", False),  # a tractor is held
        ("9D 9D 8D 8D", "QD QD JD JD 5D 5D", "QD QD JD JD", True),
        ("10D 10D 9D 9D 8D 8D", "QD QD JD JD 5D 5D 4C", "QD QD JD JD 5D 5D", True),
        ("10D 10D 9D 9D 8D 8D", "QD QD JD JD 5D 5D 7D", "QD QD JD JD 5D 7D", False),
        ("9D 9D", "9D 4S", "9D 4S", True),
        ("9D", "9D 4S", "9D 9D", False),  # wrong count
        ("9D", "8D 4S", "QD", False),  # not held
        ("AD AD KD", "QD QD 4D 3C", "QD QD 4D", True),  # throw: pair component served
        ("AD AD KD", "QD QD 4D 3C", "QD 4D 3C", False),
    ],
)
def test_follow(led, hand, play, legal):
    reason = follow_error(C(led), C(hand), C(play), ctx("S"))
    assert (reason is None) == legal, reason
    if not legal:
        assert isinstance(reason, str) and len(reason) > 10


def test_follow_reason_mentions_pair():
    reason = follow_error(C("9D 9D"), C("8D 8D KD 3C"), C("KD 8D"), ctx("S"))
    assert "pair" in reason and "♦" in reason


def test_follow_early_choice_never_excuses_later():
    # AAKK + 8877 led; 66554433 holds two tractors: only 66554433 serves both
    led, hand = C("AD AD KD KD 8D 8D 7D 7D"), C("9D 9D 6D 6D 5D 5D 4D 4D 3D 3D")
    assert follow_error(led, hand, C("6D 6D 5D 5D 4D 4D 3D 3D"), ctx("S")) is None
    assert follow_error(led, hand, C("9D 9D 6D 6D 5D 5D 4D 4D"), ctx("S")) is not None


def test_follow_throw_of_pairs_from_pairs():
    led = C("QD QD JD JD 9D 9D")  # a tractor and a pair
    hand = C("7D 7D 5D 5D 3D 3D AD")  # no tractor (6 missing between 7 and 5): three pairs owed
    assert follow_error(led, hand, C("7D 7D 5D 5D 3D 3D"), ctx("S")) is None
    assert follow_error(led, hand, C("7D 7D 5D 5D 3D AD"), ctx("S")) is not None


def test_follow_three_decks():
    c = ctx("S")
    assert follow_error(C("9D 9D 9D"), C("8D 8D 8D 7D"), C("8D 8D 7D"), c) is not None
    assert follow_error(C("9D 9D 9D"), C("8D 8D 7D 6D"), C("8D 8D 7D"), c) is None
    assert follow_error(C("9D 9D 9D"), C("8D 8D 7D 6D"), C("8D 7D 6D"), c) is not None
    # a tractor of triples led: one triple and one pair are owed when no such tractor is held
    led = C("6D 6D 6D 7D 7D 7D")
    hand = C("8D 8D 8D 10D 10D 4D 4D QD")
    assert follow_error(led, hand, C("8D 8D 8D 10D 10D QD"), c) is None
    assert follow_error(led, hand, C("8D 8D 8D 10D 4D QD"), c) is not None
    assert follow_error(led, C("8D 8D 8D 9D 9D 9D 4D"), C("8D 8D 8D 9D 9D 4D"), c) is not None


def test_generator_and_check_agree_on_examples():
    c = ctx("S")
    cases = [
        ("9D 9D 8D 8D", "KD KD JD JD 3D 4C 5H"),
        ("AD AD KD KD 8D 8D 7D 7D", "9D 9D 6D 6D 5D 5D 4D 4D 3D 3D 2S"),
        ("5H 5H", "BJ SJ SJ 2C 2C 4S 9D"),
        ("QD", "4C 4C 5C"),
    ]
    from itertools import combinations
    for led, hand in cases:
        led, hand = C(led), C(hand)
        gen = set(legal_follows(led, hand, c))
        brute = {tuple(sorted(p)) for p in combinations(hand, len(led)) if follow_error(led, hand, p, c) is None}
        assert gen == brute


# ---------------------------------------------------------------- winner (§9)
@pytest.mark.parametrize(
    "trump, plays, winner",
    [
        ("S", ["9D", "KD", "AD", "3D"], 2),
        ("S", ["9D 9D 8D 8D", "AD AD KD KD", "5S 5S 4S 4S", "QD QD JD JD"], 2),
        ("S", ["9D", "AD", "4S", "KD"], 2),  # a ruff
        ("S", ["9D", "4S", "3S", "2C"], 2),  # over-ruff: 正参谋 beats 副2
        ("S", ["2H", "2C", "2D", "AS"], 0),  # equal 副2: the first played wins
        ("S", ["9D 9D", "2S 3S", "AD KD", "4C 4C"], 0),  # other shapes never win
        ("S", ["9D 9D", "4S 4S", "5S 5S", "10D 10D"], 2),
        ("S", ["9D 9D", "AD AD", "4S 4S", "KD KD"], 2),
        ("C", ["8D 8D JD QD", "5C 5C AC 2S", "4C 4C 2C 2C", "9D 9D 10D KD"], 2),
        ("S", ["KD", "AH", "4H", "QD"], 0),  # off-suit cards never win
        ("S", ["5H", "BJ", "BJ", "SJ"], 0),  # ♥5 is the highest card
    ],
)
def test_winner(trump, plays, winner):
    assert trick_winner([C(p) for p in plays], ctx(trump)) == winner


def test_winner_throw_largest_component():
    # ♦ AA K led (pair + single); ♠ trump ruffs: 44 + A vs 66 + 5: the pair decides
    plays = [C("AD AD KD"), C("4S 4S AS"), C("6S 6S 5S"), C("3D 4D 5D")]
    assert trick_winner(plays, ctx("S")) == 2
    with pytest.raises(ValueError):
        trick_winner([C("9D"), C("9D 9D"), C("4S"), C("5S")], ctx("S"))
