"""Cards: an immutable value type and the text notation used everywhere.

Card text (judge protocol, logs, replays, network): ``<rank><suit>`` with ranks
``2 3 4 5 6 7 8 9 10 J Q K A`` (``T`` accepted for 10) and suits ``S H C D``
(♠ ♥ ♣ ♦, the symbols are accepted too); ``BJ`` is the big joker (正司令), ``SJ`` the small
joker (副司令). Parsing is case-insensitive; formatting is canonical upper case with ``10``.

Internally a card is a small int (0..53): ``suit_index * 13 + rank - 2`` for the 52 suited
cards (suit order S H C D), 52 for the small joker and 53 for the big joker. Copies of the same
card in a multi-deck game are indistinguishable, as in the rules (RULES.md §1).
"""
from __future__ import annotations

from typing import Iterable, Sequence

SUITS: tuple[str, ...] = ("S", "H", "C", "D")
"""Suit letters in the canonical order ♠ ♥ ♣ ♦ (also the trump-choice order, RULES.md §3)."""

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♧": "C", "♢": "D"})

RANK_TEXT: dict[int, str] = {
    2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
    11: "J", 12: "Q", 13: "K", 14: "A",
}
_TEXT_TO_RANK = {v: k for k, v in RANK_TEXT.items()}
_TEXT_TO_RANK["T"] = 10

SMALL_JOKER_ID = 52
BIG_JOKER_ID = 53
CARD_IDS = range(54)


class CardError(ValueError):
    """Raised for card text that names no card, or card lists no deck can hold."""


class Card(int):
    """One playing card; an immutable ``int`` subclass (ids 0..53), interned.

    >>> c = Card.parse("10h"); str(c), c.suit, c.rank, c.points
    ('10H', 'H', 10, 10)
    >>> str(Card.parse("bj")), Card.parse("BJ").rank
    ('BJ', 16)

    Attributes: ``suit`` (``"S" "H" "C" "D"`` or ``None`` for a joker), ``rank`` (2..14 for
    suited cards, 15 small joker, 16 big joker), ``points`` (5 for a 5, 10 for a 10 or K,
    else 0; RULES.md §10), ``text`` (canonical card text).
    """

    __slots__ = ()
    _interned: list["Card"] = []

    def __new__(cls, card_id: "int | str") -> "Card":
        """Return the interned card with id ``card_id`` (0..53), or the card that text such
        as ``"10H"`` names (as :meth:`parse`); :class:`CardError` (a ValueError) otherwise."""
        if cls._interned:
            if isinstance(card_id, str):
                try:
                    return cls.parse(card_id)
                except CardError as exc:
                    raise CardError(f"{exc} (Card(text) is Card.parse(text); card lists: "
                                    f"parse_cards)") from None
            try:
                return cls._interned[card_id]
            except (IndexError, TypeError):
                raise CardError(f"no card has id {card_id!r} (ids are 0..53; for card text "
                                f"use Card.parse('10H') or parse_cards('10H BJ'))") from None
        return int.__new__(cls, card_id)

    @classmethod
    def parse(cls, text: "str | Card") -> "Card":
        """Parse card text (``"10H"``, ``"th"``, ``"♥10"`` not accepted; ``"10♥"`` is).

        Raises :class:`CardError` for anything that is not a card.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"a card must be text like '10H', got {text!r}")
        t = text.strip().upper()
        if t in ("BJ", "SJ"):
            return _CARDS[BIG_JOKER_ID if t == "BJ" else SMALL_JOKER_ID]
        if len(t) < 2:
            raise CardError(f"not a card: {text!r}")
        suit = _SYMBOL_TO_SUIT.get(t[-1], t[-1])
        rank = _TEXT_TO_RANK.get(t[:-1])
        if suit not in SUITS or rank is None:
            raise CardError(f"not a card: {text!r}")
        return _CARDS[SUITS.index(suit) * 13 + rank - 2]

    @property
    def suit(self) -> str | None:
        """Printed suit letter, or None for a joker."""
        return _SUIT[self]

    @property
    def rank(self) -> int:
        """Printed rank: 2..14 (A = 14), small joker 15, big joker 16."""
        return _RANK[self]

    @property
    def points(self) -> int:
        """Card points: each 5 scores 5, each 10 and K scores 10 (RULES.md §10)."""
        return POINTS[self]

    @property
    def is_joker(self) -> bool:
        """True for the big and small jokers."""
        return self >= SMALL_JOKER_ID

    @property
    def text(self) -> str:
        """Canonical card text, e.g. ``"10H"``, ``"BJ"``."""
        return _TEXT[self]

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]!r})"

    def __reduce__(self):
        return (Card, (int(self),))


def _build() -> tuple[list[Card], list[str | None], list[int], list[int], list[str]]:
    cards, suits, ranks, points, texts = [], [], [], [], []
    for cid in CARD_IDS:
        if cid < 52:
            s, r = SUITS[cid // 13], cid % 13 + 2
            text = RANK_TEXT[r] + s
        else:
            s, r = None, 15 if cid == SMALL_JOKER_ID else 16
            text = "SJ" if cid == SMALL_JOKER_ID else "BJ"
        cards.append(int.__new__(Card, cid))
        suits.append(s)
        ranks.append(r)
        points.append(5 if r == 5 else 10 if r in (10, 13) else 0)
        texts.append(text)
    return cards, suits, ranks, points, texts


_CARDS, _SUIT, _RANK, POINTS, _TEXT = _build()
Card._interned = _CARDS
ALL_CARDS: tuple[Card, ...] = tuple(_CARDS)
"""The 54 distinct cards of one deck, by id."""

RED_FIVE = Card.parse("5H")
BIG_JOKER = _CARDS[BIG_JOKER_ID]
SMALL_JOKER = _CARDS[SMALL_JOKER_ID]


def parse_cards(cards: "str | Iterable[str | Card]") -> tuple[Card, ...]:
    """Parse a card list: a sequence of card texts, or one string separated by spaces/commas.

    Returns a tuple of :class:`Card` in the given order. Raises :class:`CardError` on bad text.
    """
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    if isinstance(cards, (bytes, dict)) or not hasattr(cards, "__iter__"):
        raise CardError(f"a card list must be a list of card texts, got {cards!r}")
    return tuple(Card.parse(c) for c in cards)


def format_cards(cards: Iterable[Card]) -> list[str]:
    """Card texts of ``cards`` in order (``["10H", "BJ"]``)."""
    return [_TEXT[c] for c in cards]


def card_points(cards: Iterable[int]) -> int:
    """Total card points of ``cards`` (5s, 10s and Ks; RULES.md §10)."""
    return sum(POINTS[c] for c in cards)


def make_deck(decks: int) -> list[Card]:
    """A fresh, unshuffled pack of ``decks`` full decks (54 cards each), ids ascending."""
    pack = _PACKS.get(decks)
    if pack is None:
        pack = _PACKS[decks] = tuple(c for c in _CARDS for _ in range(decks))
    return list(pack)


_PACKS: dict[int, tuple[Card, ...]] = {}
"""make_deck's packs by number of decks (a new list is made from one each time)."""


def check_fits(cards: Sequence[int], decks: int) -> None:
    """Raise :class:`CardError` if ``cards`` holds more copies of a card than ``decks`` have."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
        if counts[c] > decks:
            raise CardError(
                f"{counts[c]} copies of {_TEXT[c]} cannot exist with {decks} decks"
            )
