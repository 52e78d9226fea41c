"""The rules screen: a scrollable summary of the rules in the UI language.

The text lives beside the message catalogs, ``game/locale/<lang>/rules.md`` (so it ships
with them), written in our own words from RULES.md and condensed.  Only a little Markdown is
understood: ``#`` title, ``##`` headings, ``-`` bullets (indented ``-`` for a second level),
paragraphs (consecutive lines are joined), ``**bold**`` markers are dropped.

Under the title a short section states the house rules in effect (RULES.md "Options"): those of
the table being played, else those a new game would use (:meth:`RulesScene.house_rules`).

Two tabs choose the game: 红五 (``tab:hongwu``, ``rules.md``) and 找朋友 (``tab:zhaopengyou``,
``rules_zhaopengyou.md``, with the 找朋友 options in effect); the screen opens on the game being
played, else on the one last chosen on the new-game screen.

Scrolling: mouse wheel, ↑ ↓, PgUp PgDn, Home End, Space, dragging with the mouse or a finger,
and the scroll bar.  Buttons: ``back``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game import fonts, house_rules as house_rules_mod
from game.i18n import LOCALE_DIR, _, current_language
from game.scenes.menu import Screen
from game.widgets import ACCENT, TEXT, Button, draw_panel

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

RULES_FILE = "rules.md"
#: the rules file of each game (beside the message catalogs)
RULES_FILES = {"hongwu": RULES_FILE, "zhaopengyou": "rules_zhaopengyou.md"}
RULE_FILE_DEFAULT = RULES_FILE
HEADING = (250, 206, 90)
BAR = (90, 140, 110)
BAR_THUMB = (200, 220, 200)

_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_TOKEN = re.compile(rf"[{_CJK}][，。；：、！？）」』]*|[^\s{_CJK}]+\s*|\s+")


def rules_path(lang: str) -> Path:
    """The rules file for ``lang`` (``game/locale/<lang>/rules.md``)."""
    return LOCALE_DIR / lang / RULES_FILE


def load_rules(lang: str, game: str = "hongwu") -> str:
    """The rules text of ``game`` (``"hongwu"`` or ``"zhaopengyou"``) in ``lang``, falling back
    to English, then to a one-line notice."""
    for code in (lang, "en"):
        try:
            return (LOCALE_DIR / code / RULES_FILES.get(game, RULE_FILE_DEFAULT)).read_text(encoding="utf-8")
        except OSError:
            continue
    return "# " + _("Rules") + "\n\n" + _("The rules text is missing from this installation.")


@dataclass
class Block:
    """One parsed piece of the rules: ``kind`` (``title``, ``heading``, ``bullet``,
    ``bullet2``, ``para``) and its ``text``."""

    kind: str
    text: str


def parse(text: str) -> list[Block]:
    """Split the small Markdown dialect described in the module docstring into blocks."""
    blocks: list[Block] = []
    para: list[str] = []

    def flush() -> None:
        """Close the paragraph being collected."""
        if para:
            joined = "".join(para) if _is_cjk(para[0]) else " ".join(para)
            blocks.append(Block("para", joined))
            para.clear()

    for raw in text.splitlines():
        line = raw.replace("**", "").rstrip()
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        if stripped.startswith("## "):
            flush()
            blocks.append(Block("heading", stripped[3:].strip()))
        elif stripped.startswith("# "):
            flush()
            blocks.append(Block("title", stripped[2:].strip()))
        elif stripped.startswith("- "):
            flush()
            indent = len(line) - len(line.lstrip())
            blocks.append(Block("bullet2" if indent >= 2 else "bullet", stripped[2:].strip()))
        elif blocks and blocks[-1].kind.startswith("bullet") and not para and raw.startswith("  "):
            sep = "" if _is_cjk(stripped) else " "
            blocks[-1].text += sep + stripped  # a bullet continued on the next line
        else:
            para.append(stripped)
    flush()
    return blocks


def _is_cjk(text: str) -> bool:
    return bool(re.search(f"[{_CJK}]", text))


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` px: between words for Latin text,
    between characters for Chinese (keeping closing punctuation with its character)."""
    lines: list[str] = []
    cur = ""
    for tok in _TOKEN.findall(text):
        trial = cur + tok
        if cur and font.size(trial.rstrip())[0] > width:
            lines.append(cur.rstrip())
            cur = tok.lstrip()
        else:
            cur = trial
        while cur and font.size(cur.rstrip())[0] > width and len(cur) > 1:  # one very long word
            k = len(cur) - 1
            while k > 1 and font.size(cur[:k])[0] > width:
                k -= 1
            lines.append(cur[:k])
            cur = cur[k:]
    if cur.strip():
        lines.append(cur.rstrip())
    return lines


