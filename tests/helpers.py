"""Small helpers shared by the engine tests."""
from engine.cards import parse_cards
from engine.order import context


def C(text):
    """Cards from text: ``C("AD QD")``."""
    return parse_cards(text)


def ctx(trump="S"):
    """The TrumpContext for ``trump``."""
    return context(trump)
