"""The ruleset object: everything that differs between Hong Wu tables and house rules.

Player count, deck count, deal sizes, the bidding range, the game-point bands and the named
rule options live here, not as constants in the code, so that a second ruleset (找朋友,
Finding Friends: five players, three decks) can be added beside this one (RULES.md §1, §2, §10).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Any, Union


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
    bid_min: int = 0
    bid_max: int = 0
    bid_step: int = 5
    bid_raise_max: int = 15
    bands: tuple[int, ...] = (-70, -30, 0, 30, 70)
    band_multipliers: tuple[int, ...] = (3, 2, 1, -1, -2, -3)
    total_points: int = 200
    options: "RuleOptions | ZhaoPengyouOptions" = field(default_factory=RuleOptions)

    def with_options(self, **options: Any) -> "RuleSet":
        """A copy with some options changed (same validation as the options class)."""
        kind = type(self.options)
        merged = {f.name: getattr(self.options, f.name) for f in fields(kind)}
        unknown = set(options) - set(merged)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        merged.update(options)
        if kind is ZhaoPengyouOptions:
            return replace(self, options=ZhaoPengyouOptions.from_mapping(merged))
        return replace(self, options=kind(**merged))

    @property
    def is_zhaopengyou(self) -> bool:
        """True for the five-player 找朋友 ruleset (levels, a called friend)."""
        return self.name == "zhaopengyou"

    def trump_context(self, trump: str | None, level: int | None = None):
        """The card order of a hand (a cached :class:`engine.order.TrumpContext`).

        红五 (RULES.md §5): ``context(trump)``, ``level`` ignored (always 2, fixed trumps).
        找朋友 (zhaopengyou-spec §6-§7): ``level_context(level, trump, trump_top_tractors)``,
        ``trump`` S H C D or None/"none" for no-trump, ``level`` the dealer's level 2..14
        (required). Raises ValueError for a bad suit or level.
        """
        from engine.order import context, level_context

        if self.is_zhaopengyou:
            if level is None:
                raise ValueError("a 找朋友 hand's card order needs the level rank")
            return level_context(level, trump, self.options.trump_top_tractors)
        if trump is None:
            raise ValueError("a 红五 hand's card order needs a trump suit")
        return context(trump)


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


RANK_NAMES: dict[str, int] = {
    "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "T": 10,
    "J": 11, "Q": 12, "K": 13, "A": 14,
}
"""Level text -> rank int (找朋友 levels are ints 2..14 inside the engine; ``T`` = 10)."""

LEVEL_TEXT: dict[int, str] = {r: t for t, r in RANK_NAMES.items() if t != "T"}
"""Rank int -> canonical level text (``10``, ``J`` ... ``A``)."""


def parse_level(value: Any) -> int:
    """A level given as rank text (``"2"``..``"10"``, ``"T"``, ``"J" "Q" "K" "A"``, any case)
    or as an int 2..14 -> the rank int. Raises TypeError for other types (bools included) and
    ValueError for other text or ints."""
    if isinstance(value, bool):
        raise TypeError(f"a level is a rank such as '5' or 'K', not {value!r}")
    if isinstance(value, int):
        if 2 <= value <= 14:
            return value
        raise ValueError(f"a level is a rank 2..14, not {value!r}")
    if not isinstance(value, str):
        raise TypeError(f"a level is a rank such as '5' or 'K', not {value!r}")
    rank = RANK_NAMES.get(value.strip().upper())
    if rank is None:
        raise ValueError(f"not a level: {value!r} (2..10, J, Q, K, A)")
    return rank


#: the enum options of 找朋友 and their values, the default first (zhaopengyou-spec)
ZPY_CHOICES: dict[str, tuple[str, ...]] = {
    "declaration_mode": ("contest", "first"),
    "no_declaration": ("redeal", "kitty_flip"),
    "friend_call_time": ("before_kitty", "after_bury"),
    "friend_card": ("non_trump", "any"),
    "counter_declare": ("all", "eligible", "off"),
    "friend_early_points": ("dealer_side", "catchers"),
    "kitty_multiplier": ("times", "power", "double"),
    "level_table": ("ladder", "dead_band"),
    "game_end": ("defend_a", "reach_a"),
}
_ZPY_MINIMUM = {"max_redeals": 0, "failed_throw_penalty": 0, "threshold": 0, "step": 1, "lone_dealer_bonus": 0}


@dataclass(frozen=True)
class ZhaoPengyouOptions:
    """The named options of 找朋友 (zhaopengyou-spec; RULES.md "找朋友"), defaults as the spec.

    - ``single_joker_declares`` (bool, False): one joker may declare in the deal (§3).
    - ``declaration_mode`` ("contest"): "first" lets the first legal declaration stand (§3).
    - ``self_overbid`` (bool, True): the standing declarer may outbid himself in the deal (§3).
    - ``no_declaration`` ("redeal"): "kitty_flip" flips the kitty at once when nobody declared (§3).
    - ``max_redeals`` (int ≥ 0, 3): redeals before the kitty is flipped (§3).
    - ``friend_call_time`` ("before_kitty"): "after_bury" calls after the counter round (§4).
    - ``friend_card`` ("non_trump"): "any" also allows jokers, level cards and trumps (§4).
    - ``counter_declare`` ("all"): "eligible" (seats with the declaring right) or "off" (§5).
    - ``trump_top_tractors`` (bool, False): trump A, 副级牌, 主级牌, SJ, BJ form tractors (§7).
    - ``failed_throw_penalty`` (int ≥ 0, 0): points per failed throw, to P or off it (§7, §8).
    - ``friend_early_points`` ("dealer_side"): "catchers" adds the friend's pre-reveal points to P (§8).
    - ``kitty_multiplier`` ("times"): ×2m; "power" ×2^m; "double" ×2 (§9).
    - ``threshold`` (int ≥ 0, 120) and ``step`` (int ≥ 1, 60): the level table's line and rung (§10).
    - ``level_table`` ("ladder"): "dead_band" gives winning catchers one level less (§10).
    - ``lone_dealer_bonus`` (int ≥ 0, 1): extra levels for a lone dealer who wins (§10).
    - ``must_play_levels`` (tuple of rank ints 2..14, ()): ranks a seat must win as dealer (§10).
    - ``game_end`` ("defend_a"): "reach_a" ends the game when a seat reaches A (§10).

    Raises TypeError for a value of the wrong type, ValueError for a value out of range.
    """

    single_joker_declares: bool = False
    declaration_mode: str = "contest"
    self_overbid: bool = True
    no_declaration: str = "redeal"
    max_redeals: int = 3
    friend_call_time: str = "before_kitty"
    friend_card: str = "non_trump"
    counter_declare: str = "all"
    trump_top_tractors: bool = False
    failed_throw_penalty: int = 0
    friend_early_points: str = "dealer_side"
    kitty_multiplier: str = "times"
    threshold: int = 120
    step: int = 60
    level_table: str = "ladder"
    lone_dealer_bonus: int = 1
    must_play_levels: tuple[int, ...] = ()
    game_end: str = "defend_a"

    def __post_init__(self) -> None:
        for f in fields(self):
            name, value = f.name, getattr(self, f.name)
            if name in ZPY_CHOICES:
                if not isinstance(value, str):
                    raise TypeError(f"option {name} must be text, got {value!r}")
                if value not in ZPY_CHOICES[name]:
                    raise ValueError(f"option {name} must be one of {', '.join(ZPY_CHOICES[name])}, not {value!r}")
            elif name == "must_play_levels":
                if not isinstance(value, tuple) or any(
                    isinstance(r, bool) or not isinstance(r, int) for r in value
                ):
                    raise TypeError(f"option must_play_levels must be a tuple of rank ints, got {value!r}")
                if any(not 2 <= r <= 14 for r in value):
                    raise ValueError(f"option must_play_levels holds ranks 2..14, got {value!r}")
            elif f.type in ("bool", bool):
                if type(value) is not bool:
                    raise TypeError(f"option {name} must be bool, got {value!r}")
            else:
                if type(value) is not int:
                    raise TypeError(f"option {name} must be int, got {value!r}")
                if value < _ZPY_MINIMUM[name]:
                    raise ValueError(f"option {name} must be at least {_ZPY_MINIMUM[name]}, got {value!r}")

    @classmethod
    def from_mapping(cls, options: dict[str, Any] | None) -> "ZhaoPengyouOptions":
        """Build options from a name -> value mapping (e.g. a judge request's ``options``).

        ``must_play_levels`` may be any list/tuple of levels as rank text (``"5"``, ``"10"``,
        ``"K"``) or rank ints 2..14; it is stored sorted, without repeats, as ints. Unknown
        names and bad values raise ValueError; values of the wrong type raise TypeError.
        """
        options = dict(options or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown 找朋友 option(s): {', '.join(unknown)}")
        if "must_play_levels" in options:
            value = options["must_play_levels"]
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"option must_play_levels must be a list of levels, got {value!r}")
            options["must_play_levels"] = tuple(sorted({parse_level(v) for v in value}))
        return cls(**options)


def zhaopengyou(**options: Any) -> RuleSet:
    """The 找朋友 (Finding Friends) ruleset: 5 players, 3 decks (162 cards), 31 cards each, a
    kitty of 7, 300 card points (zhaopengyou-spec §1, §8). ``options`` are
    :class:`ZhaoPengyouOptions` names (``must_play_levels`` as rank texts or ints).
    Raises ValueError for an unknown name or bad value, TypeError for a wrong type."""
    return RuleSet(
        "zhaopengyou", 5, 3, 31, 7, total_points=300,
        options=ZhaoPengyouOptions.from_mapping(options),
    )


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
