"""Seeded hands for the review tests: played by ``basic`` AIs, optionally with one decision
overridden (to construct a clearly bad choice); their records in a real career store, and the
``hongwu review`` command run on them in a real subprocess."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from ai_plugins.base import AISettings
from ai_plugins.builtin.basic import BasicAI, hand_strength
from engine import replay as R
from engine.ruleset import hongwu
from engine.state import Bid, Bury, ChooseTrump, Game, Phase, Play

#: the project's root folder (the working folder of the ``hongwu review`` subprocesses)
ROOT = Path(__file__).resolve().parents[1]
#: the profile the recorded hands belong to (seat 0)
PROFILE = "Ann"


def play_hand(seed: int, decks: int = 2, override: Callable[[Game, Any], Any] | None = None) -> Game:
    """A finished game: every seat ``basic``; ``override(game, view)`` may return an action to
    use instead (None: basic's)."""
    rs = hongwu(decks)
    g = Game.new(rs, seed)
    ais = [BasicAI(AISettings(seat=s, seed=seed + s)) for s in range(rs.players)]
    while g.phase is not Phase.SETTLE:
        s = g.to_act
        v = g.view(s)
        ai = ais[s]
        a = override(g, v) if override else None
        if a is None:
            if g.phase is Phase.BID:
                a = Bid(s, ai.choose_bid(v, v.legal_bids()) or None)
            elif g.phase is Phase.TRUMP:
                a = ChooseTrump(s, ai.choose_trump(v, "SHCD"))
            elif g.phase is Phase.BURY:
                a = Bury(s, tuple(ai.choose_bury(v, v.bury_count)))
            else:
                a = Play(s, tuple(ai.choose_play(v, v.play_options())))
        g.apply(a)
    return g


def worst_trump(g: Game, v: Any) -> Any:
    """Override: the dealer names its weakest suit as trump."""
    if g.phase is Phase.TRUMP:
        return ChooseTrump(g.to_act, min("SHCD", key=lambda s: hand_strength(v.hand, s)))
    return None


def replay_text(g: Game, seat: int) -> str:
    """The replay file text of ``g`` recorded for ``seat``."""
    return R.dumps(g, seat=seat)


def play_zpy_hand(seed: int, dealer_seat: int | None = 0,
                  override: Callable[[Any, Any], Any] | None = None) -> Any:
    """A settled 找朋友 hand (:class:`engine.zhaopengyou.ZpyHand`, dealt from ``seed``) played
    by ``basic`` on every seat; ``override(hand, view)`` may return an action to use instead
    (None: basic's). With ``dealer_seat`` the first seed from ``seed`` on whose hand that seat
    ends up dealer is used (so its bury and friend call are reviewed)."""
    from engine.ruleset import zhaopengyou
    from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase, ZpyHand, legal_friend_calls

    rs = zhaopengyou()
    for s in range(seed, seed + 200):
        h = ZpyHand.new(rs, s)
        ais = [BasicAI(AISettings(seat=k, seed=s + k)) for k in range(rs.players)]
        while not h.is_over:
            k = h.to_act
            v = h.view(k)
            ai = ais[k]
            a = override(h, v) if override else None
            if a is not None:
                pass
            elif h.phase in (ZPhase.DEAL, ZPhase.COUNTER):
                pick = (ai.choose_declaration if h.phase is ZPhase.DEAL else ai.choose_counter)(
                    v, v.legal_declarations)
                a = Declare(k, tuple(pick)) if pick else Pass(k)
            elif h.phase is ZPhase.CALL_FRIEND:
                a = CallFriend(k, *ai.choose_friend(v, legal_friend_calls(v.trump, v.level, rs.options)))
            elif h.phase is ZPhase.BURY:
                a = Bury(k, tuple(ai.choose_bury(v, v.bury_count)))
            else:
                a = Play(k, tuple(ai.choose_play(v, v.play_options())))
            h.apply(a)
        if dealer_seat is None or h.dealer == dealer_seat:
            return h
    raise AssertionError(f"no seed from {seed} makes seat {dealer_seat} the dealer")


def worst_zpy_bury(h: Any, v: Any) -> Any:
    """Override: the burier buries its strongest trumps (jokers and level cards first)."""
    from engine.zhaopengyou import ZPhase

    if h.phase is ZPhase.BURY:
        ctx = v.ctx
        best = sorted(v.hand, key=lambda c: (not ctx.is_trump(c), -ctx.VAL[c]))[: v.bury_count]
        return Bury(h.to_act, tuple(best))
    return None


# --- records in a real career store (game.career; imported here only, so the engine-side
# --- review tests that need no store do not load it) ----------------------------------------
class RecordedTable:
    """What :meth:`game.career.Recorder.hand_finished` reads of a local table: a settled
    ``game`` and the seat names (``human`` at seat 0, ``basic`` elsewhere)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names = ("human",) + ("basic",) * (game.ruleset.players - 1)


def record_hand(path: Path, game: Game) -> int:
    """Record the settled 红五 ``game`` for profile :data:`PROFILE` (created) at seat 0 in the
    store at ``path`` (created if missing); returns the record id (the profile's only record:
    ValueError from the unpacking if it already had one)."""
    from game.career import Recorder, Store

    with Store.open(path) as store:
        store.create_profile(PROFILE)
        Recorder(store, PROFILE).hand_finished(RecordedTable(game))
        (rid,) = store.record_ids(store.profile(PROFILE).id)
    return rid


def record_zpy(path: Path, hand: Any, names: list[str], match_id: str = "m1") -> int:
    """Record the settled 找朋友 ``hand`` (seat names ``names``, match ``match_id``) for profile
    :data:`PROFILE` (created) at seat 0 in the store at ``path``; returns the record id."""
    from game.career import Recorder, Store

    with Store.open(path) as store:
        store.create_profile(PROFILE)
        return Recorder(store, PROFILE).record_zpy_hand(hand, names, match_id).record_id


def review_cli(data_dir: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """``hongwu review *args`` in a real subprocess whose career database lives in ``data_dir``
    (text output captured; TimeoutExpired after ``timeout`` seconds, a bound, not a timing)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), HONGWU_DATA_DIR=str(data_dir))
    return subprocess.run([sys.executable, "-m", "game", "review", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
