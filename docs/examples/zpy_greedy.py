# file: zpy_greedy.py
"""zpy_greedy: a one-file 找朋友 AI written the way a plugin author would (PLUGINS.md).

It shares no code with the built-in AIs, so the arena can measure them against an
independent style of play:

- declare: as soon as the offered declaration's suit (or no-trump for jokers) would make at
  least a third of the cards held so far trump, or in the last windows if nobody has;
- call: the first ace of the side suit it holds most of, when it lacks that ace; else the
  next copy of an ace it holds; never counters;
- bury: its lowest side cards without points;
- play: leads its side aces first, else the lowest card of its longest side suit; following,
  when a known partner is winning it throws him its richest cheap cards; otherwise it wins
  tricks holding 10 points or more with the cheapest winning play, and else plays its
  cheapest cards.

Try it: ``hongwu arena --ruleset zhaopengyou --plugin-dir docs/examples --ai zpy_greedy
--ai basic --hands 50``.
"""
import itertools

from ai_plugins import hookimpl
from engine.cards import card_points
from engine.tricks import trick_winner

__version__ = "0.1"


class ZpyGreedyAI:
    rulesets = ("zhaopengyou",)  # 找朋友 only; at a 红五 table basic plays this seat

    def __init__(self, settings):
        self.seat = settings.seat

    # -- the deal and the call -------------------------------------------------------------
    def choose_declaration(self, view, options):
        level = view.levels[view.seat]
        held = list(view.hand)

        def trumps(suit):
            return sum(1 for c in held if c.rank == level or c.suit is None or (suit and c.suit == suit))

        best = max(options, key=lambda cards: (trumps(cards[0].suit), -len(cards)))
        last_windows = view.cards_dealt >= 155 and view.standing is None
        if last_windows or trumps(best[0].suit) * 3 >= max(9, len(held)):
            return best
        return ()

    def choose_friend(self, view, calls):
        valid = set(calls)
        suits = sorted("SHCD", key=lambda s: -sum(1 for c in view.hand if c.suit == s))
        for s in suits:
            for card, nth in calls:
                if card.suit == s and card.rank == 14 and nth == 1 and card not in view.hand:
                    return (card, nth)
        for card, nth in calls:
            if card.rank == 14 and (card, list(view.hand).count(card) + 1) in valid:
                return (card, list(view.hand).count(card) + 1)
        return calls[0]

    def choose_counter(self, view, options):
        return ()

    # -- bury and play -----------------------------------------------------------------------
    def choose_bury(self, view, count):
        ctx = view.ctx
        order = sorted(view.hand, key=lambda c: (ctx.is_trump(c), c.points > 0, ctx.rank(c)))
        return order[:count]

    def choose_play(self, view, options):
        ctx = view.ctx

        def cost(play):
            return sum(ctx.rank(c) + (30 if ctx.is_trump(c) else 0) for c in play)

        if options.leading:
            singles = [p for p in options.units() if len(p) == 1]
            aces = [p for p in singles if not ctx.is_trump(p[0]) and p[0].rank == 14]
            if aces:
                return aces[0]
            side = [p for p in singles if not ctx.is_trump(p[0])]
            if side:
                length = {s: sum(1 for c in view.hand if c.suit == s and not ctx.is_trump(c)) for s in "SHCD"}
                return min(side, key=lambda p: (-length[p[0].suit], card_points(p), cost(p)))
            return min(singles, key=cost)
        table = [cards for _, cards in view.current_trick]
        seats = [s for s, _ in view.current_trick]
        at_stake = card_points(c for cards in table for c in cards)
        plays = list(itertools.islice(options, 200))
        winning_seat = seats[trick_winner(table, ctx)]
        known = view.dealer_side()
        if view.seat in known:
            partners = known
        elif view.friend is not None or view.alone:  # the sides are known: the other catchers
            partners = {s for s in range(view.players) if s not in known}
        else:
            partners = set()  # before the reveal a catcher cannot be sure of anyone
        if winning_seat in partners:
            return max(plays, key=lambda p: (card_points(p), -cost(p)))  # feed the partner
        winners = [p for p in plays if trick_winner(table + [p], ctx) == len(table)]
        if winners and at_stake >= 10:
            return min(winners, key=cost)
        return min(plays, key=lambda p: (card_points(p), cost(p)))


@hookimpl
def register_ais(register):
    register("zpy_greedy", ZpyGreedyAI, __version__)
