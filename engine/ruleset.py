"""The ruleset object: everything that differs between Hong Wu tables and house rules.

Player count, deck count, deal sizes, the bidding range, the game-point bands and the named
rule options live here, not as constants in the code, so that a second ruleset (找朋友,
Finding Friends: five players, three decks) can be added beside this one (RULES.md §1, §2, §10).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True)
class RuleOptions:
    """House-rule options, each a decision recorded in RULES.md ("Options").

    - ``kitty_to_dealer_always`` (bool, default False): the buried kitty's points always count
      for the dealer, instead of only when the dealer wins the last trick (RULES.md §10).
    - ``base_score`` (int ≥ 1, default 2): the base of the game-point table and of each red-five
      transfer (RULES.md §10).
    - ``failed_throw_penalty`` (int ≥ 0, default 0): card points the side of a player whose
      throw failed concedes per failed throw (RULES.md §7).
    """

    kitty_to_dealer_always: bool = False
    base_score: int = 2
    failed_throw_penalty: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            want = bool if f.type in ("bool", bool) else int
            if type(value) is not want:
                raise TypeError(f"option {f.name} must be {want.__name__}, got {value!r}")
        if self.base_score < 1:
            raise ValueError("option base_score must be at least 1")
        if self.failed_throw_penalty < 0:
            raise ValueError("option failed_throw_penalty must not be negative")

    @classmethod
    def from_mapping(cls, options: dict[str, Any] | None) -> "RuleOptions":
        """Build options from a name -> value mapping; unknown names raise ValueError,
        values of the wrong type raise TypeError."""
        options = dict(options or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(unknown)}")
        return cls(**options)


@dataclass(frozen=True)
class RuleSet:
    """One table's rules: sizes, ranges and options (RULES.md §1, §2, §10).

    Attributes: ``name``; ``players`` (seats); ``decks`` (2 or 3); ``hand_size`` and
    ``kitty_size`` (cards); ``bid_min``/``bid_max`` (points); ``bid_step`` (bids are multiples of
    it); ``bid_raise_max`` (a bid is ``bid_step``..``bid_raise_max`` above the highest);
    ``bands`` (upper bounds of the dealer-final bands of the game-point table, ascending);
    ``band_multipliers`` (each band's defender gain in units of ``base_score``);
    ``total_points`` (card points in the pack); ``options``.
    """

    name: str
    players: int
    decks: int
    hand_size: int
    kitty_size: int
    bid_min: int
    bid_max: int
    bid_step: int = 5
    bid_raise_max: int = 15
    bands: tuple[int, ...] = (-70, -30, 0, 30, 70)
    band_multipliers: tuple[int, ...] = (3, 2, 1, -1, -2, -3)
    total_points: int = 200
    options: RuleOptions = field(default_factory=RuleOptions)

    def with_options(self, **options: Any) -> "RuleSet":
        """A copy with some options changed (same validation as :class:`RuleOptions`)."""
        merged = {f.name: getattr(self.options, f.name) for f in fields(RuleOptions)}
        unknown = set(options) - set(merged)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        merged.update(options)
        return replace(self, options=RuleOptions(**merged))


def hongwu(decks: int = 2, **options: Any) -> RuleSet:
    """The 红五三打一 ruleset for ``decks`` = 2 (108 cards) or 3 (162 cards).

    Two decks: 25 cards each, 8 in the kitty, bids 60–200, bands at −70/−30/0/30/70.
    Three decks: 39 each, 6 in the kitty, bids 80–300, bands at −80/−40/0/40/80 (RULES.md §1, §2,
    §10). Raises ValueError for another deck count or an unknown option.
    """
    opts = RuleOptions.from_mapping(options)
    if decks == 2:
        return RuleSet("hongwu", 4, 2, 25, 8, 60, 200, options=opts)
    if decks == 3:
        return RuleSet(
            "hongwu", 4, 3, 39, 6, 80, 300,
            bands=(-80, -40, 0, 40, 80), total_points=300, options=opts,
        )
    raise ValueError(f"Hong Wu is played with 2 or 3 decks, not {decks!r}")


#: what each :class:`RuleOptions` field accepts, in words (for messages and ``--help``)
OPTION_VALUES: dict[str, str] = {
    "kitty_to_dealer_always": "true or false (also yes/no, on/off, 1/0)",
    "base_score": "a whole number, at least 1",
    "failed_throw_penalty": "a whole number of card points, at least 0",
}

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_DECIMAL = re.compile(r"[+-]?[0-9]+")


def option_names() -> list[str]:
    """The house-rule option names (the :class:`RuleOptions` fields), in declaration order."""
    return [f.name for f in fields(RuleOptions)]


def parse_rule(text: str) -> tuple[str, Any]:
    """Parse one house rule written ``"NAME=VALUE"`` into ``(name, typed value)``.

    ``NAME`` is a :class:`RuleOptions` field (RULES.md "Options"); the value is typed by that
    field: bools accept ``true/false``, ``yes/no``, ``on/off``, ``1/0`` (any case), ints a
    decimal number (an optional sign).  Spaces around the name and the value are ignored.
    The value is then checked exactly as :class:`RuleOptions` checks it (``base_score`` ≥ 1,
    ``failed_throw_penalty`` ≥ 0).

    >>> parse_rule("base_score=3")
    ('base_score', 3)
    >>> parse_rule("kitty_to_dealer_always=yes")
    ('kitty_to_dealer_always', True)

    Raises ValueError with a message for people: no ``=`` or an empty name (the expected
    form), an unknown name (listing the valid names), or a value that cannot be read or is out
    of range (stating the values allowed).
    """
    names = option_names()
    listing = ", ".join(names)
    name, sep, raw = str(text).partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise ValueError(f"a house rule is written NAME=VALUE, not {text!r} (names: {listing})")
    if name not in names:
        raise ValueError(f"unknown rule option {name!r}; valid options: {listing}")
    kind = next(f.type for f in fields(RuleOptions) if f.name == name)
    allowed = OPTION_VALUES.get(name, "a valid value")
    value: Any
    if kind in ("bool", bool):
        low = raw.lower()
        if low in _TRUE:
            value = True
        elif low in _FALSE:
            value = False
        else:
            raise ValueError(f"rule option {name} takes {allowed}, not {raw!r}")
    else:
        if not _DECIMAL.fullmatch(raw):
            raise ValueError(f"rule option {name} takes {allowed}, not {raw!r}")
        value = int(raw, 10)
    try:
        RuleOptions(**{name: value})
    except (TypeError, ValueError):
        raise ValueError(f"rule option {name} takes {allowed}, not {raw!r}") from None
    return name, value
