"""The built-in AIs: complete legal hands, determinism, and the basic AI's sense of play."""
from __future__ import annotations

from collections import Counter

import pytest

from ai_helpers import manager_for, play_one
from ai_plugins.arena import ArenaConfig, run_arena
from ai_plugins.base import PASS, AISettings
from ai_plugins.builtin.basic import BasicAI, best_trump, hand_strength
from ai_plugins.builtin.random_ai import RandomAI
from engine.cards import Card, format_cards, make_deck, parse_cards
from engine.ruleset import hongwu
from engine.state import Bid, Bury, ChooseTrump, Game, Phase, Play


@pytest.fixture(scope="module")
def manager():
    return manager_for()


@pytest.mark.parametrize("decks", [2, 3])
@pytest.mark.parametrize("names", [["basic"] * 4, ["random"] * 4, ["basic", "random"] * 2])
def test_builtins_play_whole_hands_without_faults(manager, decks, names):
    for seed in range(3):
        game, players = play_one(manager, names, seed=seed, decks=decks, budget_s=2.0)
        assert not any(p.faults for p in players)
        assert all(p.fallbacks == 0 for p in players)  # every answer was legal


def _events(manager, names, seed):
    game, _ = play_one(manager, names, seed=seed, budget_s=2.0, options={"samples": 2})
    return [e.as_dict() for e in game.events]


def test_builtins_are_deterministic(manager):
    for names in (["random"] * 4, ["basic"] * 4):
        assert _events(manager, names, 7) == _events(manager, names, 7)
    assert _events(manager, ["random"] * 4, 7) != _events(manager, ["random"] * 4, 8)


@pytest.mark.parametrize("decks", [2, 3])
def test_expert_plays_whole_hands_without_faults(manager, decks):
    # a fixed number of samples keeps the test fast and deterministic
    game, players = play_one(manager, ["expert", "basic", "expert", "random"], seed=decks,
                             decks=decks, budget_s=5.0, options={"samples": 2})
    assert not any(p.faults for p in players) and players[0].fallbacks == 0


def test_expert_is_deterministic_with_fixed_samples(manager):
    names = ["expert", "basic", "basic", "expert"]
    assert _events(manager, names, 3) == _events(manager, names, 3)


def test_expert_respects_its_thinking_time():
    import time

    from ai_plugins.builtin.expert import ExpertAI

    game = _to_play(_deal({0: "QS", 1: "10S", 2: "5S", 3: "AS 6S"}))
    view = game.view(0)
    ai = ExpertAI(AISettings(seat=0, seed=1, budget_s=2.0, options={"think_ms": 60}))
    started = time.perf_counter()
    play = ai.choose_play(view, view.play_options())
    assert time.perf_counter() - started < 1.0
    assert view.play_options().is_legal(play)


def test_basic_beats_random_in_a_small_duplicate_arena():
    config = ArenaConfig(ais=("basic", "random"), deals=4, seed=1, user_dir=False,
                         entry_points=False)
    summary = run_arena(config, jobs=1)
    assert summary["ais"]["basic"]["mean_game_points"] > 1.0


def test_random_ai_choices_are_legal():
    game = Game.new(hongwu(), seed=3)
    ai = RandomAI(AISettings(seed=1))
    view = game.view(game.to_act)
    for _ in range(20):
        assert ai.choose_bid(view, view.legal_bids()) in (PASS, *view.legal_bids())


