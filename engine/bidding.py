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
        return self._state[4]  # type: ignore[attr-defined]

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None when done."""
        return self._state[3]  # type: ignore[attr-defined]

    @property
    def highest(self) -> int | None:
        """The highest bid so far, or None."""
        return self._state[0]  # type: ignore[attr-defined]

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
        high, _, _, _, done = self._state  # type: ignore[attr-defined]
        if done:
            return ()
        return bid_options(self.ruleset, high)

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
        return self._after(amount)

    def _after(self, amount: int | None) -> "Auction":
        """The auction one (already checked) action later. Its derived state is stepped on from
        this one's, exactly as :meth:`_compute` would replay it, instead of replaying them all."""
        rs = self.ruleset
        high, high_seat, passed, seat, _ = self._state  # type: ignore[attr-defined]
        if amount is None:
            passed = passed | {seat}
        else:
            high, high_seat = amount, seat
        done = high == rs.bid_max or len(passed) == rs.players or (
            high_seat is not None and len(passed) == rs.players - 1
        )
        state = (high, high_seat, passed, None if done else self._next_active(seat, passed), done)
        after = object.__new__(Auction)
        after.__dict__.update(ruleset=rs, start=self.start, actions=self.actions + (amount,), _state=state)
        return after


def bid_options(ruleset: RuleSet, highest: int | None) -> tuple[int, ...]:
    """Legal bids given the ``highest`` bid so far (None before the first bid), ascending:
    5 to 15 above it in steps of 5 (the first bid: minimum to minimum + 15), capped at the
    maximum (RULES.md §2)."""
    step, top = ruleset.bid_step, ruleset.bid_max
    if highest is None:
        low = ruleset.bid_min
        return tuple(range(low, min(low + ruleset.bid_raise_max, top) + 1, step))
    return tuple(range(highest + step, min(highest + ruleset.bid_raise_max, top) + 1, step))


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
