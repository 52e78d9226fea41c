# file: hw_bold.py
"""hw_bold: an aggressive 红五 AI written from RULES.md and PLUGINS.md alone.

Its point is its bidding temperament: it wants the deal. It shares no code with the built-in
AIs nor with the other examples (issue #11). Two and three decks.

- bid: counts trumps and top cards for its best suit and bids with hands the others pass,
  jumping straight to the highest raise its hand allows (RULES.md §2: up to 15 over the bid);
- trump: its longest suit, top cards breaking ties;
- bury: its side point cards first (it means to win the last trick and the kitty with them,
  §10), then its shortest side suits;
- lead: throws (甩牌, §7) the top run of a side suit (A, A-K, A-K-Q, pairs included) when it
  has one; the dealer then leads trump pairs and tractors, then its highest trumps; else the
  lowest card of its longest side suit;
- follow: wins any trick with points in it with the cheapest winning play, jokers and red fives
  included once 15 points are at stake; as a defender it throws its points on a partner who is
  winning, trusting him; otherwise it plays its cheapest cards.

Try it: ``hongwu arena --plugin-dir docs/examples --ai hw_bold --ai basic --hands 100``.
"""
import itertools
from collections import Counter

from ai_plugins import PASS, hookimpl
from engine.cards import Card, card_points
from engine.order import context
from engine.tricks import trick_winner

__version__ = "0.1"

LETTERS = ("S", "H", "C", "D")
RED5 = Card("5H")
TOP_TRUMPS = {Card("5H"), Card("BJ"), Card("SJ")}
CAP = 1200  # legal plays generated per decision at most


def hand_count(hand):
    """The bidding count of `hand` for its best suit: trumps + a bonus for the top trumps.

    A float; about 10 for an average two-deck hand (RULES.md §5 for which cards are trumps).
    """
    return max(suit_count(hand, s) for s in LETTERS)


def suit_count(hand, suit):
    """Trumps held with `suit` as trump, the red fives, jokers and 参谋 counting more."""
    ctx = context(suit)
    n = 0.0
    for c in hand:
        if not ctx.is_trump(c):
            continue
        n += 1.0
        if c == RED5:
            n += 1.5
        elif c.rank >= 15:
            n += 1.0
        elif c.rank == 3:
            n += 0.5
    return n