# --------------------------------------------------------------------------- positions
def _deal(fixed: dict[int, str], kitty: str = "", extra_to: int = 0, decks: int = 2):
    """A full deal: ``fixed`` cards per seat; every other side ♠ (trump will be ♦) goes to seat
    ``extra_to``, so the others hold exactly the spades given; the remaining cards fill the
    hands in seat order, then the kitty."""
    rs = hongwu(decks)
    pack = Counter(make_deck(decks))
    hands = {s: list(parse_cards(c)) for s, c in fixed.items()}
    kit = list(parse_cards(kitty))
    for cards in list(hands.values()) + [kit]:
        pack.subtract(Counter(cards))
    assert not -pack
    rest = sorted(pack.elements())
    first = [c for c in rest if c.suit == "S" and c.rank != 2]  # side spades when trump is ♦
    later = [c for c in rest if c not in first]
    out = [hands.get(s, []) for s in range(4)]
    for c in first:
        out[extra_to].append(c)
    for c in later:
        for s in range(4):
            if len(out[s]) < rs.hand_size:
                out[s].append(c)
                break
        else:
            kit.append(c)
    assert all(len(h) == rs.hand_size for h in out), [len(h) for h in out]
    return Game.from_deal(out, kit, rs, first_bidder=0)


def _to_play(game: Game, trump: str = "D") -> Game:
    """Seat 0 bids the minimum, the others pass; trump ``trump``; seat 0 buries the kitty."""
    game.apply(Bid(0, game.ruleset.bid_min))
    for s in (1, 2, 3):
        game.apply(Bid(s, None))
    game.apply(ChooseTrump(0, trump))
    game.apply(Bury(0, game.kitty))
    assert game.phase is Phase.PLAY
    return game


def _basic_play(game: Game) -> list[str]:
    seat = game.to_act
    view = game.view(seat)
    play = BasicAI(AISettings(seat=seat)).choose_play(view, view.play_options())
    assert view.play_options().is_legal(play)
    return sorted(format_cards(play))


def test_wins_points_cheaply_as_last_player():
    # dealer 0 leads ♠Q, defender 1 ♠10, defender 2 ♠5: the dealer holds 15 points;
    # defender 3 plays last with ♠A ♠6 and takes them with the ace
    game = _to_play(_deal({0: "QS", 1: "10S", 2: "5S", 3: "AS 6S"}))
    for seat, card in ((0, "QS"), (1, "10S"), (2, "5S")):
        game.apply(Play(seat, parse_cards(card)))
    assert _basic_play(game) == ["AS"]
    from ai_plugins.builtin.expert import ExpertAI

    view = game.view(3)
    expert = ExpertAI(AISettings(seat=3, seed=1, options={"samples": 3}))
    assert format_cards(expert.choose_play(view, view.play_options())) == ["AS"]


def test_does_not_waste_a_high_card_on_an_empty_lost_trick():
    game = _to_play(_deal({0: "AS", 1: "4S", 2: "6S", 3: "KS 7S"}))
    for seat, card in ((0, "AS"), (1, "4S"), (2, "6S")):
        game.apply(Play(seat, parse_cards(card)))
    assert _basic_play(game) == ["7S"]  # the king would only give 10 points away


def test_feeds_points_to_a_winning_partner():
    # defender 1 wins with the last ♠A; defender 2 follows and defender 3 is still to come
    game = _to_play(_deal({0: "4S", 1: "AS", 2: "KS 7S", 3: "6S"}, extra_to=0))
    for seat, card in ((0, "4S"), (1, "AS")):
        game.apply(Play(seat, parse_cards(card)))
    assert _basic_play(game) == ["KS"]


def test_does_not_ruff_a_partner_who_wins():
    # defender 2 is void in ♠ and holds trumps; partner 1 wins with the ace: discard a point card
    game = _to_play(_deal({0: "4S", 1: "AS", 2: "KC 4C 6C 7D 8D", 3: "6S"}, extra_to=0))
    for seat, card in ((0, "4S"), (1, "AS")):
        game.apply(Play(seat, parse_cards(card)))
    view = game.view(2)
    assert not any(c.suit == "S" and not view.ctx.is_trump(c) for c in view.hand)
    play = _basic_play(game)
    assert not view.ctx.is_trump(Card.parse(play[0])), play
    assert Card.parse(play[0]).points == 10, play  # a 10 or a king for the partner


