"""Statistics of a profile's 找朋友 hands, and the level history of one match (README
"Career"; RULES.md §11: 找朋友 keeps its own record, no game points).

Read from the ``zpy_hands`` table (schema v3) at each call: 找朋友 hands are few next to
红五's (a match is tens of hands), so no running totals are kept."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ZpyStats:
    """A profile's 找朋友 statistics: ``profile``; ``hands``; ``dealer_hands`` / ``dealer_rate``
    (share of hands it was the dealer, 0–1); ``friend_hands`` / ``friend_rate`` (share it
    was the called friend); ``dealer_side_hands`` (dealer or friend) and
    ``dealer_side_wins`` / ``dealer_side_win_rate`` (None without such hands);
    ``catcher_hands`` / ``catcher_wins``; ``alone_hands`` (dealer alone, 1 against 4);
    ``mean_catcher_points`` (per hand, None without hands); ``levels_gained`` (the profile's
    own levels gained, summed); ``matches`` (distinct match ids); ``games_won`` (games it was
    among the winners of, 找朋友 §10); and the chart's match: ``match_id`` (the requested or
    latest, None without hands), ``match_seats`` (names), ``match_hands`` (hand numbers) and
    ``levels`` (per seat: the level before the match's first recorded hand, then after each
    hand)."""

    profile: str
    hands: int
    dealer_hands: int
    dealer_rate: float
    friend_hands: int
    friend_rate: float
    dealer_side_hands: int
    dealer_side_wins: int
    dealer_side_win_rate: float | None
    catcher_hands: int
    catcher_wins: int
    alone_hands: int
    mean_catcher_points: float | None
    levels_gained: int
    matches: int
    games_won: int
    match_id: str | None
    match_seats: list[str]
    match_hands: list[int]
    levels: list[list[int]]

    def as_dict(self) -> dict[str, Any]:
        """Plain form (``hongwu stats --ruleset zhaopengyou --json``)."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def zpy_stats(store: Any, profile_name: str, match_id: str | None = None) -> ZpyStats:
    """The :class:`ZpyStats` of profile ``profile_name``; the level history is that of match
    ``match_id`` (default: the match of its latest 找朋友 hand). Raises CareerError for an
    unknown profile or a match id the profile has no hands of."""
    from game.career.store import CareerError

    p = store.profile(profile_name)
    rows = store.zpy_hands(p.id)
    n = len(rows)
    dealer = sum(1 for r in rows if r.dealer == r.seat)
    friend = sum(1 for r in rows if r.friend == r.seat)
    side = [r for r in rows if r.seat in r.dealer_side]
    side_wins = sum(1 for r in side if r.winner == "dealer")
    catch = [r for r in rows if r.seat not in r.dealer_side]
    catch_wins = sum(1 for r in catch if r.winner == "catchers")
    games_won = sum(1 for r in rows if r.game_over and r.seat in r.game_winners)
    if match_id is None and rows:
        match_id = rows[-1].match_id
    hands = [r for r in rows if r.match_id == match_id] if match_id is not None else []
    if match_id is not None and not hands:
        raise CareerError(f"{p.name} has no 找朋友 hands of match {match_id!r}")
    levels: list[list[int]] = []
    if hands:
        seats = len(hands[0].levels_before)
        levels = [[hands[0].levels_before[s]] + [h.levels_after[s] for h in hands] for s in range(seats)]
    return ZpyStats(
        p.name, n, dealer, dealer / n if n else 0.0, friend, friend / n if n else 0.0, len(side), side_wins,
        side_wins / len(side) if side else None, len(catch), catch_wins, sum(1 for r in rows if r.alone),
        sum(r.catcher_points for r in rows) / n if n else None, sum(r.my_gain for r in rows),
        len({r.match_id for r in rows}), games_won, match_id, list(hands[0].seats) if hands else [],
        [h.hand_no for h in hands], levels)
