"""Display text for cards, suits, seats and engine sentences, in the UI language."""
from __future__ import annotations

import re

from game.i18n import N_, _, translate_reason, register_reason_pattern
from game.layout import BOTTOM, LEFT, RIGHT, TOP, position_of

SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES = {"S": N_("Spades"), "H": N_("Hearts"), "C": N_("Clubs"), "D": N_("Diamonds")}
RANKS = {11: "J", 12: "Q", 13: "K", 14: "A"}
POSITION_NAMES = {BOTTOM: N_("You"), RIGHT: N_("Right"), TOP: N_("Across"), LEFT: N_("Left")}


def suit_label(suit: str | None) -> str:
    """``"♥ Hearts"`` / ``"♥ 红桃"``; ``"—"`` for None."""
    if not suit:
        return "—"
    return f"{SUIT_SYMBOL.get(suit, suit)} {_(SUIT_NAMES.get(suit, suit))}"


def card_label(card) -> str:
    """Short text for one card: ``"♥5"``, ``"♠10"``, ``"大王"``/``"Big joker"``."""
    if card.suit is None:
        return _("Big joker") if card.rank >= 16 else _("Small joker")
    return SUIT_SYMBOL[card.suit] + RANKS.get(card.rank, str(card.rank))


def cards_label(cards) -> str:
    """Space-separated :func:`card_label` of each card."""
    return " ".join(card_label(c) for c in cards)


def seat_name(seat: int, local_seat: int | None, names=None) -> str:
    """How a seat is called on screen.

    Seen from a player: ``"You"``, ``"Right (basic)"``...; for an observer: ``"Seat 2 (basic)"``.
    ``names`` (optional) are the table's four display names.
    """
    extra = names[seat] if names and seat < len(names) else ""
    if local_seat is None:
        base = _("Seat {n}").format(n=seat)
    else:
        pos = position_of(seat, local_seat)
        if pos == BOTTOM:
            return _("You")
        base = _(POSITION_NAMES[pos])
    return f"{base} ({extra})" if extra and extra != "human" else base


# -- engine sentences (game.tricks / game.state refusals) -------------------------------------
_SHAPES = {"a single": N_("a single"), "a pair": N_("a pair"), "a triple": N_("a triple")}


def _shape(text: str) -> str:
    m = re.fullmatch(r"a tractor of (\d+) (pairs|triples)", text)
    if m:
        if m.group(2) == "pairs":
            return _("a tractor of {n} pairs").format(n=m.group(1))
        return _("a tractor of {n} triples").format(n=m.group(1))
    return _(_SHAPES.get(text, text))


def _suitname(text: str) -> str:
    return _("trump") if text == "trump" else text


def _card_text(text: str) -> str:
    try:
        from engine.cards import parse_cards

        return cards_label(parse_cards(text))
    except Exception:
        return text


_CONVERTERS = {"shape": _shape, "suit": _suitname, "cards": _card_text, "card": _card_text}
_SHAPE = r"(?P<shape>a single|a pair|a triple|a tractor of \d+ (?:pairs|triples))"
_SUIT = r"(?P<suit>trump|[♠♥♣♦])"

for _rx, _msg in (
    (r"play exactly (?P<n>\d+) cards?: \d+ (?:were|was) led", N_("play exactly {n} card(s), as many as were led")),
    (r"you do not hold that many (?P<card>\S+)", N_("you do not hold that many {card}")),
    (r"you do not hold (?P<card>\S+)", N_("you do not hold {card}")),
    (r"you must follow suit: " + _SUIT + r" was led and you hold (?P<n>\d+) \S+ card\(s\)",
     N_("you must follow suit: {suit} was led and you hold {n} {suit} card(s)")),
    (r"you must follow suit: " + _SUIT + r" was led and you hold \S+",
     N_("you must follow suit: {suit} was led and you hold {suit}")),
    (r"you must play all your " + _SUIT + r" cards \((?P<n>\d+)\) before other cards",
     N_("you must play all your {suit} cards ({n}) before other cards")),
    (_SHAPE + r" was led and you hold a " + _SUIT + r" tractor like it",
     N_("{shape} was led and you hold a {suit} tractor like it")),
    (_SHAPE + r" was led: you hold " + _SUIT + r" pairs and must play (?P<n>\d+) of them",
     N_("{shape} was led: you hold {suit} pairs and must play {n} of them")),
    (_SHAPE + r" was led: you must play (?P<n>\d+) " + _SUIT + r" triple\(s\) and (?P<m>\d+) pair\(s\)",
     N_("{shape} was led: you must play {n} {suit} triple(s) and {m} pair(s)")),
    (r"a triple was led and you hold a " + _SUIT + r" triple", N_("a triple was led and you hold a {suit} triple")),
    (r"the throw includes " + _SHAPE + r" and you hold a " + _SUIT + r" pair to match it",
     N_("the throw includes {shape} and you hold a {suit} pair to match it")),
    (_SHAPE + r" was led and you hold a " + _SUIT + r" pair", N_("{shape} was led and you hold a {suit} pair")),
    (r"you do not hold another (?P<card>\S+)", N_("you do not hold another {card}")),
    (r"it is seat (?P<a>\d+)'s turn, not seat (?P<b>\d+)'s", N_("it is not your turn (seat {a} is to act)")),
    (r"bury exactly (?P<k>\d+) cards, not (?P<n>\d+)", N_("bury exactly {k} cards, not {n}")),
    (r"a bid of (?P<n>\d+) is not allowed now; the legal bids are (?P<legal>[\d, ]+) \(or pass\)",
     N_("a bid of {n} is not allowed now; the legal bids are {legal} (or pass)")),
):
    register_reason_pattern(_rx, _msg, _CONVERTERS)

# exact sentences, listed so that the catalog extractor sees them
N_("your play does not give the structure the lead requires")
N_("choose at least one card to lead")
N_("a lead must be cards of one suit (or all trumps)")
N_("the hand is over")
N_("the auction is over")


def reason_text(reason: str) -> str:
    """The engine's refusal ``reason`` in the UI language, capitalised for display."""
    text = translate_reason(reason)
    return text[:1].upper() + text[1:] if text else text
