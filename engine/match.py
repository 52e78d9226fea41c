"""Matches: what lives from hand to hand.

A match deals hand after hand from one seed (:func:`engine.state.match_seed`: hand k's seed
comes from the match seed and k) and carries over only what the rules carry over. A hand never
reaches back into its match: the match reads the finished hand's settlement and builds the next
hand from it.

- :class:`ZpyMatch` (找朋友, spec §2, §3, §10): levels per seat, the declaring right (the side
  that won the last hand), the first-card seat (the last dealer), the hand number, game over.
- :class:`HongwuMatch` (红五, RULES.md §1): a match of independent hands with the same
  interface (the first bidder of each hand is drawn from its seed).

Both: ``match.hand`` (the current hand), ``match.next_hand()`` (the next hand once the current
one is settled; raises :class:`MatchOver` when the game has ended or ``max_hands`` are
played), ``match.hand_no``, ``match.game_over``, ``match.results`` (settlements so far).
"""
from __future__ import annotations

from typing import Any

from engine.ruleset import RuleSet, hongwu, zhaopengyou
from engine.state import Game, match_seed
from engine.zhaopengyou import ZpyHand


class MatchOver(RuntimeError):
    """No next hand: the game is over (找朋友 spec §10) or the match's hand limit is reached."""


class ZpyMatch:
    """A 找朋友 match (找朋友 spec §2, §3, §10).

    ``ruleset`` (default :func:`engine.ruleset.zhaopengyou`); ``seed`` (None: random deals);
    ``max_hands`` (None: no limit). Attributes: ``levels`` (five ranks 2..14 before the current
    hand), ``eligible`` (seats with the declaring right for the current hand), ``first_card``
    (its first-card seat; hand 1: drawn from the hand's seed), ``hand_no``, ``hand``,
    ``results`` (settlements of finished hands), ``game_over``, ``winners``.
    """

    def __init__(self, ruleset: RuleSet | None = None, seed: int | None = None,
                 max_hands: int | None = None, levels: tuple[int, ...] | None = None) -> None:
        self.ruleset = ruleset or zhaopengyou()
        if not self.ruleset.is_zhaopengyou:
            raise ValueError("a ZpyMatch needs the zhaopengyou ruleset")
        n = self.ruleset.players
        self.seed = seed
        self.max_hands = max_hands
        self.levels: tuple[int, ...] = tuple(levels) if levels else (2,) * n
        self.eligible: tuple[int, ...] = tuple(range(n))
        self.first_card: int | None = None
        self.hand_no = 1
        self.results: list[Any] = []
        self.game_over = False
        self.winners: tuple[int, ...] = ()
        self.hand = self._deal()

    @classmethod
    def resume(cls, ruleset: RuleSet, seed: int | None, hand_no: int, levels: tuple[int, ...],
               eligible: tuple[int, ...], first_card: int | None, results: tuple[Any, ...] = (),
               max_hands: int | None = None) -> "ZpyMatch":
        """The match as it stood when hand ``hand_no`` was dealt, from what it carries over
        (找朋友 spec §10): ``levels``, ``eligible`` and ``first_card`` before that hand (None:
        hand 1, drawn from its seed), the settlements of the ``hand_no - 1`` finished hands
        (``results``), the match ``seed`` and ``max_hands``. ``match.hand`` is that hand dealt
        again from its seed, as :meth:`next_hand` dealt it. Raises ValueError when the
        results do not number ``hand_no - 1`` or a finished hand already ended the game."""
        if hand_no < 1 or len(results) != hand_no - 1:
            raise ValueError(f"hand {hand_no} needs {hand_no - 1} earlier settlement(s), "
                             f"got {len(results)}")
        if any(getattr(r, "game_over", False) for r in results):
            raise ValueError("the game ended before this hand: no hand to resume")
        m = cls.__new__(cls)
        m.ruleset = ruleset
        if not ruleset.is_zhaopengyou:
            raise ValueError("a ZpyMatch needs the zhaopengyou ruleset")
        m.seed, m.max_hands, m.hand_no = seed, max_hands, hand_no
        m.levels, m.eligible = tuple(levels), tuple(eligible)
        m.first_card = first_card
        m.results = list(results)
        m.game_over, m.winners = False, ()
        m.hand = m._deal()
        return m

    def _deal(self) -> ZpyHand:
        return ZpyHand.new(self.ruleset, match_seed(self.seed, self.hand_no), hand_no=self.hand_no,
                           levels=self.levels, eligible=self.eligible, first_card=self.first_card)

    @property
    def limit_reached(self) -> bool:
        """True once ``max_hands`` hands are finished."""
        return self.max_hands is not None and len(self.results) >= self.max_hands

    def next_hand(self) -> ZpyHand:
        """Record the current hand's settlement and deal the next hand from it: levels after
        the hand, the declaring right to the winning side, the first card to this hand's dealer
        (§10). Raises ValueError if the current hand is not over, :class:`MatchOver` when the
        game has ended or the hand limit is reached."""
        self._record()
        if self.game_over:
            raise MatchOver(f"the game is over: seat(s) {', '.join(map(str, self.winners))} won")
        if self.limit_reached:
            raise MatchOver(f"the match stops after {self.max_hands} hands")
        self.hand_no += 1
        self.hand = self._deal()
        return self.hand

    def _record(self) -> None:
        hand = self.hand
        if not hand.is_over:
            raise ValueError("the current hand is not over")
        st = hand.settlement
        if len(self.results) < self.hand_no:
            self.results.append(st)
            self.levels = tuple(st.levels)
            self.eligible = tuple(st.eligible)
            self.first_card = st.first_card_to
            if st.game_over:
                self.game_over = True
                self.winners = tuple(st.game_winners)

    def finish_hand(self) -> None:
        """Record the settled current hand without dealing another (game over and the hand
        limit are then up to date). ValueError if it is not over."""
        self._record()


