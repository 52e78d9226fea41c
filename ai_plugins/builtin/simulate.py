"""Simulation helpers for the ``expert`` AI: sampled deals (determinization) and fast rollouts.

A *world* is an :class:`engine.state.Game` rebuilt from a seat's view with the hidden cards
dealt at random, consistent with what the seat knows: the hand sizes, the cards already
played, the buried cards (dealer) and the voids others have shown. The rest of the hand is
then played out by :func:`rollout_action`, a cheap policy with full sight of the world's hands
(the usual "perfect-information Monte-Carlo" simplification). Every action goes through
``Game.apply``, so the rules and the settlement are the engine's (RULES.md §7–§10).
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any, Sequence

from engine.cards import Card, make_deck
from engine.order import TRUMP_INDEX, TrumpContext
from engine.scoring import band_multiplier
from engine.state import Bury, ChooseTrump, Game, Phase, Play
from engine.tricks import PlayOptions, trick_winner

from .knowledge import RED_FIVE_ID, Knowledge, copy_caps, same_side

MAX_FOLLOW_CANDIDATES = 24
"""Legal follows the rollout policy looks at (the generator is lazy)."""


def _value(c: int, ctx: TrumpContext) -> int:
    """Strength spent by playing ``c``: trumps above every side card."""
    return ctx.VAL[c] + (30 if ctx.SUITX[c] == TRUMP_INDEX else 0)


DEALER_TRUMP_WEIGHT = {2: 1.85, 3: 1.5}
"""Per deck count, how much likelier a hidden trump is to sit in the dealer's hand than in a
defender's, card for card (the dealer named its long suit and kept its trumps): the ratio of
trump densities at the start of play over 40 ``basic`` self-play deals per deck count
(``benchmarks/expert_prior.py`` measures it)."""

KITTY_TRUMP_WEIGHT = 0.02
"""Relative chance of a hidden trump being in the buried kitty (dealers keep their trumps:
none were buried in those 80 deals)."""

KITTY_POINT_WEIGHT = 0.25
"""Relative chance of a hidden point card being in the buried kitty (4.5 points on average
were buried with two decks, against 19 for a uniform deal)."""


def _deal_hidden(rng: random.Random, cards: list[int], capacity: dict[Any, int],
                 forbidden: dict[Any, set[int]], ctx: TrumpContext | None,
                 bias: Any = None, caps: dict[Any, dict[int, int]] | None = None,
                 bias_first: bool = False) -> dict[Any, list[int]] | None:
    """Deal ``cards`` into the holders of ``capacity`` (exact counts), never giving a holder a
    card of an effective suit in ``forbidden[holder]``, nor more copies of one card of suit x
    than ``caps[holder][x]`` (:func:`.knowledge.copy_caps`: a seat that showed it has no pair
    left there gets at most one copy); None if that failed. ``bias(holder, card)``, when
    given, multiplies a holder's chance of getting the card (a prior on where cards lie; the
    counts stay exact). With ``bias_first``, among equally constrained cards those some holder
    is least likely to get (the lowest ``bias``) are dealt first, while every holder still has
    room: dealt last, such a card (a trump for the kitty) would often be forced on the one
    holder with room left, whatever its weight."""
    rng.shuffle(cards)
    if ctx is not None:  # the most constrained cards first
        def constrained(c: int) -> int:
            return -sum(1 for h in capacity if ctx.SUITX[c] in forbidden.get(h, ()))

        if bias_first and bias is not None:
            low = {c: min(1.0, min(bias(h, c) for h in capacity)) for c in set(cards)}
            cards.sort(key=lambda c: (constrained(c), low[c]))
        else:
            cards.sort(key=constrained)
    left = dict(capacity)
    out: dict[Any, list[int]] = {h: [] for h in capacity}
    caps = {h: cap for h, cap in (caps or {}).items() if cap and h in capacity} if ctx is not None else {}
    for c in cards:
        holders = [h for h, k in left.items() if k > 0 and
                   (ctx is None or ctx.SUITX[c] not in forbidden.get(h, ())) and
                   (h not in caps or out[h].count(c) < caps[h].get(ctx.SUITX[c], 99))]
        if not holders:
            return None
        if bias is None:
            weights = [left[h] for h in holders]
        else:
            weights = [left[h] * bias(h, c) for h in holders]
        h = rng.choices(holders, weights)[0]
        out[h].append(c)
        left[h] -= 1
    return out


def sample_world(view: Any, rng: random.Random, tries: int = 20, prior: bool = False,
                 structure: bool = False, bias: Any = None) -> Game:
    """A :class:`Game` in the play phase equal to ``view``'s position, hidden cards sampled.

    Other seats get exactly ``view.hand_sizes`` cards each; for a defender the buried cards are
    sampled too (they are hidden until the end). Known voids are respected when possible
    (after ``tries`` failures they are ignored). With ``prior``, a defender's samples lean
    the way real deals do: hidden trumps go to the dealer :data:`DEALER_TRUMP_WEIGHT` times
    as often as to a defender, and seldom to the kitty, which also gets few point cards
    (:data:`KITTY_TRUMP_WEIGHT`, :data:`KITTY_POINT_WEIGHT`). With ``structure``, a seat that
    showed it has no pair (no triple) left in a suit by its follows gets no two (three) copies
    of one card there (:func:`.knowledge.copy_caps`, RULES.md §8; the first half of the
    ``tries`` only, then the voids alone). ``bias``, when given, replaces that prior (for the
    dealer's view too): a ``bias(holder, card id)`` weight such as the learned prior of
    :func:`.inference.prior_bias` (made once per decision, since it reads the whole view),
    its least likely placements dealt first (``_deal_hidden``'s ``bias_first``).
    Raises ValueError outside the play phase.
    """
    if view.phase is not Phase.PLAY:
        raise ValueError("sample_world needs a play-phase view")
    know = Knowledge.from_view(view)
    hidden = [c for c, k in enumerate(know.unseen) for _ in range(k)]
    me = view.seat
    capacity: dict[Any, int] = {s: view.hand_sizes[s] for s in range(len(view.hand_sizes)) if s != me}
    if view.buried is None:
        capacity["kitty"] = view.ruleset.kitty_size
    forbidden = {s: know.voids[s] for s in capacity if s != "kitty"}
    bias_first = bias is not None
    if bias is None and prior and view.buried is None and view.dealer is not None:
        bias = _defender_prior(view)
    caps = dict(enumerate(copy_caps(view))) if structure else None
    dealt = None
    for i in range(tries):
        dealt = _deal_hidden(rng, list(hidden), capacity, forbidden, view.ctx, bias,
                             caps if i < tries // 2 else None, bias_first)
        if dealt is not None:
            break
    if dealt is None:
        dealt = _deal_hidden(rng, list(hidden), capacity, {}, None)
    assert dealt is not None
    hands = [list(view.hand) if s == me else [Card(c) for c in dealt[s]]
             for s in range(len(view.hand_sizes))]
    buried = tuple(view.buried) if view.buried is not None else tuple(Card(c) for c in dealt["kitty"])
    return _game_at(view, hands, buried)


def _defender_prior(view: Any) -> Any:
    """The ``bias`` of :func:`_deal_hidden` for a defender's view (see :func:`sample_world`)."""
    sx = view.ctx.SUITX
    dealer = view.dealer
    w_dealer = DEALER_TRUMP_WEIGHT.get(view.ruleset.decks, 1.5)
    points = [Card(c).points for c in range(54)]

    def bias(holder: Any, c: int) -> float:
        if holder == "kitty":
            if sx[c] == TRUMP_INDEX:
                return KITTY_TRUMP_WEIGHT
            return KITTY_POINT_WEIGHT if points[c] else 1.0
        if holder == dealer and sx[c] == TRUMP_INDEX:
            return w_dealer
        return 1.0

    return bias


def _game_at(view: Any, hands: list[list[Card]], buried: tuple[Card, ...]) -> Game:
    """Rebuild a play-phase :class:`Game` from ``view`` with the given hands and buried cards
    (the engine's :meth:`Game.from_view`)."""
    return Game.from_view(view, hands, buried)


def sample_deal_as_dealer(hand: Sequence[int], ruleset: Any, rng: random.Random, seat: int,
                          kitty: Sequence[int] | None = None) -> tuple[list[list[Card]], list[Card]]:
    """Deal the cards the seat cannot see at random: ``hand`` is its dealt hand, ``kitty`` the
    kitty if it is known (the dealer after taking it), else the kitty is dealt at random too.
    Returns (hands for all seats, the seat's being ``hand``; kitty)."""
    rest = Counter(make_deck(ruleset.decks))
    rest.subtract(Counter(hand))
    if kitty is not None:
        rest.subtract(Counter(kitty))
    pool = sorted(rest.elements())
    rng.shuffle(pool)
    k = ruleset.hand_size
    hands: list[list[Card]] = []
    pos = 0
    for s in range(ruleset.players):
        if s == seat:
            hands.append(list(hand))
        else:
            hands.append(pool[pos:pos + k])
            pos += k
    return hands, (list(kitty) if kitty is not None else pool[pos:])


def game_for_dealer(hands: list[list[Card]], kitty: Sequence[Card], ruleset: Any, dealer: int,
                    bid: int) -> Game:
    """A game whose auction is over: ``dealer`` won it at ``bid``; the trump is next
    (the engine's :meth:`Game.after_auction`)."""
    return Game.after_auction(hands, kitty, ruleset, dealer, bid)


def rollout_action(game: Game, rng: random.Random) -> Any:
    """A quick action for ``game.to_act`` with sight of every hand (play phase only).

    Leading: the unit that nobody on the other side can beat, most cards and points first;
    otherwise the weakest single of the longest side suit. Following: win the trick with the
    cheapest winning play if it holds points (or the partner is not winning), feed points to a
    partner who is winning as the last player, else play the weakest legal cards.
    """
    seat = game.to_act
    ctx = game.ctx
    hand = game.hands[seat]
    dealer = game.dealer
    n_seats = game.ruleset.players
    sx = ctx.SUITX
    if not game.current:
        opts = PlayOptions(hand, None, ctx)
        others = [s for s in range(n_seats) if not same_side(s, seat, dealer)]
        best, best_key = None, None
        for unit in opts.units():
            u_sx = sx[unit[0]]
            top = max(ctx.VAL[c] for c in unit)
            safe = True
            for s in others:
                oh = game.hands[s]
                has_suit = any(sx[c] == u_sx for c in oh)
                if has_suit:
                    if len(unit) == 1 and any(sx[c] == u_sx and ctx.VAL[c] > top for c in oh):
                        safe = False
                        break
                    if len(unit) > 1:
                        cnt: dict[int, int] = {}
                        for c in oh:
                            if sx[c] == u_sx and ctx.VAL[c] > top:
                                cnt[c] = cnt.get(c, 0) + 1
                        if any(k >= 2 for k in cnt.values()):
                            safe = False
                            break
                elif u_sx != TRUMP_INDEX and any(sx[c] == TRUMP_INDEX for c in oh):
                    safe = False
                    break
            if not safe:
                continue
            if any(c == RED_FIVE_ID for c in unit) and len(hand) > 3:
                continue
            key = (len(unit), sum(Card(c).points for c in unit), -sum(_value(c, ctx) for c in unit))
            if best_key is None or key > best_key:
                best, best_key = unit, key
        if best is None:
            counts: dict[int, int] = {}
            for c in hand:
                counts[sx[c]] = counts.get(sx[c], 0) + 1
            best = min(((c,) for c in hand), key=lambda p: (
                sx[p[0]] == TRUMP_INDEX, -counts[sx[p[0]]], Card(p[0]).points, _value(p[0], ctx),
                p[0] == RED_FIVE_ID))
        return Play(seat, tuple(best))
    plays = [p for _, p in game.current]
    seats = [s for s, _ in game.current]
    opts = PlayOptions(hand, plays[0], ctx)
    cands = list(itertools.islice(opts, MAX_FOLLOW_CANDIDATES))
    cur = trick_winner(plays, ctx)
    partner_wins = same_side(seats[cur], seat, dealer)
    last = len(plays) == n_seats - 1
    table = sum(Card(c).points for p in plays for c in p)

    def cost(p: Sequence[int]) -> tuple:
        return (sum(Card(c).points for c in p), sum(_value(c, ctx) for c in p))

    if partner_wins:
        if last:
            choice = max(cands, key=lambda p: (sum(Card(c).points for c in p) - sum(
                _value(c, ctx) for c in p) * 0.2, -sum(1 for c in p if c == RED_FIVE_ID)))
        else:
            choice = min(cands, key=cost)
        return Play(seat, tuple(choice))
    winners = [p for p in cands if trick_winner(plays + [p], ctx) == len(plays)]
    if winners and (table > 0 or last or not any(same_side(s, seat, dealer) for s in seats)):
        choice = min(winners, key=lambda p: sum(_value(c, ctx) for c in p))
        return Play(seat, tuple(choice))
    safe = [p for p in cands if RED_FIVE_ID not in p] or cands
    return Play(seat, tuple(min(safe, key=cost)))


def play_out(game: Game, rng: random.Random, max_actions: int = 500) -> None:
    """Finish ``game`` (play phase) with :func:`rollout_action` for every seat."""
    for _ in range(max_actions):
        if game.phase is not Phase.PLAY:
            return
        game.apply(rollout_action(game, rng))
    raise RuntimeError("rollout did not finish")  # pragma: no cover


def play_with(game: Game, ais: Sequence[Any], max_actions: int = 1000) -> Any:
    """Finish ``game`` (play phase) with ``ais[seat].choose_play`` deciding for each seat on its
    own view (no seat sees another's cards); ``ais`` one AI a seat, in seat order. Returns the
    settlement (RULES.md §10). Raises RuntimeError if the hand does not end within
    ``max_actions`` plays. The plain loop that :func:`.expert_bid.basic_play_out` speeds up
    for ``basic``, and the reference it is checked against."""
    for _ in range(max_actions):
        if game.phase is not Phase.PLAY:
            return game.settlement
        s = game.to_act
        v = game.view(s)
        game.apply(Play(s, tuple(ais[s].choose_play(v, v.play_options()))))
    raise RuntimeError("play-out did not finish")  # pragma: no cover


def utility(game: Game, seat: int) -> float:
    """How good a settled ``game`` is for ``seat``: its game points, plus a small share of the
    dealer final (a tenth, signed for its side): the game-point bands alone are too coarse to
    compare plays over a few dozen samples (RULES.md §10)."""
    st = game.settlement
    side = 1 if seat == st.dealer else -1
    return st.game_points[seat] + 0.1 * side * st.dealer_final


def dealer_points(game: Game) -> int:
    """The dealer's card points of a settled game before the bid is taken off (RULES.md §10)."""
    st = game.settlement
    return st.dealer_final + st.bid


def dealer_game_points(ruleset: Any, final: int) -> int:
    """The dealer's game points for a dealer final (red-five transfers aside; RULES.md §10)."""
    return -(ruleset.players - 1) * band_multiplier(ruleset, final) * ruleset.options.base_score


__all__ = ["sample_world", "sample_deal_as_dealer", "game_for_dealer", "rollout_action",
           "play_out", "play_with", "utility", "dealer_points", "dealer_game_points", "ChooseTrump", "Bury"]
