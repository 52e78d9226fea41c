"""Settlement at the end of a hand: card points, the kitty, red-five captures, game points and
titles (RULES.md §10, §11)."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Sequence

from engine.cards import Card, card_points
from engine.ruleset import RuleSet

RED_FIVE_CARD_POINTS = 20
"""Card points each captured red five moves for or against the dealer (RULES.md §10)."""


@dataclass(frozen=True)
class Settlement:
    """The result of one hand (RULES.md §10).

    ``dealer``, ``bid``; ``trick_points`` (card points won in tricks per seat, kitty excluded);
    ``kitty`` (the buried cards); ``kitty_points``; ``kitty_taker`` (seat that won the last trick);
    ``kitty_counted`` (whether the kitty's points counted for the dealer); ``red_fives``
    ((from_seat, to_seat) per red five captured across sides); ``red_five_adjust`` (card points
    they moved for the dealer); ``penalty_adjust`` (card points from failed throws);
    ``dealer_final``; ``game_points`` (per seat, zero-sum).
    """

    dealer: int
    bid: int
    trick_points: tuple[int, ...]
    kitty: tuple[Card, ...]
    kitty_points: int
    kitty_taker: int
    kitty_counted: bool
    red_fives: tuple[tuple[int, int], ...]
    red_five_adjust: int
    penalty_adjust: int
    dealer_final: int
    game_points: tuple[int, ...]

    @property
    def dealer_won(self) -> bool:
        """True when the dealer's final is above 0 (0 is a loss)."""
        return self.dealer_final > 0


def band_multiplier(ruleset: RuleSet, dealer_final: int) -> int:
    """Each defender's gain, in units of the base score, for a dealer final (RULES.md §10):
    bands are closed above (x ≤ −70, −70 < x ≤ −30, ... for two decks)."""
    return ruleset.band_multipliers[bisect_left(ruleset.bands, dealer_final)]


def settle(
    ruleset: RuleSet,
    dealer: int,
    bid: int,
    trick_points: Sequence[int],
    kitty: Sequence[int],
    last_trick_winner: int,
    red_fives: Sequence[tuple[int, int]] = (),
    failed_throws: Sequence[int] = (),
) -> Settlement:
    """Settle a hand (RULES.md §10).

    ``trick_points`` per seat (kitty excluded); ``kitty`` the buried cards; ``red_fives`` one
    ``(from_seat, to_seat)`` per red five played by ``from_seat`` in a trick won by ``to_seat``
    (only captures across sides count); ``failed_throws`` the seat of each failed throw (each
    concedes the ``failed_throw_penalty`` option in card points to the other side).
    Raises ValueError for seats out of range or a wrong-length ``trick_points``.
    """
    n = ruleset.players
    if len(trick_points) != n:
        raise ValueError(f"trick_points needs one number per seat ({n})")
    seats = (dealer, last_trick_winner, *(x for pair in red_fives for x in pair), *failed_throws)
    if not (set(map(type, seats)) == {int} and 0 <= min(seats) and max(seats) < n):  # else find which
        for s in seats:
            if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n:
                raise ValueError(f"seat {s!r} is not 0..{n - 1}")
    opts = ruleset.options
    b = opts.base_score
    kitty_pts = card_points(kitty)
    counted = opts.kitty_to_dealer_always or last_trick_winner == dealer
    game = [0] * n
    rf_adjust = 0
    captures = []
    for frm, to in red_fives:
        if frm == dealer and to != dealer:
            rf_adjust -= RED_FIVE_CARD_POINTS
            game[dealer] -= b
            game[to] += b
            captures.append((frm, to))
        elif frm != dealer and to == dealer:
            rf_adjust += RED_FIVE_CARD_POINTS
            game[frm] -= b
            game[dealer] += b
            captures.append((frm, to))
    penalty = sum(
        (-1 if s == dealer else 1) * opts.failed_throw_penalty for s in failed_throws
    )
    final = trick_points[dealer] + (kitty_pts if counted else 0) + rf_adjust + penalty - bid
    d = band_multiplier(ruleset, final) * b
    for s in range(n):
        game[s] += -(n - 1) * d if s == dealer else d
    return Settlement(
        dealer, bid, tuple(trick_points), tuple(Card(c) for c in kitty), kitty_pts,
        last_trick_winner, counted, tuple(captures), rf_adjust, penalty, final, tuple(game),
    )


TITLES: tuple[tuple[int, str, str], ...] = (
    (0, "赤脚", "Barefoot"), (5, "穿鞋", "Shoes"), (10, "单车", "Bicycle"),
    (20, "三轮车", "Tricycle"), (40, "卡车", "Truck"), (80, "面包车", "Minibus"),
    (144, "轿车", "Sedan"), (260, "房车", "Motorhome"), (468, "坦克", "Tank"),
    (843, "滑翔机", "Glider"), (1517, "直升机", "Helicopter"), (2731, "客机", "Airliner"),
    (4916, "战斗机", "Fighter jet"), (8849, "航天飞机", "Space shuttle"),
    (15929, "宇宙飞船", "Spaceship"), (28672, "星球战舰", "Star cruiser"),
    (51610, "太空堡垒", "Space fortress"), (92898, "神", "God"),
)
"""(minimum accumulated game points, Chinese title, English title), ascending (RULES.md §11)."""


def title_for(points: int, lang: str = "zh") -> str:
    """The title 等级 for accumulated game ``points`` (below 0 stays 赤脚; RULES.md §11).
    ``lang`` "zh" gives the Chinese name, "en" the English one."""
    i = max(0, bisect_right([t[0] for t in TITLES], points) - 1)
    return TITLES[i][1] if lang == "zh" else TITLES[i][2]


def result_line(hand_no: int, settlement: Settlement) -> str:
    """One console line per finished hand, e.g.
    ``hand 1: dealer seat 2 bid 75 final +15 game points [+6,-2,-2,-2]`` (``hongwu play`` and
    ``hongwu join --headless`` print it)."""
    gp = ",".join(f"{g:+d}" for g in settlement.game_points)
    return (f"hand {hand_no}: dealer seat {settlement.dealer} bid {settlement.bid} "
            f"final {settlement.dealer_final:+d} game points [{gp}]")