class HongwuMatch:
    """A 红五 match: independent hands from one seed (RULES.md §1), with :class:`ZpyMatch`'s
    interface. ``game_over`` only becomes True at ``max_hands``."""

    def __init__(self, ruleset: RuleSet | None = None, seed: int | None = None,
                 max_hands: int | None = None) -> None:
        self.ruleset = ruleset or hongwu()
        self.seed = seed
        self.max_hands = max_hands
        self.hand_no = 1
        self.results: list[Any] = []
        self.winners: tuple[int, ...] = ()
        self.hand = Game.new(self.ruleset, seed=match_seed(seed, 1), hand_no=1)

    @property
    def game_over(self) -> bool:
        """True once ``max_hands`` hands are finished (红五 has no game end of its own)."""
        return self.max_hands is not None and len(self.results) >= self.max_hands

    limit_reached = game_over

    def finish_hand(self) -> None:
        """Record the settled current hand. ValueError if it is not over."""
        if not self.hand.is_over:
            raise ValueError("the current hand is not over")
        if len(self.results) < self.hand_no:
            self.results.append(self.hand.settlement)

    def next_hand(self) -> Game:
        """The next independent hand (seed from the match seed and its number); raises
        :class:`MatchOver` at ``max_hands``, ValueError if the current hand is not over."""
        self.finish_hand()
        if self.game_over:
            raise MatchOver(f"the match stops after {self.max_hands} hands")
        self.hand_no += 1
        self.hand = Game.new(self.ruleset, seed=match_seed(self.seed, self.hand_no), hand_no=self.hand_no)
        return self.hand


def new_match(ruleset: RuleSet, seed: int | None = None, max_hands: int | None = None):
    """The match type of ``ruleset``: :class:`ZpyMatch` for 找朋友, else :class:`HongwuMatch`."""
    if ruleset.is_zhaopengyou:
        return ZpyMatch(ruleset, seed, max_hands)
    return HongwuMatch(ruleset, seed, max_hands)