class RulesScene(Screen):
    """The rules, scrollable (see the module docstring).

    Public state for tests: ``scroll`` (px from the top), ``max_scroll``, ``lines`` (the laid
    out text lines as ``(kind, text, y)``), ``view_rect`` (the text panel; text is drawn
    only inside :meth:`content_rect`).
    """

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.scroll = 0
        self.max_scroll = 0
        self.lines: list[tuple[str, str, int]] = []
        self.view_rect = pygame.Rect(0, 0, 1, 1)
        self._layout_key: tuple | None = None
        self._drag: tuple[float, int] | None = None  # (start y, scroll at start)
        self._bar_drag = False
        self._fade_key: tuple | None = None
        self._fade_mask: pygame.Surface | None = None
        #: the game whose rules are shown: ``"hongwu"`` or ``"zhaopengyou"``
        self.game = self._start_game()

    def _start_game(self) -> str:
        table = getattr(self.app, "table", None)
        rs = getattr(table, "ruleset", None)
        if rs is not None:
            return "zhaopengyou" if getattr(rs, "is_zhaopengyou", False) else "hongwu"
        game = getattr(getattr(self.app, "settings", None), "game", "hongwu")
        return game if game in RULES_FILES else "hongwu"

    def house_rules(self) -> dict[str, Any]:
        """The house rules to state: the open table's ruleset options when a game is running,
        else :meth:`game.app.App.house_rules` (saved, with ``--rule`` on top)."""
        table = getattr(self.app, "table", None)
        rs = getattr(table, "ruleset", None)
        if rs is None and table is not None:
            try:
                rs = getattr(table.view(), "ruleset", None)
            except Exception:  # a LAN table before its first view
                rs = None
        if rs is not None and not getattr(rs, "is_zhaopengyou", False):
            from engine.ruleset import option_names

            return {name: getattr(rs.options, name) for name in option_names()}
        rules = getattr(self.app, "house_rules", None)
        return dict(rules()) if callable(rules) else {}

    def blocks(self) -> list[Block]:
        """The text to lay out: the rules file of the UI language with the house-rules section
        (a heading and one bullet per option) after its title."""
        blocks = parse(load_rules(current_language(), self.game))
        if self.game == "zhaopengyou":
            from game.scenes.newgame import ZPY_CHOICES, zpy_label

            chosen = dict(getattr(getattr(self.app, "settings", None), "zpy_rules", {}) or {})
            rs = getattr(getattr(self.app, "table", None), "ruleset", None)
            if rs is not None and getattr(rs, "is_zhaopengyou", False):
                chosen = {n: getattr(rs.options, n) for n in ZPY_CHOICES}
            extra = [Block("heading", _("Options in effect"))]
            extra += [Block("bullet", zpy_label(n, chosen.get(n, vals[0]))) for n, vals in ZPY_CHOICES.items()]
            at = 1 if blocks and blocks[0].kind == "title" else 0
            return blocks[:at] + extra + blocks[at:]
        extra = [Block("heading", _("House rules in effect"))]
        extra += [Block("bullet", line) for line in house_rules_mod.describe(self.house_rules())]
        at = 1 if blocks and blocks[0].kind == "title" else 0
        return blocks[:at] + extra + blocks[at:]

    # -- layout -------------------------------------------------------------------------------
    def _fonts(self) -> dict[str, tuple[int, bool]]:
        m = self.metrics
        return {"title": (round(m.title * 0.62), True), "heading": (round(m.font * 1.15), True),
                "bullet": (m.font, False), "bullet2": (m.font, False), "para": (m.font, False)}

    def _layout(self) -> None:
        m = self.metrics
        lang = current_language()
        key = (m.w, m.h, lang, self.game, tuple(sorted(self.house_rules().items())))
        if key == self._layout_key:
            return
        self._layout_key = key
        blocks = self.blocks()
        bh = m.button_h
        self.view_rect = pygame.Rect(m.margin * 3, m.margin * 2, m.w - m.margin * 6, m.h - m.margin * 5 - bh)
        inner_w = self.view_rect.w - m.margin * 6
        sizes = self._fonts()
        y = m.margin
        out: list[tuple[str, str, int]] = []
        for block in blocks:
            size, bold = sizes[block.kind]
            font = fonts.get_font(size, bold)
            lh = round(font.get_linesize() * 1.12)
            indent = {"bullet": round(m.font * 1.4), "bullet2": round(m.font * 2.8)}.get(block.kind, 0)
            if block.kind == "heading":
                y += round(lh * 0.5)
            first = True
            for line in wrap(block.text, font, inner_w - indent):
                kind = block.kind if first else block.kind + "+"
                out.append((kind, line, y))
                y += lh
                first = False
            y += round(lh * (0.5 if block.kind in ("title", "para") else 0.18))
        self.lines = out
        self.max_scroll = max(0, y + m.margin - self.view_rect.h)
        self.scroll = min(self.scroll, self.max_scroll)

    def resize(self, w: int, h: int) -> None:
        """Re-wrap the text for the new size (keeping the relative position)."""
        frac = self.scroll / self.max_scroll if self.max_scroll else 0.0
        super().resize(w, h)
        self._layout_key = None
        self._layout()
        self.scroll = round(frac * self.max_scroll)

    def build(self) -> list[Button]:
        """The Back button under the text."""
        self._layout()
        m = self.metrics
        w = min(m.w - 2 * m.margin, max(200, round(280 * m.unit)))
        r = pygame.Rect(0, self.view_rect.bottom + m.margin, w, m.button_h)
        r.centerx = m.w // 2
        out = [Button("back", r, _("Back"), style="primary")]
        from game.widgets import button_width

        labels = {"hongwu": _("Hong Wu 红五"), "zhaopengyou": _("Finding Friends 找朋友")}
        widths = {g: button_width(t, m.font, pad=24) for g, t in labels.items()}
        left = pygame.Rect(m.margin * 3, r.y, widths["hongwu"], m.button_h)
        right = pygame.Rect(left.right + m.margin, r.y, widths["zhaopengyou"], m.button_h)
        if right.right + m.margin <= r.x:
            out.append(Button("tab:hongwu", left, labels["hongwu"], style="suit", selected=self.game == "hongwu"))
            out.append(Button("tab:zhaopengyou", right, labels["zhaopengyou"], style="suit",
                              selected=self.game == "zhaopengyou"))
        else:  # narrow: one button switching to the other game, beside Back
            other = "zhaopengyou" if self.game == "hongwu" else "hongwu"
            w = widths[other]
            if w + m.margin * 4 > r.x:  # no room left of Back: Back moves right
                r.x = min(m.w - m.margin * 3 - r.w, m.margin * 3 + w + m.margin)
            out.append(Button(f"tab:{other}", pygame.Rect(m.margin * 3, r.y, w, m.button_h), labels[other],
                              style="suit"))
        return out

    def on_button(self, button: Button) -> None:
        """Back closes the rules; a tab shows that game's rules."""
        if button.key == "back":
            self.app.pop_screen(self)
        elif button.key.startswith("tab:") and button.key[4:] in RULES_FILES:
            self.game = button.key[4:]
            self.scroll = 0
            self._layout_key = None
            self.invalidate()

    # -- scrolling ---------------------------------------------------------------------------------
    def scroll_by(self, dy: float) -> None:
        """Scroll ``dy`` px down (negative: up), clamped to the text."""
        self._layout()
        new = int(max(0, min(self.max_scroll, self.scroll + dy)))
        if new != self.scroll:
            self.scroll = new
            self.invalidate()

    def _line_step(self) -> int:
        return round(self.metrics.font * 1.6)

    def _bar_rect(self) -> pygame.Rect:
        v = self.view_rect
        return pygame.Rect(v.right - self.metrics.margin * 2, v.y + self.metrics.margin, max(6, self.metrics.margin),
                           v.h - 2 * self.metrics.margin)

    def _thumb_rect(self) -> pygame.Rect:
        bar = self._bar_rect()
        total = self.max_scroll + self.view_rect.h
        h = max(24, round(bar.h * self.view_rect.h / max(1, total)))
        y = bar.y + round((bar.h - h) * (self.scroll / self.max_scroll if self.max_scroll else 0))
        return pygame.Rect(bar.x, y, bar.w, h)

    def _bar_to_scroll(self, y: int) -> None:
        bar = self._bar_rect()
        thumb = self._thumb_rect()
        k = (y - bar.y - thumb.h / 2) / max(1, bar.h - thumb.h)
        self.scroll_by(round(k * self.max_scroll) - self.scroll)

    def handle_event(self, ev: Any) -> None:
        """Wheel, keys, mouse / finger drags and the scroll bar; buttons as usual."""
        self._layout()
        if ev.type == pygame.MOUSEWHEEL:
            dy = getattr(ev, "precise_y", ev.y) or ev.y
            self.scroll_by(-dy * self._line_step() * 2)
            return
        if ev.type in (pygame.FINGERDOWN, pygame.FINGERMOTION, pygame.FINGERUP):
            y = ev.y * self.metrics.h
            if ev.type == pygame.FINGERDOWN:
                self._drag = (y, self.scroll)
            elif ev.type == pygame.FINGERMOTION and self._drag is not None:
                self.scroll_by(self._drag[1] - (y - self._drag[0]) - self.scroll)
            else:
                self._drag = None
            return
        if getattr(ev, "touch", False) and ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
            if ev.type == pygame.MOUSEBUTTONDOWN:  # touch: buttons still work, drags come as fingers
                super().handle_event(ev)
            return
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if self.max_scroll and self._bar_rect().inflate(16, 0).collidepoint(ev.pos):
                self._bar_drag = True
                self._bar_to_scroll(ev.pos[1])
                return
            if self.view_rect.collidepoint(ev.pos):
                self._drag = (ev.pos[1], self.scroll)
        elif ev.type == pygame.MOUSEMOTION and (self._drag is not None or self._bar_drag):
            if self._bar_drag:
                self._bar_to_scroll(ev.pos[1])
            else:
                self.scroll_by(self._drag[1] - (ev.pos[1] - self._drag[0]) - self.scroll)
            return
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            self._drag = None
            self._bar_drag = False
        elif ev.type == pygame.KEYDOWN:
            page = self.view_rect.h - self._line_step() * 2
            step = {pygame.K_DOWN: self._line_step(), pygame.K_UP: -self._line_step(),
                    pygame.K_PAGEDOWN: page, pygame.K_SPACE: page, pygame.K_PAGEUP: -page,
                    pygame.K_HOME: -10 ** 9, pygame.K_END: 10 ** 9}.get(ev.key)
            if step is not None:
                self.scroll_by(step)
                return
        super().handle_event(ev)

    # -- drawing -------------------------------------------------------------------------------------
    def content_rect(self) -> pygame.Rect:
        """Where text may appear: the panel (``view_rect``) less a margin at the top and the
        bottom, so a line scrolled half out never crosses the panel's border."""
        m = self.metrics
        v = self.view_rect
        return pygame.Rect(v.x + 2, v.y + m.margin, v.w - 4, max(1, v.h - 2 * m.margin))

    def _fade(self, size: tuple[int, int], top: bool, bottom: bool) -> pygame.Surface:
        """A white mask whose alpha fades to nothing over about a line at the top and/or the
        bottom (multiplied into the text layer where more text lies beyond the edge)."""
        key = (size, top, bottom)
        if self._fade_key != key or self._fade_mask is None:
            mask = pygame.Surface(size, pygame.SRCALPHA)
            mask.fill((255, 255, 255, 255))
            fh = min(size[1] // 3, round(self.metrics.font * 1.3))
            for i in range(fh):
                a = round(255 * (i + 1) / (fh + 1))
                if top:
                    mask.fill((255, 255, 255, a), pygame.Rect(0, i, size[0], 1))
                if bottom:
                    mask.fill((255, 255, 255, a), pygame.Rect(0, size[1] - 1 - i, size[0], 1))
            self._fade_key, self._fade_mask = key, mask
        return self._fade_mask

    def draw_content(self, surf: pygame.Surface) -> None:
        """The visible lines in a panel (clipped inside its border, fading out at an edge
        with more text beyond), and the scroll bar."""
        m = self.metrics
        v = self.view_rect
        draw_panel(surf, v, color=(6, 30, 18, 215), radius=14)
        sizes = self._fonts()
        inner = self.content_rect()
        layer = pygame.Surface(inner.size, pygame.SRCALPHA)
        x0 = v.x + m.margin * 3 - inner.x
        for kind, text, y in self.lines:
            sy = v.y + y - self.scroll - inner.y
            base = kind.rstrip("+")
            size, bold = sizes[base]
            if sy > inner.h or sy + size * 2 < 0:
                continue
            color = HEADING if base in ("title", "heading") else TEXT
            indent = {"bullet": round(m.font * 1.4), "bullet2": round(m.font * 2.8)}.get(base, 0)
            if base == "title":
                img = fonts.render(text, size, ACCENT, bold)
                layer.blit(img, img.get_rect(midtop=(v.centerx - inner.x, sy)))
                continue
            if base.startswith("bullet") and not kind.endswith("+"):
                r = max(2, size // 7)
                cy = sy + fonts.get_font(size, bold).get_ascent() * 6 // 10
                pygame.draw.circle(layer, ACCENT if base == "bullet" else TEXT, (x0 + indent - size // 2 - 2, cy), r)
            layer.blit(fonts.render(text, size, color, bold), (x0 + indent, sy))
        top, bottom = self.scroll > 0, self.scroll < self.max_scroll
        if top or bottom:
            layer.blit(self._fade(inner.size, top, bottom), (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        surf.blit(layer, inner)
        if self.max_scroll:
            pygame.draw.rect(surf, BAR, self._bar_rect(), border_radius=4)
            pygame.draw.rect(surf, BAR_THUMB, self._thumb_rect(), border_radius=4)