def test_never_throws_a_red_five_away():
    # the dealer leads a pair of aces; defender 1 has no ♠ and must discard two cards
    # (the other red five is the dealer's, so defender 1 cannot ruff with a pair of them)
    game = _to_play(_deal({0: "AS AS 5H", 1: "5H 4C 6C"}, extra_to=0))
    game.apply(Play(0, parse_cards("AS AS")))
    view = game.view(1)
    assert not [c for c in view.hand if c.suit == "S" and not view.ctx.is_trump(c)]
    play = _basic_play(game)
    assert "5H" not in play


def test_bury_keeps_trumps_and_red_fives_and_makes_voids():
    for seed in range(8):
        game = Game.new(hongwu(), seed=seed)
        game.apply(Bid(game.to_act, 60))
        while game.phase is Phase.BID:
            game.apply(Bid(game.to_act, None))
        dealer = game.dealer
        trump = best_trump(game.hand_of(dealer))[0]
        game.apply(ChooseTrump(dealer, trump))
        view = game.view(dealer)
        ai = BasicAI(AISettings(seat=dealer))
        bury = ai.choose_bury(view, view.bury_count)
        assert len(bury) == 8 and not Counter(bury) - Counter(view.hand)
        ctx = view.ctx
        assert not any(ctx.is_trump(c) for c in bury), (seed, format_cards(bury))
        assert Card.parse("5H") not in bury
        before = {ctx.SUITX[c] for c in view.hand}
        after = {ctx.SUITX[c] for c in (Counter(view.hand) - Counter(bury)).elements()}
        assert len(after) < len(before) or sum(c.points for c in bury) <= 10, seed
        game.apply(Bury(dealer, tuple(bury)))


def test_bids_follow_hand_strength():
    strong = "5H 5H BJ BJ SJ SJ 3S 3S 3C 3C 2S 2S 2H 2D 2C AS AS KS KS QS QS JS 10S 9S 8S"
    weak = "4H 6H 7H 9H 4D 6D 7D 8D 9D JD 4C 6C 7C 8C 9C JC QC 4S 6S 7S 8S 9S JS 10D QH"
    game = _deal({0: strong, 1: weak}, extra_to=2)
    ai = BasicAI(AISettings(seed=0))
    assert best_trump(parse_cards(strong))[0] == "S"
    assert hand_strength(parse_cards(strong), "S") > hand_strength(parse_cards(weak), "S")
    view0 = game.view(0)
    assert ai.choose_bid(view0, view0.legal_bids()) in view0.legal_bids()
    game.apply(Bid(0, 60))
    view1 = game.view(1)
    assert ai.choose_bid(view1, view1.legal_bids()) == PASS


def test_blunder_option_weakens_basic_but_stays_legal():
    """The easy preset's ``blunder`` option: sometimes a worse candidate, always legal."""
    import random as _random

    from ai_plugins.base import AISettings
    from ai_plugins.builtin.basic import BasicAI
    from engine.ruleset import hongwu as _hongwu
    from engine.state import Bid as _Bid, Bury as _Bury, ChooseTrump as _Trump, Game as _Game, Phase as _Phase, Play as _Play

    sharp, sloppy = BasicAI(AISettings(seed=1)), BasicAI(AISettings(seed=1, options={"blunder": 1.0}))
    differ = 0
    rng = _random.Random(3)
    for seed in range(3):
        g = _Game.new(_hongwu(2), seed=seed)
        while g.phase is _Phase.BID:
            g.apply(_Bid(g.to_act, None))
        g.apply(_Trump(g.dealer, "S"))
        g.apply(_Bury(g.dealer, g.view(g.dealer).hand[:8]))
        while g.phase is _Phase.PLAY:
            v = g.view(g.to_act)
            opts = v.play_options()
            a, b = sharp.choose_play(v, opts), sloppy.choose_play(v, opts)
            assert opts.is_legal(a) and opts.is_legal(b)
            differ += tuple(sorted(a)) != tuple(sorted(b))
            g.apply(_Play(g.to_act, opts.sample(rng)))
    assert differ > 10
