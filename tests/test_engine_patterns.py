"""Patterns and throw decomposition (RULES.md §6)."""
import pytest

from engine.patterns import classify
from tests.helpers import C, ctx


@pytest.mark.parametrize(
    "trump, cards, kind",
    [
        ("S", "9D", "single"),
        ("S", "9D 9D", "pair"),
        ("S", "2H 2C", "throw"),  # two 副2 are equal but not a pair
        ("S", "4H 4H 6H 6H", "tractor"),  # ♥5 is not in the ♥ sequence
        ("H", "4H 4H 6H 6H", "tractor"),  # nor in the trump sequence when ♥ is trump
        ("D", "4D 4D 6D 6D", "throw"),  # 5D sits between them
        ("S", "5C 5C 4C 4C", "tractor"),
        ("S", "4C 4C 3C 3C", "invalid"),  # ♣3 is trump (副参谋) with ♠ trump
        ("S", "3D 3D 4D 4D", "tractor"),  # ♦3 is a plain card with ♠ trump
        ("S", "QS QS KS KS", "tractor"),
        ("S", "AS AS 2S 2S", "throw"),  # nothing above the trump ace makes a tractor
        ("S", "BJ BJ SJ SJ", "throw"),
        ("S", "5H 5H BJ BJ", "throw"),
        ("S", "AD AD KD KD QD", "throw"),
        ("S", "AD KD", "throw"),
        ("S", "AD 4S", "invalid"),
        ("S", "10D 10D JD JD QD QD", "tractor"),
    ],
)
def test_classify_two_decks(trump, cards, kind):
    assert classify(C(cards), ctx(trump)).kind == kind


def test_classify_empty_is_invalid():
    assert classify((), ctx("S")).kind == "invalid"


def test_three_deck_shapes():
    c = ctx("S")
    assert classify(C("6D 6D 6D"), c).kind == "triple"
    t = classify(C("6D 6D 6D 7D 7D 7D"), c)
    assert t.kind == "tractor" and t.components[0].group == 3 and t.components[0].length == 2
    assert classify(C("6D 6D 7D 7D"), c).kind == "tractor"


def shapes(cards, trump="S"):
    return [(k.shape, k.group, k.length, [str(x) for x in k.cards]) for k in classify(C(cards), ctx(trump)).components]


def test_decomposition_order_examples():
    assert shapes("7D 7D 7D 8D 8D") == [("triple", 3, 1, ["7D"] * 3), ("pair", 2, 1, ["8D"] * 2)]
    assert shapes("7D 7D 7D 8D 8D 9D 9D") == [
        ("triple", 3, 1, ["7D"] * 3), ("tractor", 2, 2, ["9D", "9D", "8D", "8D"])]
    assert shapes("AD AD KD KD QD") == [
        ("tractor", 2, 2, ["AD", "AD", "KD", "KD"]), ("single", 1, 1, ["QD"])]


def test_decomposition_longest_tractor_first_then_higher_top():
    # two tractors: 9988 (len 2) and 665544 (len 3): the longer comes first
    comps = classify(C("9D 9D 8D 8D 6D 6D 5D 5D 4D 4D"), ctx("S")).components
    assert [(k.length, str(k.top)) for k in comps] == [(3, "6D"), (2, "9D")]
    # equal lengths: higher top first; singles high to low
    comps = classify(C("AD AD KD KD 8D 8D 7D 7D 3D JD"), ctx("S")).components
    assert [(k.shape, str(k.top)) for k in comps] == [
        ("tractor", "AD"), ("tractor", "8D"), ("single", "JD"), ("single", "3D")]


def test_decomposition_triple_tractors_before_pair_tractors():
    comps = classify(C("7D 7D 7D 8D 8D 8D 9D 9D 10D 10D 2D"), ctx("D")).components
    assert [(k.shape, k.group, k.length) for k in comps] == [
        ("tractor", 3, 2), ("tractor", 2, 2), ("single", 1, 1)]


def test_trump_throw_of_top_cards():
    comps = classify(C("5H 5H BJ SJ 3S 2C 2D"), ctx("S")).components
    assert [(k.shape, str(k.top)) for k in comps] == [
        ("pair", "5H"), ("single", "BJ"), ("single", "SJ"), ("single", "3S"), ("single", "2C"),
        ("single", "2D")]
