"""The review 复盘 screen: the expert's view of the player's decisions in one recorded hand.

Opened by the settlement's Review button (:class:`game.scenes.settle.SettlePanel`) and the
replay viewer's (:class:`game.scenes.replay_view.ReplayScreen`). A cached
review (the career store's ``reviews`` table, :mod:`game.career.reviews`) is shown at once;
otherwise the review runs in a background process (``multiprocessing``, spawn start: the
window stays responsive) that reports after each decision — a progress bar — and sends the
result back; this screen caches it with the record. Then: a strip of the tricks (in rows when
they do not fit one) with a mark on each one where points were lost (red: costly, the review's
:attr:`ai_plugins.review.Review.costly_at`), and the decisions ranked by loss, each with the
cards chosen and the better play drawn (a friend call as its text). 红五 and 找朋友 hands alike:
losses in game points or in levels (:func:`ai_plugins.review.rules_for`).
Keys: ``back`` (Esc too); closing stops a review still running.
"""
from __future__ import annotations

import multiprocessing
import queue as queue_mod
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.i18n import _
from game.scenes.menu import Screen, draw_form_panel
from game.scenes.replay_marks import KIND_LABELS
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, button_width, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

GOOD = (140, 230, 150)


def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


#: the summary line by the review's unit (ai_plugins.review.Review.unit)
SUMMARIES = {"game points": N_("Total loss {loss:.2f} game points · {n} costly · {samples} samples a decision"),
             "levels": N_("Total loss {loss:.2f} levels · {n} costly · {samples} samples a decision")}


def replay_text(replay: Any) -> str:
    """The replay file text of a parsed 红五 or 找朋友 ``replay`` (header and action lines)."""
    import json

    from engine import replay as R
    from engine import replay_zpy

    dump = replay_zpy.action_dict if replay.header.get("ruleset") == replay_zpy.RULESET else R.action_dict
    return "\n".join([json.dumps(replay.header, ensure_ascii=False)]
                     + [json.dumps(dump(a), ensure_ascii=False) for a in replay.actions]) + "\n"


def _worker(replay_text: str, seat: int, samples: int, out: Any) -> None:
    """Background process: review the hand, reporting ``("progress", done, total)`` after each
    decision, then ``("done", review dict)`` or ``("error", message)``."""
    try:
        from ai_plugins.review import review
        from engine import replay as R

        rv = review(R.parse(replay_text), seat, samples, 0, lambda d, t: out.put(("progress", d, t)))
        out.put(("done", rv.as_dict()))
    except Exception as exc:  # noqa: BLE001 - reported on the screen
        out.put(("error", f"{type(exc).__name__}: {exc}"))


