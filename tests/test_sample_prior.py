"""The learned sampling prior of the expert (ai_plugins.builtin.inference, option ``infer``).

Real hands are played with ``basic`` on every seat; the signals read from each view are checked
against the tricks, the prior's weights against what the deals really hold, worlds sampled with
it against the counts and voids, and the training script for reproducibility.
"""
from __future__ import annotations

import importlib.util
import json
import math
import random
from pathlib import Path

import pytest

from ai_plugins.base import AISettings
from ai_plugins.builtin import inference
from ai_plugins.builtin.basic import auctioned
from ai_plugins.builtin.expert import ExpertAI
from ai_plugins.builtin.knowledge import Knowledge
from ai_plugins.builtin.simulate import sample_world
from engine.order import TRUMP_INDEX
from engine.ruleset import hongwu
from engine.state import Phase, Play

ROOT = Path(__file__).resolve().parents[1]


def _positions(decks, seed, every=5):
    """``(game, seat, view)`` at every ``every``-th play decision of a basic self-play deal."""
    game, ais = auctioned(hongwu(decks), seed)
    for step in range(1000):
        if game.phase is not Phase.PLAY:
            return
        s = game.to_act
        v = game.view(s)
        if step % every == every - 1:
            yield game, s, v
        game.apply(Play(s, tuple(ais[s].choose_play(v, v.play_options()))))


def test_shipped_weights_fit_the_features_and_say_what_deals_show():
    weights = inference.load_weights()
    names = inference.FEATURE_NAMES
    for decks in ("2", "3"):
        w = dict(zip(names, weights[decks], strict=True))
        assert len(weights[decks]) == len(names)
        assert w["dealer_trump"] > 0.3       # the dealer named its long suit
        assert w["kitty_trump"] < -3.0       # and kept its trumps out of the kitty
        assert w["kitty_point"] < 0.0
        assert w["led_side"] < 0.0           # a suit led is a suit played out
        assert w["bidder_trump"] > 0.0       # a defender that bid holds more trumps


@pytest.mark.parametrize("decks", [2, 3])
def test_signals_agree_with_the_tricks_and_worlds_keep_counts_and_voids(decks):
    ruffs = declines = leads = worlds = 0
    for seed in range(2):
        for game, seat, view in _positions(decks, 40 + seed):
            sx = view.ctx.SUITX
            sig = inference.seat_signals(view)
            assert len(sig) == len(view.hand_sizes)
            for t in view.tricks:
                leader, lead = t.plays[0]
                assert sx[lead[0]] in sig[leader]["led"]
                leads += 1
                lsx = sx[lead[0]]
                for s, cards in t.plays[1:]:
                    if lsx != TRUMP_INDEX and any(sx[c] == TRUMP_INDEX for c in cards):
                        assert sig[s]["ruffed"]
                        ruffs += 1
                    if lsx != TRUMP_INDEX and all(sx[c] not in (lsx, TRUMP_INDEX) for c in cards):
                        assert sig[s]["declined"]
                        declines += 1
            bias = inference.prior_bias(view)
            know = Knowledge.from_view(view)
            world = sample_world(view, random.Random(seat), prior=True, bias=bias)
            worlds += 1
            for s in range(len(view.hand_sizes)):
                assert len(world.hands[s]) == view.hand_sizes[s]
                if s != seat:
                    assert not any(sx[c] in know.voids[s] for c in world.hands[s])
            assert sorted(map(int, world.hands[seat])) == sorted(map(int, view.hand))
            if view.buried is None:
                assert len(world.buried) == view.ruleset.kitty_size
                assert bias(inference.KITTY, int(next(c for c in range(54) if sx[c] == TRUMP_INDEX))) < 0.05
    assert leads > 20 and ruffs > 0 and declines > 0 and worlds > 10


def test_the_prior_moves_trumps_toward_the_dealer_in_a_defenders_worlds():
    """Over many sampled worlds of one defender's view at the first lead, the dealer gets more
    of the hidden trumps than an even deal would give it, and the kitty almost none."""
    game, _ = auctioned(hongwu(2), 5)
    defender = next(s for s in range(4) if s != game.dealer)
    view = game.view(defender)
    sx = view.ctx.SUITX
    bias = inference.prior_bias(view)
    rng = random.Random(1)
    dealer_share, kitty = [], 0
    for _ in range(60):
        w = sample_world(view, rng, bias=bias)
        held = [sum(1 for c in w.hands[s] if sx[c] == TRUMP_INDEX) for s in range(4) if s != defender]
        dealer_share.append(sum(1 for c in w.hands[game.dealer] if sx[c] == TRUMP_INDEX) / max(1, sum(held)))
        kitty += sum(1 for c in w.buried if sx[c] == TRUMP_INDEX)
    assert sum(dealer_share) / len(dealer_share) > 0.4   # an even deal gives it a third
    assert kitty <= 3


def test_expert_with_infer_plays_legal_reproducible_hands():
    game, _ = auctioned(hongwu(2), 9)
    ais = [ExpertAI(AISettings(seat=s, seed=3, options={"infer": 1, "samples": 4})) for s in range(4)]
    plays = []
    for _ in range(12):
        s = game.to_act
        v = game.view(s)
        opts = v.play_options()
        play = tuple(ais[s].choose_play(v, opts))
        again = tuple(ExpertAI(AISettings(seat=s, seed=3, options={"infer": 1, "samples": 4}))
                      .choose_play(v, opts)) if len(plays) < 2 else play
        assert play == again
        plays.append(play)
        game.apply(Play(s, play))
    assert game.phase is Phase.PLAY and len(plays) == 12


def _trainer():
    spec = importlib.util.spec_from_file_location("train_sample_prior", ROOT / "tools" / "train_sample_prior.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_training_script_is_reproducible_and_the_fit_beats_a_uniform_deal(tmp_path, monkeypatch, capsys):
    mod = _trainer()
    out = tmp_path / "prior.json"
    monkeypatch.setattr(mod, "OUT", out)
    assert mod.main(["--deals", "8", "--test", "2", "--decks", "2", "--write"]) == 0
    first = json.loads(out.read_text())
    assert mod.main(["--deals", "8", "--test", "2", "--decks", "2", "--write"]) == 0
    assert json.loads(out.read_text()) == first
    assert first["features"] == list(inference.FEATURE_NAMES)
    rows = []
    for i in range(6):
        rows += mod.deal_rows(hongwu(2), 52000 + 2000 + i, 12, 0.2)
    w = first["weights"]["2"]
    assert mod.loglik(rows, w) > mod.loglik(rows, [0.0] * len(w))
    assert all(math.isfinite(a) for a in w)
    assert "held-out log-likelihood" in capsys.readouterr().out
