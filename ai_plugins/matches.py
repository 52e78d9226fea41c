"""Playing whole matches with AI players (any ruleset): the loop that a headless demo, the
arena and tests share. The rules and the match bookkeeping are the engine's
(:mod:`engine.match`); the decisions are the players' (:mod:`ai_plugins.runner`)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from engine.match import MatchOver

from .runner import play_hand


def play_match(match: Any, players: Sequence[Any], *, hands: int | None = None,
               on_hand: Callable[[Any], None] | None = None, max_actions: int = 20_000) -> int:
    """Play ``match`` (an :class:`engine.match.ZpyMatch` or ``HongwuMatch``) with
    ``players[seat].act`` until the game is over, ``hands`` hands are played, or the match's
    own ``max_hands`` limit is reached. ``on_hand(hand)`` is called after each settled hand.
    Returns the number of hands played. Raises RuntimeError if a hand does not end within
    ``max_actions`` actions (an engine bug)."""
    if len(players) != match.ruleset.players:
        raise ValueError(f"{match.ruleset.players} players are needed, {len(players)} given")
    played = 0
    while True:
        play_hand(match.hand, players, max_actions=max_actions)
        played += 1
        match.finish_hand()
        if on_hand is not None:
            on_hand(match.hand)
        if match.game_over or (hands is not None and played >= hands):
            return played
        try:
            match.next_hand()
        except MatchOver:
            return played
