"""Table model: what the table shows, derived from the view and the event queue.

The hand as arranged, the trick lying on the table and who is winning it, the message line
(prompt, refusals, countdown), the notice texts, the cards shown per seat while dealing.
Also the scene's shared constants (colours, animation speeds).  Mixed into
:class:`game.scenes.table_scene.TableScene`.
"""
from __future__ import annotations

import logging
import math
from typing import Any, Sequence


from game.i18n import _
from game.scenes import table_extras as extras
from game.widgets import TEXT

log = logging.getLogger(__name__)


GOOD = (150, 230, 160)
INFO = (230, 230, 210)
RUFF_RED = (255, 96, 80)

#: seconds a failed throw stays announced (attempted and forced cards)
THROW_NOTICE_S = 6.0

#: animation speeds the player can choose (``off`` = no movement; ``instant`` pace implies it)
ANIMATIONS = ("off", "normal", "fast")
_FACTOR = {"off": 0.0, "normal": 1.0, "fast": 0.5}


def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


N_("off"), N_("normal"), N_("fast")


class TableModel:
    """View-derived state of the table scene (see the module docstring)."""

    def _refresh(self) -> None:
        self.view = self.table.view()
        self._sync_hand()
        v = self.view
        win = None
        if v.current_trick and v.ctx is not None:
            try:
                from engine.tricks import trick_winner

                win = v.current_trick[trick_winner([c for _s, c in v.current_trick], v.ctx)][0]
            except Exception:  # pragma: no cover - a partial trick the engine cannot judge
                win = None
        self.winning_seat = win

    def _sync_hand(self) -> None:
        v = self.view
        marked = v.kitty if (v.kitty and v.phase.value == "bury") else ()
        self.hand.trump_ctx = v.ctx
        self.hand.set_cards(extras.arrange(v.hand, v.ctx, self.prefs), marked)
        self.show_buried = self.show_buried and extras.can_show_buried(v)

    def _trick_on_table(self) -> tuple[Sequence, int | None, bool, Any]:
        """What lies on the table at rest: ``(plays, winner, finished, trick)``."""
        v = self.view
        if v.current_trick:
            return v.current_trick, self.winning_seat, False, None
        last = v.last_trick
        if last is not None and last.trick_no > self._swept and v.phase.value in ("play", "settle"):
            return last.plays, last.winner, True, last
        return (), None, False, None

    def _deal_count(self, seat: int) -> int | None:
        """Cards shown for ``seat`` while dealing (None when not dealing)."""
        if not self._dealing:
            return None
        n = self.view.hand_sizes[seat]
        return min(n, round(n * self._deal_landed[seat] / max(1, self._deal_rounds)))

    def _update_messages(self, now: float) -> None:
        """Work out the message line and the notice banner; damage what changed."""
        prompt = ""
        if not self.show_settlement:
            if self.auto and self.view.seat is not None and self.view.phase.value != "settle":
                prompt = _("Auto-play is on (press A or the Auto button to take over)")
            else:
                prompt = self.panel.prompt(self.view, now)
                cd = self.countdown
                if prompt and cd is not None and cd[0] == self.view.seat and self.view.phase.value != "trump":
                    prompt = _("{prompt} ({s} s left)").format(prompt=prompt, s=cd[1])
        self._last_prompt = prompt
        toast = next((t for t in reversed(self.toasts) if t.until > now and not t.notice), None)
        if toast is not None:
            msg = (toast.text, toast.color, toast.cards)
        else:
            msg = (prompt, TEXT, ())
        if msg != (self.message, self.message_color, self.message_cards):
            self.message, self.message_color, self.message_cards = msg
            self.invalidate(self.layout.message_rect)
        notes = [t.text for t in self.toasts if t.notice and t.until > now][-2:]
        if notes != self.notices:
            self.notices = notes
            self.invalidate(self.trick_region())

    def _update_countdown(self) -> None:
        """Follow the host's turn timer (whole seconds, for the seat to act in our view);
        redraw the plates it is shown on when it changes."""
        cd = None
        if self.remote_timers and not self.show_settlement:
            try:
                got = self.table.countdown()
            except Exception:  # a display aid: never let it stop the game
                log.exception("turn countdown unavailable")
                got = None
            if got is not None and got[0] == self.view.to_act:
                cd = (got[0], max(0, math.ceil(got[1])))
        if cd != self.countdown:
            for c in (self.countdown, cd):
                if c is not None:
                    self.invalidate(self.layout.plates[self.pos_of(c[0])])
            self.countdown = cd


def _indices(hand: Sequence[Any], cards: Sequence[Any]) -> set[int]:
    from game.helpers import indices_of

    return indices_of(hand, cards)