class ReviewScreen(Screen):
    """See the module docstring. ``db_path``: the career database; ``record_id``: the hand
    (reviewed for its recorded seat and cached); or ``replay`` (an
    :class:`engine.replay.Replay`, e.g. the replay viewer's) reviewed for ``seat`` (default its
    header's) without caching. ValueError when given neither. ``on_done``: called with the
    :class:`ai_plugins.review.Review` once there is one (cached or computed).

    Public state for tests: ``state`` (``"running"``, ``"done"`` or ``"error"``), ``progress``
    ``(done, total)``, ``review`` (an :class:`ai_plugins.review.Review` once done), ``cached``
    (it came from the store), ``message`` (the error), ``marks`` (``{trick: costly}``).
    The replay may be a 红五 or a 找朋友 hand (:class:`engine.replay_zpy.ZpyReplay`)."""

    def __init__(self, app: "App", db_path: Path | str | None = None, record_id: int | None = None,
                 samples: int | None = None, *, replay: Any = None, seat: int | None = None,
                 on_done: Any = None) -> None:
        super().__init__(app)
        self.on_done = on_done
        import json

        from ai_plugins.review import DEFAULT_SAMPLES, Review, decision_points, settings_key
        from engine import replay as R
        from game.career import Store

        self.db_path = Path(db_path) if db_path is not None else None
        self.record_id = record_id
        self.samples = samples or DEFAULT_SAMPLES
        self.state, self.message, self.review, self.cached = "running", "", None, False
        self.progress = (0, 0)
        self.marks: dict[int, bool] = {}
        self._proc: Any = None
        self._queue: Any = None
        self._key = None
        if replay is not None:  # a replay without a record (the replay viewer): not cached
            text = replay_text(replay)
            self.seat = int(replay.header.get("seat") or 0) if seat is None else seat
            self.db_path = None
        else:
            if self.db_path is None or record_id is None:
                raise ValueError("ReviewScreen needs a record (db_path and record_id) or a replay")
            with Store.open(self.db_path) as store:
                rec = store.record(record_id)
                self.seat = rec.seat if seat is None else seat
                self._key = settings_key(self.seat, self.samples, 0)
                hit = store.cached_review(record_id, self._key)
                text = store.replay_text(record_id)
            if hit is not None:
                self._finish(Review.from_dict(json.loads(hit)), cached=True)
                return
        self.progress = (0, decision_points(R.parse(text), self.seat))
        ctx = multiprocessing.get_context("spawn")
        self._queue = ctx.Queue()
        self._proc = ctx.Process(target=_worker, args=(text, self.seat, self.samples, self._queue), daemon=True)
        self._proc.start()

    # -- background work ------------------------------------------------------------------------
    def _finish(self, rv: Any, cached: bool) -> None:
        self.review, self.cached, self.state = rv, cached, "done"
        for d in rv.decisions:
            if d.trick and d.loss > 0:
                self.marks[d.trick] = self.marks.get(d.trick, False) or d.costly
        if self.on_done is not None:  # e.g. the replay viewer marks its steps
            self.on_done(rv)
        self.invalidate()

    def update(self) -> None:
        """Take the background process's reports (never blocks)."""
        if self._queue is None or self.state != "running":
            return
        from ai_plugins.review import Review

        while True:
            try:
                msg = self._queue.get_nowait()
            except queue_mod.Empty:
                break
            if msg[0] == "progress":
                self.progress = (msg[1], msg[2])
                self.invalidate()
            elif msg[0] == "done":
                rv = Review.from_dict(msg[1])
                self._save(rv)
                self._finish(rv, cached=False)
                self._stop()
                return
            else:
                self.state, self.message = "error", msg[1]
                self._stop()
                self.invalidate()
                return
        if self._proc is not None and not self._proc.is_alive() and self._queue.empty():
            self.state, self.message = "error", _("The review stopped unexpectedly.")
            self._stop()
            self.invalidate()

    def _save(self, rv: Any) -> None:
        from game.career import CareerError, Store

        if self.db_path is None or self._key is None:
            return
        try:
            with Store.open(self.db_path) as store:
                store.save_review(self.record_id, self._key, rv.dumps())
        except (CareerError, OSError) as exc:  # the review is shown anyway
            self.message = str(exc)

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.is_alive():
                proc.terminate()
            proc.join(2.0)

    def close(self) -> None:
        """Stop a review still running (the screen is going away)."""
        self._stop()

    def on_back(self) -> None:
        """Esc / Back: stop the work, close the screen."""
        self._stop()
        self.app.pop_screen(self)

    def on_button(self, button: Button) -> None:
        """Back closes the screen."""
        if button.key == "back":
            self.on_back()

    # -- layout ---------------------------------------------------------------------------------
    def build(self) -> list[Button]:
        """The Back button, bottom centre."""
        m = self.metrics
        label = _("Back")
        r = pygame.Rect(0, 0, button_width(label, m.font, round(m.button_h * 3)), m.button_h)
        r.midbottom = (m.w // 2, m.h - m.margin)
        return [Button("back", r, label, style="primary")]

    def progress_rect(self) -> pygame.Rect:
        """The progress bar (while running)."""
        m = self.metrics
        r = pygame.Rect(0, 0, min(m.w - 4 * m.margin, round(600 * max(m.unit, 0.6))), max(24, m.button_h // 2))
        r.center = (m.w // 2, m.h // 2)
        return r

    def strip_rects(self) -> dict[int, pygame.Rect]:
        """``{trick: rect}`` of the trick strip (once done): one row of squares (28 to 44 px),
        in as many centred rows as it takes to stay inside the window (a 找朋友 hand has up
        to 31 tricks)."""
        m = self.metrics
        tricks = sorted({d.trick for d in self.review.decisions if d.trick}) if self.review else []
        if not tricks:
            return {}
        top = m.margin * 2 + round(m.title * 0.6) + m.gap
        room = m.w - 4 * m.margin
        size = max(28, min(44, room // max(1, len(tricks)) - 4))
        per_row = max(1, room // (size + 4))
        rows = -(-len(tricks) // per_row)
        per_row = -(-len(tricks) // rows)  # rows of even length
        out = {}
        for i, t in enumerate(tricks):
            row, col = divmod(i, per_row)
            n = min(per_row, len(tricks) - row * per_row)
            x0 = (m.w - n * (size + 4)) // 2
            out[t] = pygame.Rect(x0 + col * (size + 4), top + m.font + m.gap + row * (size + 4), size, size)
        return out

    # -- drawing --------------------------------------------------------------------------------
    def draw_content(self, surf: pygame.Surface) -> None:
        """Title, then the progress bar, the error, or the marks and the ranked decisions."""
        m = self.metrics
        box = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin - m.button_h - m.gap)
        draw_form_panel(surf, box)
        draw_text(surf, _("Review"), round(m.title * 0.6), ACCENT, (m.w // 2, m.margin * 2), anchor="midtop",
                  bold=True, max_width=box.w - 2 * m.margin)
        if self.state == "running":
            done, total = self.progress
            r = self.progress_rect()
            pygame.draw.rect(surf, (30, 50, 40), r, border_radius=6)
            if total:
                fill = r.copy()
                fill.w = round(r.w * done / total)
                pygame.draw.rect(surf, ACCENT, fill, border_radius=6)
            pygame.draw.rect(surf, MUTED, r, 2, border_radius=6)
            draw_text(surf, _("Thinking about decision {done} of {total}…").format(done=done, total=total), m.font,
                      TEXT, (m.w // 2, r.bottom + m.gap), anchor="midtop", max_width=box.w - 2 * m.margin)
            return
        if self.state == "error":
            draw_text(surf, _("The review failed: {why}").format(why=self.message), m.font, ERROR,
                      (m.w // 2, m.h // 2), anchor="center", max_width=box.w - 2 * m.margin)
            return
        self._draw_result(surf, box)

    def _draw_result(self, surf: pygame.Surface, box: pygame.Rect) -> None:
        m = self.metrics
        rv = self.review
        strip = self.strip_rects()
        y = m.margin * 2 + round(m.title * 0.6) + m.gap
        draw_text(surf, _("Tricks where points were lost (red: costly)"), m.small, MUTED, (m.w // 2, y),
                  anchor="midtop", max_width=box.w - 2 * m.margin)
        for t, r in strip.items():
            col = ERROR if self.marks.get(t) else ACCENT if t in self.marks else (40, 70, 55)
            pygame.draw.rect(surf, col, r, border_radius=5)
            draw_text(surf, str(t), max(14, r.h // 2), (10, 20, 15) if t in self.marks else TEXT, r.center,
                      anchor="center")
        y = (max(r.bottom for r in strip.values()) if strip else y + m.font) + m.gap
        summary = _(SUMMARIES.get(rv.unit, SUMMARIES["game points"])).format(
            loss=rv.total_loss, n=len(rv.costly()), samples=rv.samples)
        draw_text(surf, summary, m.small, TEXT, (m.w // 2, y), anchor="midtop", max_width=box.w - 2 * m.margin)
        y += round(m.small * 1.6)
        worst = [d for d in rv.ranked() if d.loss > 0]
        if not worst:
            draw_text(surf, _("No decision lost points by the expert's estimate."), m.font, GOOD,
                      (m.w // 2, y + m.gap), anchor="midtop", max_width=box.w - 2 * m.margin)
            return
        renderer = getattr(getattr(self.app, "scene", None), "renderer", None)
        if renderer is None:  # no table open (the replay viewer from the menu): our own
            if getattr(self, "_renderer", None) is None:
                from game.cards_render import CardRenderer

                self._renderer = CardRenderer()
            renderer = self._renderer
        row_h = max(44, round(m.button_h * 1.2))
        x0, x1 = box.x + m.margin, box.right - m.margin
        for d in worst:
            if y + row_h > box.bottom - m.margin:
                break
            where = _("Trick {n}").format(n=d.trick) if d.trick else _(KIND_LABELS.get(d.kind, d.kind))
            col = ERROR if d.costly else ACCENT
            lab = draw_text(surf, where, m.small, col, (x0, y + row_h // 2), anchor="midleft", bold=True,
                            max_width=round(m.small * 6))
            loss = draw_text(surf, f"−{d.loss:.2f}", m.small, col, (x1, y + row_h // 2), anchor="midright", bold=True)
            mid = (lab.right + loss.x) // 2
            self._draw_action(surf, renderer, d.chosen_cards, d.chosen, pygame.Rect(lab.right + m.gap, y, mid - lab.right - 2 * m.gap, row_h), MUTED, d)
            draw_text(surf, "→", m.font, GOOD, (mid, y + row_h // 2), anchor="center")
            self._draw_action(surf, renderer, d.best_cards, d.best, pygame.Rect(mid + m.gap, y, loss.x - mid - 2 * m.gap, row_h), GOOD, d)
            y += row_h + m.gap // 2

    def _draw_action(self, surf: pygame.Surface, renderer: Any, cards: tuple, text: str, area: pygame.Rect, col,
                     decision: Any = None) -> None:
        """Cards drawn small (overlapping to fit ``area``), or the action as text (a suit, a
        bid, ``decision``'s friend call: :func:`game.scenes.replay_marks.action_text`)."""
        if not cards or renderer is None:
            from game.scenes.replay_marks import action_text

            label = action_text(decision, (), text)
            draw_text(surf, label, self.metrics.small, col, (area.x, area.centery), anchor="midleft", max_width=area.w)
            return
        from engine.cards import Card

        ch = area.h - 4
        cw = round(ch * 0.7)
        step = min(cw + 2, (area.w - cw) // max(1, len(cards) - 1)) if len(cards) > 1 else 0
        for i, c in enumerate(cards):
            surf.blit(renderer.face(Card.parse(c), cw, ch), (area.x + i * max(step, 6), area.y + 2))