class HwBoldAI:
    """One seat of the bold player (a factory: ``HwBoldAI(settings)``)."""

    def __init__(self, settings):
        self.seat = settings.seat

    # -- auction ---------------------------------------------------------------------------------
    def choose_bid(self, view, bids):
        """Jump to the highest legal bid under its limit; pass only when even the cheapest is over."""
        if not bids:
            return PASS
        per = 25.0 / len(view.hand)
        count = hand_count(view.hand) * per
        scale = view.ruleset.total_points / 200.0
        limit = view.ruleset.bid_min + (count - 11.0) * 6.0 * scale * scale
        affordable = [b for b in bids if b <= limit]
        return max(affordable) if affordable else PASS

    def choose_trump(self, view, suits):
        """The longest trump holding; the red fives and jokers count the same for every suit."""
        return max(suits, key=lambda s: (suit_count(view.hand, s), -suits.index(s)))

    def choose_bury(self, view, count):
        """Side point cards first (for the last trick), then the shortest side suits, lowest first."""
        ctx = view.ctx
        hand = list(view.hand)
        side = [c for c in hand if not ctx.is_trump(c)]
        length = Counter(c.suit for c in side)
        held = Counter(hand)
        order = sorted(side, key=lambda c: (c.rank == 14 or held[c] >= 2 and c.rank >= 12,
                                            -c.points, length[c.suit], c.rank))
        if len(order) < count:
            order += sorted((c for c in hand if ctx.is_trump(c)), key=lambda c: (c in TOP_TRUMPS, ctx.rank(c)))
        return order[:count]

    # -- play ----------------------------------------------------------------------------------------
    def choose_play(self, view, options):
        """Throw top runs, lead trumps as dealer, fight for every point (§6–§9)."""
        if options.leading:
            return self._lead(view, options)
        return self._follow(view, options)

    def _top_run(self, ctx, hand, suit):
        """The cards of `suit` from its ace down while the ranks run without a gap (pairs kept)."""
        cards = sorted((c for c in hand if ctx.suit_of(c) == suit), key=ctx.rank, reverse=True)
        run = []
        want = 14
        for c in cards:
            r = ctx.rank(c)
            if r == want or (run and r == ctx.rank(run[-1])):
                run.append(c)
                if r == want:
                    want -= 1
            elif r < want:
                break
        return run

    def _lead(self, view, options):
        ctx = view.ctx
        hand = list(view.hand)
        runs = []
        for s in LETTERS:
            run = self._top_run(ctx, hand, s)
            if run and options.is_legal(run):
                runs.append(run)
        if runs:
            return tuple(max(runs, key=lambda r: (len(r), card_points(r))))
        units = list(options.units())
        trump_units = [u for u in units if ctx.is_trump(u[0])]
        if view.seat == view.dealer and trump_units:
            groups = [u for u in trump_units if len(u) >= 2]
            if groups:
                return max(groups, key=lambda u: (len(u), ctx.rank(u[0])))
            mine = sum(1 for c in hand if ctx.is_trump(c))
            if mine * 3 >= len(hand):
                return max(trump_units, key=lambda u: ctx.rank(u[0]))
        side_units = [u for u in units if not ctx.is_trump(u[0])]
        if side_units:
            length = Counter(ctx.suit_of(c) for c in hand)
            pairs = [u for u in side_units if len(u) >= 2]
            if pairs:
                return max(pairs, key=lambda u: (len(u), ctx.rank(u[0])))
            return min(side_units, key=lambda u: (-length[ctx.suit_of(u[0])], u[0].points, ctx.rank(u[0])))
        return min(units, key=lambda u: (u[0] in TOP_TRUMPS, -len(u), ctx.rank(u[0])))

    def _follow(self, view, options):
        ctx = view.ctx
        table = [cards for _, cards in view.current_trick]
        seats = [s for s, _ in view.current_trick]
        lead_seat = seats[trick_winner(table, ctx)]
        stake = card_points(c for cards in table for c in cards)
        plays = list(itertools.islice(options, CAP))
        quick = self._quick(view, options)
        if quick is not None:
            plays.append(quick)

        def spend(play):
            return sum(ctx.rank(c) + 18 * ctx.is_trump(c) + 30 * (c in TOP_TRUMPS) for c in play)

        if view.is_defender(self.seat) and view.is_defender(lead_seat):
            return max(plays, key=lambda p: (RED5 not in p, card_points(p), -spend(p)))
        winning = [p for p in plays if trick_winner(table + [p], ctx) == len(table)]
        if winning:
            best = min(winning, key=lambda p: (any(c in TOP_TRUMPS for c in p) and stake < 15, spend(p) - 2 * card_points(p)))
            big = any(c in TOP_TRUMPS for c in best)
            if (stake + card_points(best) >= 5 and (not big or stake >= 15)) or RED5 in sum(table, ()):
                return best
        return min(plays, key=lambda p: (RED5 in p, card_points(p), spend(p)))

    def _quick(self, view, options):
        """A cheap legal follow built by hand (led suit, then lowest others), or None."""
        ctx = view.ctx
        n = len(options.lead)
        led = ctx.suit_of(options.lead[0])
        key = lambda c: (c == RED5, c.points, ctx.is_trump(c), ctx.rank(c))
        mine = sorted((c for c in view.hand if ctx.suit_of(c) == led), key=key)
        other = sorted((c for c in view.hand if ctx.suit_of(c) != led), key=key)
        play = mine[:n] if len(mine) >= n else mine + other[: n - len(mine)]
        return tuple(play) if options.is_legal(play) else None


@hookimpl
def register_ais(register):
    register("hw_bold", HwBoldAI, __version__)
