"""Moving pictures on the table: flights of cards, call-outs, flourishes, counting numbers.

Everything here is an :class:`Anim` living on a :class:`Timeline` between ``t0`` and
``t0 + duration`` (seconds on the scene clock).  An animation never draws by itself: it hands
out *sprites* — ``(image, (x, y), alpha)`` tuples, ``alpha`` 0..255 or None for opaque — that
the render backend (:mod:`game.render_backend`) puts over the static layer.  Sprite images
are never modified after they are handed out (backends may cache them as GPU textures).

Animations are pure functions of time, so frames are reproducible with a fake clock, and
:meth:`Timeline.skip` can finish them all at once (the skip key).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import pygame

Sprite = tuple  # (pygame.Surface, (x, y), alpha: int | None)


def ease_out(t: float) -> float:
    """Cubic ease-out of ``t`` (clamped to 0..1): fast start, soft landing."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def ease_in(t: float) -> float:
    """Quadratic ease-in of ``t`` (clamped to 0..1): slow start, fast end."""
    t = min(1.0, max(0.0, t))
    return t * t


def ease_out_back(t: float) -> float:
    """Ease-out with a small overshoot (pop-in), ``t`` clamped to 0..1; returns ~0..1.1."""
    t = min(1.0, max(0.0, t))
    c1 = 1.70158
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


class Anim:
    """Base class: something that moves between ``t0`` and ``t0 + duration`` (seconds).

    ``key`` names what it stands for (e.g. ``("play", seat, trick_no)``); ``on_done`` (a
    callable without arguments, or None) runs once when the animation ends or is skipped.
    """

    # every subclass is a dataclass providing: key, t0, duration, on_done

    #: drawing layer: higher layers are drawn over lower ones (flights 0, call-outs 1,
    #: flourishes 2); within a layer, in start order
    layer = 0

    def end_time(self) -> float:
        """Clock time at which the animation is over."""
        return self.t0 + self.duration

    def done(self, now: float) -> bool:
        """True once the animation is over at ``now``."""
        return now >= self.t0 + self.duration

    def started(self, now: float) -> bool:
        """True once ``now`` reached ``t0``."""
        return now >= self.t0

    def progress(self, now: float) -> float:
        """Fraction 0..1 of the animation elapsed at ``now``."""
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (now - self.t0) / self.duration))

    def sprites(self, now: float) -> list[Sprite]:
        """Sprites to draw at ``now`` (default none)."""
        return []


@dataclass
class Flight(Anim):
    """Card images moving from ``start`` rects to ``end`` rects between ``t0`` and
    ``t0 + duration``.

    ``images``: one surface per card (drawn at its own size; never scaled); ``start``/``end``:
    one ``pygame.Rect`` per card (only positions are used); ``key``: what the flight stands
    for, e.g. ``("play", seat, trick_no)``; ``ease``: easing function; ``fade``: fraction of
    the duration at the end during which the cards fade out (0 = none).
    """

    key: Any
    images: list[pygame.Surface]
    start: list[pygame.Rect]
    end: list[pygame.Rect]
    t0: float
    duration: float
    ease: Callable[[float], float] = ease_out
    fade: float = 0.0
    on_done: Callable[[], None] | None = None
    tag: dict = field(default_factory=dict)

    def rects(self, now: float) -> list[pygame.Rect]:
        """Where each card is at ``now`` (``pygame.Rect`` per card, sized like its end rect)."""
        if self.duration <= 0:
            return [pygame.Rect(b) for b in self.end]
        k = self.ease((now - self.t0) / self.duration)
        out = []
        for a, b in zip(self.start, self.end):
            out.append(pygame.Rect(round(a.x + (b.x - a.x) * k), round(a.y + (b.y - a.y) * k), b.w, b.h))
        return out

    def sprites(self, now: float) -> list[Sprite]:
        """The cards at ``now`` (nothing before ``t0``)."""
        if now < self.t0:
            return []
        alpha = None
        if self.fade > 0 and self.duration > 0:
            p = (now - self.t0) / self.duration
            if p > 1 - self.fade:
                alpha = max(0, min(255, round(255 * (1 - p) / self.fade)))
        return [(img, r.topleft, alpha) for img, r in zip(self.images, self.rects(now))]

    def draw(self, surf: pygame.Surface, now: float) -> list[pygame.Rect]:
        """Draw on ``surf`` at ``now`` (not before ``t0``); returns the rects drawn."""
        out = []
        for img, pos, _a in self.sprites(now):
            out.append(surf.blit(img, pos))
        return out


