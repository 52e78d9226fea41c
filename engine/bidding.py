"""The 叫分 auction that decides the dealer (RULES.md §2).

Seats act in play order (counter-clockwise) from a starting seat; each bids or passes; a pass
is final for the hand. Bids are multiples of ``bid_step``, 5..15 above the highest bid (the
first bid: the minimum up to minimum + 15), never above the maximum. A bid of the maximum ends
the auction; so does a bid that the three others have all passed; if all four pass, the
starting seat is dealer at the minimum.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.ruleset import RuleSet

PASS = None
"""A pass is written as ``None`` (``"pass"`` in the judge and on the wire)."""


class BidError(ValueError):
    """Raised for a bid that is not allowed now (the message says why)."""


@dataclass(frozen=True)
class Auction:
    """The auction so far: ``start`` seat and ``actions`` (bids as ints, passes as None) in turn
    order. Derived: ``to_act``, ``done``, ``dealer``, ``bid`` (see the properties)."""

    ruleset: RuleSet
    start: int
    actions: tuple[int | None, ...] = ()

    # -- derived state ---------------------------------------------------------------
    def __post_init__(self) -> None:
        object.__setattr__(self, "_state", self._compute())

    def _replay(self) -> tuple[int | None, int | None, frozenset[int], int | None, bool]:
        """(highest bid, its seat, passed seats, next seat, done), computed once."""
        return self._state  # type: ignore[attr-defined]

    def _compute(self) -> tuple[int | None, int | None, frozenset[int], int | None, bool]:
        rs = self.ruleset
        high, high_seat, passed = None, None, set()
        seat = self.start
        done = False
        for amount in self.actions:
            if amount is None:
                passed.add(seat)
            else:
                high, high_seat = amount, seat
            if high == rs.bid_max:
                done = True
                break
            if len(passed) == rs.players or (high_seat is not None and len(passed) == rs.players - 1):
                done = True
                break
            seat = self._next_active(seat, passed)
        return high, high_seat, frozenset(passed), (None if done else seat), done

    def _next_active(self, seat: int, passed: set[int]) -> int:
        n = self.ruleset.players
        for step in range(1, n + 1):
            s = (seat + step) % n
            if s not in passed:
                return s
        return seat

    @property
    def done(self) -> bool:
        """True once the dealer is decided."""
        return self._replay()[4]

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None when done."""
        return self._replay()[3]

    @property
    def highest(self) -> int | None:
        """The highest bid so far, or None."""
        return self._replay()[0]

    @property
    def dealer(self) -> int | None:
        """The dealer once done (the starting seat if all passed), else None."""
        high, high_seat, _, _, done = self._replay()
        if not done:
            return None
        return self.start if high_seat is None else high_seat

    @property
    def bid(self) -> int | None:
        """The winning bid once done (the minimum if all passed), else None."""
        high, _, _, _, done = self._replay()
        if not done:
            return None
        return self.ruleset.bid_min if high is None else high

    def options(self) -> tuple[int, ...]:
        """Legal bid amounts for the seat to act, ascending (passing is always allowed)."""
        if self.done:
            return ()
        return bid_options(self.ruleset, self.highest)

    def apply(self, amount: int | None) -> "Auction":
        """The auction after the seat to act bids ``amount`` (None = pass).

        Raises :class:`BidError` if the auction is over or the amount is not a legal bid.
        """
        if self.done:
            raise BidError("the auction is over")
        if amount is not None:
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise BidError(f"a bid is a whole number of points, got {amount!r}")
            legal = self.options()
            if amount not in legal:
                raise BidError(
                    f"a bid of {amount} is not allowed now; the legal bids are "
                    f"{', '.join(map(str, legal))} (or pass)"
                )
        return Auction(self.ruleset, self.start, self.actions + (amount,))


def bid_options(ruleset: RuleSet, highest: int | None) -> tuple[int, ...]:
    """Legal bids given the ``highest`` bid so far (None before the first bid), ascending:
    5 to 15 above it in steps of 5 (the first bid: minimum to minimum + 15), capped at the
    maximum (RULES.md §2)."""
    step, top = ruleset.bid_step, ruleset.bid_max
    if highest is None:
        low = ruleset.bid_min
        return tuple(b for b in range(low, low + ruleset.bid_raise_max + 1, step) if b <= top)
    return tuple(
        b for b in range(highest + step, highest + ruleset.bid_raise_max + 1, step) if b <= top
    )


def replay_auction(ruleset: RuleSet, start: int, actions: Sequence[int | None]) -> Auction:
    """Apply ``actions`` one by one from ``start``; raises :class:`BidError` on the first
    illegal one (its index is in the message)."""
    auction = Auction(ruleset, start)
    for i, a in enumerate(actions):
        try:
            auction = auction.apply(a)
        except BidError as exc:
            raise BidError(f"action {i}: {exc}") from None
    return auction
