"""Table buttons: the toolbar, the helper buttons and the current panel's buttons, fitted to
their rows (labels never below ``layout.min_font`` px).  Mixed into
:class:`game.scenes.table_scene.TableScene`.
"""
from __future__ import annotations


import pygame

from game.i18n import _
from game.scenes import table_extras as extras
from game.widgets import Button, RowItem, button_width, fit_row, icon, label_color


class TableButtons:
    """Button building of the table scene (see the module docstring)."""

    def _build_buttons(self) -> list[Button]:
        v = self.view
        out = self._toolbar_buttons() + self._tool_buttons()
        if not self.show_settlement and not self._dealing:
            panel_buttons = self.panel.buttons(v)
            for b in panel_buttons:
                if b.key == self._hint_key:
                    b.selected = True
            out += panel_buttons
        if self.show_settlement:
            out += self.panels["settle"].buttons(v)
        old = {b.key: b.hover for b in self.buttons}
        for b in out:
            b.hover = old.get(b.key, False)
        return out

    def _toolbar_buttons(self) -> list[Button]:
        """The toolbar (top right): ``toolbar_items()`` as a row of buttons whose labels keep
        at least ``layout.min_font`` px (shorter labels or icons alone when room is short).

        An item is ``(key, label)`` or ``(key, label, icon, short[, enabled])``: ``icon`` a
        :data:`game.widgets.ICONS` name drawn left of the label, ``short`` the label used when
        the row is short of room (``""``: the icon alone)."""
        items = [RowItem(*it) for it in self.toolbar_items()]
        return self._fit_buttons(items, self.layout.toolbar, "tool:", [it.enabled for it in items],
                                 [False] * len(items))

    def _tool_buttons(self) -> list[Button]:
        """Last trick / Hint / Auto-play under the left-hand seat (on two rows when one is short of room)."""
        v = self.view
        items = [("help:last", _("Last trick"), v.last_trick is not None, self.show_last)]
        if extras.can_show_buried(v):
            items.append(("help:buried", _("Kitty"), True, self.show_buried))
        if v.seat is not None:
            items.append(("help:hint", _("Hint"), v.my_turn and not self._dealing and not self.show_settlement, False))
            items.append(("help:auto", _("Auto"), True, self.auto))
        lay = self.layout
        rows, area = [items], lay.tools_rect
        gap = max(3, lay.margin // 2)
        if area.h >= 2 * lay.button_h and len(items) > 1:
            one_row = sum(button_width(label, lay.min_font, pad=12) for _k, label, _e, _s in items)
            rows = [items] if one_row + gap * (len(items) - 1) <= area.w else [items[:1], items[1:]]
        row_h = min(lay.toolbar.h, (area.h - gap * (len(rows) - 1)) // len(rows))
        top = area.centery - (row_h * len(rows) + gap * (len(rows) - 1)) // 2
        out = []
        for i, row in enumerate(rows):
            out += self._fit_buttons([RowItem(k, label) for k, label, _e, _s in row],
                                     pygame.Rect(area.x, top + i * (row_h + gap), area.w, row_h), "",
                                     [e for _k, _l, e, _s in row], [sel for _k, _l, _e, sel in row])
        return out

    def _fit_buttons(self, items: list[RowItem], area: pygame.Rect, prefix: str, enabled: list[bool],
                     selected: list[bool]) -> list[Button]:
        """``items`` as flat buttons filling ``area`` (see :func:`game.widgets.fit_row`)."""
        lay = self.layout
        gap = max(3, lay.margin // 2)
        size, placed = fit_row(items, area, lay.font_size, lay.min_font, gap)
        out = []
        for it, (rect, label, isz), en, sel in zip(items, placed, enabled, selected):
            ic = icon(it.icon, isz, label_color("flat", en)) if it.icon and isz else None
            out.append(Button(prefix + it.key, rect, label, enabled=en, style="flat", selected=sel, icon=ic,
                              font_size=size))
        return out