@dataclass
class Callout(Anim):
    """A speech bubble (``image``) that pops up at ``center``, rises by ``rise`` px and fades.

    ``key`` e.g. ``("bid", seat)``; pops in during the first 15% and fades out in the last 25%
    of ``duration``.
    """

    layer = 1
    key: Any
    image: pygame.Surface
    center: tuple[int, int]
    t0: float
    duration: float
    rise: int = 0
    on_done: Callable[[], None] | None = None
    #: the window rect the bubble is kept inside (never clipped by its edge); None: unbounded
    bounds: pygame.Rect | None = None

    def sprites(self, now: float) -> list[Sprite]:
        """The bubble at ``now`` (inside ``bounds``)."""
        if now < self.t0 or self.done(now):
            return []
        p = self.progress(now)
        alpha = None
        if p < 0.15:
            alpha = round(255 * p / 0.15)
        elif p > 0.75:
            alpha = round(255 * (1 - p) / 0.25)
        dy = round(self.rise * ease_out(p))
        r = self.image.get_rect(center=(self.center[0], self.center[1] - dy))
        if self.bounds is not None:
            r = r.clamp(self.bounds)
        return [(self.image, r.topleft, None if alpha is None or alpha >= 255 else max(0, alpha))]


@dataclass
class Burst(Anim):
    """A flourish: a ``centerpiece`` image (e.g. the captured ♥5) and a ``label`` image at
    ``center``, with ``particles`` small images flying outward and fading.

    ``seed`` makes the particle directions reproducible.  ``radius`` is how far (px) the
    particles travel.  ``key`` e.g. ``("red_five", trick_no)``.
    """

    layer = 2
    key: Any
    center: tuple[int, int]
    t0: float
    duration: float
    centerpiece: pygame.Surface | None = None
    label: pygame.Surface | None = None
    particles: Sequence[pygame.Surface] = ()
    radius: int = 100
    seed: int = 0
    on_done: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        rng = random.Random(self.seed)
        n = len(self.particles)
        self._dirs = [(2 * math.pi * i / max(1, n) + rng.uniform(-0.25, 0.25), rng.uniform(0.6, 1.0))
                      for i in range(n)]

    def sprites(self, now: float) -> list[Sprite]:
        """Particles, the centrepiece and the label at ``now``."""
        if now < self.t0 or self.done(now):
            return []
        p = self.progress(now)
        out: list[Sprite] = []
        cx, cy = self.center
        fade = None if p < 0.7 else max(0, round(255 * (1 - p) / 0.3))
        for img, (ang, speed) in zip(self.particles, self._dirs):
            d = self.radius * speed * ease_out(p)
            r = img.get_rect(center=(round(cx + d * math.cos(ang)), round(cy + d * math.sin(ang))))
            out.append((img, r.topleft, None if p < 0.5 else max(0, round(255 * (1 - p) / 0.5))))
        if self.centerpiece is not None:
            r = self.centerpiece.get_rect(center=(cx, cy))
            out.append((self.centerpiece, r.topleft, fade))
        if self.label is not None:
            lift = round(self.radius * 0.15 * ease_out(min(1.0, p * 3)))
            below = (self.centerpiece.get_height() // 2) if self.centerpiece is not None else 0
            r = self.label.get_rect(midtop=(cx, cy + below - lift + 4))
            pop = min(255, round(255 * p / 0.1)) if p < 0.1 else fade
            out.append((self.label, r.topleft, pop))
        return out


@dataclass
class Tween(Anim):
    """A number going from ``start`` to ``stop`` (ease-out); ``on_value(int)`` is called each
    time the rounded value changes (and with ``stop`` at the end).  Draws nothing itself."""

    key: Any
    start: float
    stop: float
    t0: float
    duration: float
    on_value: Callable[[int], None] | None = None
    on_done: Callable[[], None] | None = None
    _last: int | None = None

    def value(self, now: float) -> int:
        """The rounded value at ``now``."""
        if now < self.t0:
            return round(self.start)
        return round(self.start + (self.stop - self.start) * ease_out(self.progress(now)))

    def tick(self, now: float) -> None:
        """Report the value at ``now`` if it changed."""
        if now < self.t0:
            return
        v = self.value(now)
        if v != self._last:
            self._last = v
            if self.on_value is not None:
                self.on_value(v)


@dataclass
class Delay(Anim):
    """Nothing to see: runs ``on_done`` at ``t0 + duration`` (scheduling, e.g. a trick sweep)."""

    key: Any
    t0: float
    duration: float
    on_done: Callable[[], None] | None = None


class Timeline:
    """The running animations, in drawing order (later on top).

    :meth:`update` retires finished animations (running their ``on_done``), :meth:`sprites`
    lists what to draw, :meth:`skip` finishes everything now (callbacks run in start order;
    a callback may add new animations, which are finished too).
    """

    def __init__(self) -> None:
        self.anims: list[Anim] = []

    def __len__(self) -> int:
        return len(self.anims)

    def __iter__(self):
        return iter(list(self.anims))

    def add(self, anim: Anim) -> Anim:
        """Start ``anim`` (returns it)."""
        self.anims.append(anim)
        return anim

    def clear(self) -> None:
        """Drop every animation without running callbacks (a new hand, a resize)."""
        self.anims.clear()

    def busy(self, now: float | None = None) -> bool:
        """True while any animation is still to finish."""
        return bool(self.anims)

    def moving(self, now: float) -> bool:
        """True when something visible changes at ``now`` (a started, unfinished animation
        that is not a pure :class:`Delay`)."""
        return any(a.started(now) and not isinstance(a, Delay) for a in self.anims)

    def next_change(self, now: float) -> float | None:
        """Seconds until the next animation starts or ends (None when there is none)."""
        times = [a.t0 - now for a in self.anims if a.t0 > now] + [a.end_time() - now for a in self.anims]
        return max(0.0, min(times)) if times else None

    def find(self, kind: str) -> list[Anim]:
        """Animations whose key starts with ``kind``."""
        return [a for a in self.anims if isinstance(a.key, tuple) and a.key and a.key[0] == kind]

    def update(self, now: float) -> list[Anim]:
        """Advance to ``now``: tick tweens, retire finished animations (running ``on_done``);
        returns the retired ones."""
        for a in self.anims:
            if isinstance(a, Tween):
                a.tick(now)
        finished = [a for a in self.anims if self._is_done(a, now)]
        if not finished:
            return []
        self.anims = [a for a in self.anims if a not in finished]
        for a in finished:
            if a.on_done is not None:
                a.on_done()
        return finished

    @staticmethod
    def _is_done(a: Anim, now: float) -> bool:
        return a.done(now)

    def skip(self, now: float) -> int:
        """Finish every animation at once; returns how many were finished."""
        n = 0
        for _round in range(20):  # callbacks may schedule follow-ups (sweep -> count-up)
            if not self.anims:
                break
            todo, self.anims = self.anims, []
            for a in todo:
                if isinstance(a, Tween) and a.on_value is not None:
                    a.on_value(round(a.stop))
                if a.on_done is not None:
                    a.on_done()
                n += 1
        self.anims.clear()
        return n

    def sprites(self, now: float) -> list[Sprite]:
        """Every sprite to draw at ``now``, bottom first."""
        out: list[Sprite] = []
        for a in sorted(self.anims, key=lambda a: a.layer):
            out.extend(a.sprites(now))
        return out
