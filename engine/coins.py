"""Coins 金币: the stake rule and its caps (RULES.md §12).

Pure arithmetic, no clock and no storage: the caller (``game.career``) supplies the day's net
change so far and decides which calendar day a hand belongs to.

Coins change hands at a table *stake* in coins per game point: a seat's raw change for a hand
is ``game_points * stake``. Each change is then clamped to ``±hand_cap`` and so that the day's
net (the sum of that player's clamped changes since local midnight) never passes ``±day_cap``.
Game points stay zero-sum; coins stop being zero-sum as soon as a clamp bites.
"""
from __future__ import annotations

HAND_CAP = 20_000_000
"""Largest coin change, won or lost, in one hand (RULES.md §12)."""

DAY_CAP = 80_000_000
"""Largest net coin change, won or lost, in one local calendar day (RULES.md §12)."""


def raw_change(game_points: int, stake: int) -> int:
    """Coins a seat would win (+) or lose (−) before the caps: ``game_points * stake``.
    Raises ValueError for a negative stake (RULES.md §12)."""
    if stake < 0:
        raise ValueError(f"a stake is coins per game point, 0 or more, not {stake}")
    return game_points * stake


def clamp_coins(change: int, day_net_so_far: int = 0, hand_cap: int = HAND_CAP,
                day_cap: int = DAY_CAP) -> int:
    """The coin change that really applies (RULES.md §12).

    ``change``: the raw change (coins, + won / − lost); ``day_net_so_far``: this player's net
    clamped change earlier the same local day. The result is within ``±hand_cap`` and keeps
    ``day_net_so_far + result`` within ``±day_cap``; a player already past the day cap in one
    direction can still move back towards 0. Raises ValueError for negative caps.
    """
    if hand_cap < 0 or day_cap < 0:
        raise ValueError("caps are 0 or more")
    c = max(-hand_cap, min(hand_cap, change))
    hi = max(0, day_cap - day_net_so_far)     # room left upwards today
    lo = min(0, -day_cap - day_net_so_far)    # room left downwards today (≤ 0)
    return max(lo, min(hi, c))


def at_daily_cap(day_net_so_far: int, day_cap: int = DAY_CAP) -> bool:
    """True when the day's net change has reached the cap, won or lost (``|net| >= day_cap``):
    such a player may not start another staked hand before the next local midnight
    (RULES.md §12)."""
    return abs(day_net_so_far) >= day_cap


def seat_changes(game_points: tuple[int, ...] | list[int], stake: int,
                 day_nets: tuple[int, ...] | list[int] | None = None,
                 hand_cap: int = HAND_CAP, day_cap: int = DAY_CAP) -> tuple[int, ...]:
    """Clamped coin change per seat for one hand: ``clamp_coins(gp * stake, day_net)`` for each
    seat's game points; ``day_nets`` each seat's net so far today (None: all 0). Raises
    ValueError for a negative stake or a ``day_nets`` of the wrong length (RULES.md §12)."""
    nets = [0] * len(game_points) if day_nets is None else list(day_nets)
    if len(nets) != len(game_points):
        raise ValueError("day_nets needs one number per seat")
    return tuple(clamp_coins(raw_change(g, stake), d, hand_cap, day_cap)
                 for g, d in zip(game_points, nets))
