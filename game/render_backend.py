"""Putting frames on the screen: software surfaces with dirty rectangles, or GPU textures.

A scene that knows about layers hands the backend a :class:`Frame`: its *static layer* (a
full-window ``pygame.Surface`` redrawn only where something changed), the regions of it that
changed since the previous frame (``damage``), and the *sprites* moving over it (cards in
flight, call-outs) as ``(image, (x, y), alpha)`` tuples.  Any other scene simply draws on
:attr:`Backend.surface` and returns the rectangles it changed (the classic pygame way).

Two backends:

- :class:`SoftwareBackend` draws into the display surface (``pygame.display.set_mode``).
  Only damaged regions and the rectangles under old and new sprites are copied and passed to
  ``pygame.display.update``; a frame with nothing new does not touch the screen at all.  No
  full-window alpha blending ever happens per frame.
- :class:`TextureBackend` uses ``pygame._sdl2.video`` (``Window``/``Renderer``/``Texture``):
  the static layer lives in one texture (only damaged parts are uploaded), every sprite image
  becomes a cached texture, and the GPU composes them.  This is the fast path on a Raspberry
  Pi, where software alpha blending is slow.  Nothing is presented while nothing changes.

:func:`create_backend` picks one for ``--renderer auto|gpu|software``: ``auto`` tries an
accelerated renderer that is not a CPU rasteriser (:func:`software_gl_renderer`) and passes the
start-up self-test (:meth:`TextureBackend.self_test`), and falls back to software surfaces; ``gpu`` asks for the texture path
and still falls back (with a warning) when no renderer can be created; ``software`` never
touches ``_sdl2``.  No backend raises because a driver is missing.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any, Sequence

import pygame

log = logging.getLogger(__name__)

RENDERERS = ("auto", "gpu", "software")
MIN_SIZE = (800, 480)


@dataclass
class Frame:
    """What a layered scene shows this frame.

    ``background``: the static layer, a ``pygame.Surface`` the size of the window (the scene
    owns it; backends only read it). ``damage``: list of ``pygame.Rect`` of ``background``
    changed since the last frame handed to the same backend, or None for "all of it".
    ``sprites``: ``(image, (x, y), alpha)`` tuples drawn over it in order, ``alpha`` 0..255 or
    None (opaque as the image is); images must not be changed after being handed out.
    ``source``: an identity for the scene (a change of source forces a full redraw).
    """

    background: pygame.Surface
    damage: list[pygame.Rect] | None
    sprites: list[tuple] = field(default_factory=list)
    source: Any = None


def _sprite_key(sprites: Sequence[tuple]) -> list[tuple]:
    return [(id(img), pos[0], pos[1], a) for img, pos, a in sprites]


def _merge(rects: list[pygame.Rect], bounds: pygame.Rect) -> list[pygame.Rect]:
    """Clip ``rects`` to ``bounds`` and merge overlapping ones (fewer, larger updates)."""
    out: list[pygame.Rect] = []
    for r in rects:
        r = pygame.Rect(r).clip(bounds)
        if r.w <= 0 or r.h <= 0:
            continue
        merged = True
        while merged:
            merged = False
            for i, o in enumerate(out):
                if o.colliderect(r):
                    r = r.union(o)
                    out.pop(i)
                    merged = True
                    break
        out.append(r)
    return out


class FadeCache:
    """Faded copies of sprite images, shared by both backends so that they blend alike.

    ``get(img, alpha)`` returns a per-pixel-alpha copy of ``img`` (a ``pygame.Surface``) whose
    alpha channel is multiplied by ``alpha`` (0..255); colour keys become transparent pixels.
    Both backends then draw that copy with plain per-pixel blending (the GPU path as a texture
    at full alpha), so a fading card looks the same on either: SDL's renderer and pygame's blitter
    would otherwise round "image alpha × fade" differently.  The shared image itself is never
    changed.  At most ``limit`` copies are kept (least recently used dropped first).
    """

    def __init__(self, limit: int = 128) -> None:
        self.limit = limit
        self._copies: dict[tuple[int, int], tuple[pygame.Surface, pygame.Surface]] = {}

    def get(self, img: pygame.Surface, alpha: int) -> pygame.Surface:
        """The copy of ``img`` faded to ``alpha`` (cached while ``img`` lives)."""
        key = (id(img), int(alpha))
        entry = self._copies.pop(key, None)
        if entry is None or entry[0] is not img:
            copy = pygame.Surface(img.get_size(), pygame.SRCALPHA)
            copy.blit(img, (0, 0))
            copy.fill((255, 255, 255, int(alpha)), special_flags=pygame.BLEND_RGBA_MULT)
            entry = (img, copy)
            while len(self._copies) >= self.limit:
                self._copies.pop(next(iter(self._copies)))
        self._copies[key] = entry  # most recently used last
        return entry[1]


class Backend:
    """Common interface of the backends (see the module docstring).

    Attributes: ``kind`` (``"software"`` or ``"gpu"``), ``surface`` (a window-sized
    ``pygame.Surface`` plain scenes draw on), ``frames_presented`` (frames that reached the
    screen, for tests and benchmarks).
    """

    kind = "none"

    def __init__(self) -> None:
        self.surface: pygame.Surface
        self.frames_presented = 0
        self._fades = FadeCache()

    def _faded(self, img: pygame.Surface, alpha: int) -> pygame.Surface:
        """``img`` faded to ``alpha`` (see :class:`FadeCache`)."""
        return self._fades.get(img, alpha)

    def size(self) -> tuple[int, int]:
        """The drawing size in pixels ``(w, h)``."""
        return self.surface.get_size()

    def show(self, scene: Any) -> list[pygame.Rect]:
        """Draw ``scene`` and present it: a scene with ``frame()`` (returning a :class:`Frame`)
        goes the layered way, any other is asked to ``draw(self.surface)`` (returning the rects
        it changed).  Returns the rects that reached the screen (empty: nothing presented)."""
        frame_fn = getattr(scene, "frame", None)
        if callable(frame_fn):
            return self.present_frame(frame_fn())
        dirty = scene.draw(self.surface) or []
        return self.present_surface(list(dirty), source=scene)

    def present_frame(self, frame: Frame) -> list[pygame.Rect]:
        """Show a layered frame; returns the rects updated."""
        raise NotImplementedError

    def present_surface(self, dirty: list[pygame.Rect], source: Any = None) -> list[pygame.Rect]:
        """Show :attr:`surface` after a plain scene drew ``dirty`` on it; returns the rects."""
        raise NotImplementedError

    def resized(self) -> tuple[int, int]:
        """Follow a window size change; returns the new size."""
        return self.size()

    def expose(self) -> None:
        """The window must be redrawn in full at the next frame (exposed, restored)."""

    def screenshot(self) -> pygame.Surface:
        """A copy of what is on screen (for tools and tests)."""
        return self.surface.copy()

    def close(self) -> None:
        """Release the window (the display module is left to the caller)."""


class SoftwareBackend(Backend):
    """Dirty-rectangle drawing into ``surface`` (the display surface, or any surface).

    ``update_display``: call ``pygame.display.update`` with the changed rects (False when
    drawing into an off-screen surface, e.g. benchmarks or :meth:`TableScene.draw`).
    """

    kind = "software"

    def __init__(self, surface: pygame.Surface, update_display: bool = True) -> None:
        super().__init__()
        self.surface = surface
        self.update_display = update_display
        self._last_source: Any = None
        self._last_sprites: list[tuple] = []
        self._last_rects: list[pygame.Rect] = []
        self._full = True

    def expose(self) -> None:
        """Redraw everything at the next frame."""
        self._full = True

    def resized(self) -> tuple[int, int]:
        """Pick up the new display surface after a resize."""
        if self.update_display and pygame.display.get_init():
            surf = pygame.display.get_surface()
            if surf is not None:
                self.surface = surf
        self._full = True
        return self.size()

    def present_frame(self, frame: Frame) -> list[pygame.Rect]:
        """Copy damaged background regions and restore/draw sprites; update only those rects."""
        screen = self.surface
        bounds = screen.get_rect()
        bg = frame.background
        sprites = frame.sprites
        key = _sprite_key(sprites)
        full = (self._full or frame.damage is None or frame.source is not self._last_source
                or bg.get_size() != screen.get_size())
        if full:
            screen.blit(bg, (0, 0))
            rects = [bounds]
        else:
            damage = list(frame.damage or [])
            if not damage and key == self._last_sprites:
                return []
            new_rects = [img.get_rect(topleft=pos) for img, pos, _a in sprites]
            rects = _merge(damage + self._last_rects + new_rects, bounds)
            for r in rects:
                screen.blit(bg, r, r)
        self._draw_sprites(screen, sprites)
        self._last_sprites = key
        self._last_rects = [img.get_rect(topleft=pos) for img, pos, _a in sprites]
        self._last_source = frame.source
        self._full = False
        self._flip(rects)
        return rects

    def _draw_sprites(self, screen: pygame.Surface, sprites: Sequence[tuple]) -> None:
        # SDL's own blitter (BLEND_ALPHA_SDL2), the one SDL's renderer uses, so that translucent
        # pixels round exactly as on the GPU path; pygame's default alpha blit rounds differently.
        for img, pos, alpha in sprites:
            if alpha is None:
                screen.blit(img, pos, special_flags=pygame.BLEND_ALPHA_SDL2)
            elif alpha > 0:
                screen.blit(self._faded(img, alpha), pos, special_flags=pygame.BLEND_ALPHA_SDL2)

    def present_surface(self, dirty: list[pygame.Rect], source: Any = None) -> list[pygame.Rect]:
        """The plain scene drew on the display surface itself: just update ``dirty``."""
        self._last_source = source
        self._last_sprites = []
        self._last_rects = []
        rects = _merge(list(dirty), self.surface.get_rect())
        if self._full:
            rects = [self.surface.get_rect()]
            self._full = False
        if rects:
            self._flip(rects)
        return rects

    def _flip(self, rects: list[pygame.Rect]) -> None:
        if not rects:
            return
        self.frames_presented += 1
        if self.update_display and pygame.display.get_init() and pygame.display.get_surface() is not None:
            pygame.display.update(rects)


#: how far a graphics chip's blend of a faded sprite may stray from SDL's, per channel (0..255)
BLEND_TOLERANCE = 4


class TextureBackend(Backend):
    """GPU composition with ``pygame._sdl2.video``: a static-layer texture plus cached sprite
    textures.  ``window`` is a ``pygame.Window``; ``renderer`` a ``Renderer`` on it.

    :attr:`surface` is a software canvas for plain scenes (uploaded where they changed).
    Sprite textures are cached by image identity (up to ``cache_limit``, then dropped).
    """

    kind = "gpu"

    def __init__(self, window: Any, renderer: Any, cache_limit: int = 256) -> None:
        super().__init__()
        from pygame._sdl2.video import Texture

        self._Texture = Texture
        self.window = window
        self.renderer = renderer
        self.cache_limit = cache_limit
        self._textures: dict[int, tuple[pygame.Surface, Any]] = {}
        self._bg_tex: Any = None
        self._bg_size = (0, 0)
        self._last_source: Any = None
        self._last_sprites: list[tuple] = []
        self._full = True
        self.surface = pygame.Surface(tuple(window.size))
        self.driver = getattr(renderer, "_driver_name", "")

    def expose(self) -> None:
        """Redraw everything at the next frame."""
        self._full = True

    def resized(self) -> tuple[int, int]:
        """Recreate the canvas and the static texture for the window's new size."""
        size = tuple(self.window.size)
        if self.surface.get_size() != size:
            self.surface = pygame.Surface(size)
        self._bg_tex = None
        self._full = True
        return size

    def _texture(self, img: pygame.Surface) -> Any:
        entry = self._textures.get(id(img))
        if entry is not None and entry[0] is img:
            return entry[1]
        if len(self._textures) >= self.cache_limit:
            self._textures.clear()
        tex = self._Texture.from_surface(self.renderer, img)
        self._textures[id(img)] = (img, tex)
        return tex

    def _upload(self, bg: pygame.Surface, damage: list[pygame.Rect] | None) -> None:
        """Bring the static-layer texture up to date with ``bg`` (``damage``: the changed
        rects, None for all of it).

        The static layer is a render-target texture; each damaged region is uploaded as its
        own small texture and copied onto it with blending off, so the pixels land exactly
        where they belong.  (``Texture.update(surface, area)`` cannot be used: pygame-ce 2.5
        writes the pixels at the texture's top-left whatever ``area`` says.)
        """
        size = bg.get_size()
        if self._bg_tex is None or self._bg_size != size:
            self._bg_tex = self._Texture(self.renderer, size, target=True)
            self._bg_size = size
            damage = None
        rects = [bg.get_rect()] if damage is None else _merge(list(damage), bg.get_rect())
        if not rects:
            return
        ren = self.renderer
        previous = ren.target
        ren.target = self._bg_tex
        try:
            for r in rects:
                patch = self._Texture.from_surface(ren, bg.subsurface(r))
                patch.blend_mode = 0  # SDL_BLENDMODE_NONE: copy, never blend
                patch.draw(dstrect=r)
        finally:
            ren.target = previous

    def _compose(self, sprites: Sequence[tuple]) -> None:
        r = self.renderer
        r.draw_color = (0, 0, 0, 255)
        r.clear()
        self._bg_tex.draw(dstrect=pygame.Rect((0, 0), self._bg_size))
        for img, pos, alpha in sprites:
            if alpha is not None and alpha <= 0:
                continue
            tex = self._texture(img if alpha is None or alpha >= 255 else self._faded(img, alpha))
            tex.draw(dstrect=pygame.Rect(pos, img.get_size()))
        r.present()
        self.frames_presented += 1

    def present_frame(self, frame: Frame) -> list[pygame.Rect]:
        """Upload damaged regions of the static layer, then compose it with the sprites."""
        bg = frame.background
        key = _sprite_key(frame.sprites)
        full = self._full or frame.damage is None or frame.source is not self._last_source
        if not full and not frame.damage and key == self._last_sprites:
            return []
        self._upload(bg, None if full else frame.damage)
        self._compose(frame.sprites)
        self._last_sprites = key
        self._last_source = frame.source
        self._full = False
        return [bg.get_rect()]

    def present_surface(self, dirty: list[pygame.Rect], source: Any = None) -> list[pygame.Rect]:
        """Upload what a plain scene drew on :attr:`surface` and present it."""
        full = self._full or source is not self._last_source
        if not dirty and not full:
            return []
        self._upload(self.surface, None if full else dirty)
        self._compose(())
        self._last_source = source
        self._last_sprites = []
        self._full = False
        return [self.surface.get_rect()]

    def self_test(self) -> str | None:
        """Check that this renderer shows what the software path would: a full upload, a
        partial one away from the top-left, and a faded sprite, read back and compared.
        Opaque pixels must be identical; under the faded sprite each channel may differ by
        :data:`BLEND_TOLERANCE` (graphics chips round blends their own way; SDL's software
        renderer matches exactly).  Returns None when it draws right, else what went wrong
        (one line).  Leaves the backend ready for a full first frame.  Never raises."""
        try:
            size = (96, 64)
            fade = pygame.Rect(20, 20, 10, 10)
            bg = pygame.Surface(size)
            bg.fill((0, 80, 0))
            sprite = pygame.Surface(fade.size, pygame.SRCALPHA)
            sprite.fill((250, 250, 240, 200))
            self._upload(bg, None)
            bg.fill((200, 30, 30), pygame.Rect(60, 40, 12, 12))
            self._upload(bg, [pygame.Rect(60, 40, 12, 12)])
            self._compose([(sprite, fade.topleft, 128)])
            want = SoftwareBackend(pygame.Surface(size), update_display=False)
            want.present_frame(Frame(bg, None, [(sprite, fade.topleft, 128)], source=self))
            shown = self.renderer.to_surface().subsurface(pygame.Rect((0, 0), size))
            if pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(want.surface, "RGB"):
                return None
            for x in range(size[0]):
                for y in range(size[1]):
                    got, ought = shown.get_at((x, y))[:3], want.surface.get_at((x, y))[:3]
                    slack = BLEND_TOLERANCE if fade.collidepoint(x, y) else 0
                    if any(abs(g - o) > slack for g, o in zip(got, ought)):
                        return f"pixel {(x, y)} is {tuple(got)}, should be {tuple(ought)}"
            return None
        except Exception as exc:  # a driver without read-back or render targets
            return f"{type(exc).__name__}: {exc}"
        finally:
            self._bg_tex = None
            self._textures.clear()
            self._full = True
            self.frames_presented = 0

    def screenshot(self) -> pygame.Surface:
        """What the renderer shows (read back from the GPU)."""
        try:
            return self.renderer.to_surface()
        except Exception:  # pragma: no cover - a driver without read-back
            return self.surface.copy()

    def close(self) -> None:
        """Drop textures and destroy the window."""
        self._textures.clear()
        self._bg_tex = None
        try:
            self.window.destroy()
        except Exception:  # pragma: no cover
            pass


def gpu_available() -> tuple[bool, str]:
    """Whether an accelerated SDL renderer can be created here: ``(ok, reason)``.

    Creates (and destroys) a hidden 64×64 window; never raises.
    """
    try:
        from pygame._sdl2.video import Renderer
    except Exception as exc:  # pragma: no cover - pygame without _sdl2
        return False, f"pygame._sdl2.video unavailable: {exc}"
    if not pygame.display.get_init():
        pygame.display.init()
    try:
        win = pygame.Window("probe", (64, 64), hidden=True)
    except Exception as exc:
        return False, f"no window: {exc}"
    try:
        Renderer(win, accelerated=1)
        return True, "accelerated renderer available"
    except Exception as exc:
        return False, str(exc)
    finally:
        try:
            win.destroy()
        except Exception:  # pragma: no cover
            pass


#: words in an OpenGL renderer string that mean "rasterised by the CPU" (Mesa's llvmpipe,
#: softpipe and swrast; Microsoft's GDI fallback)
SOFTWARE_GL = ("llvmpipe", "softpipe", "swrast", "software rasterizer", "gdi generic")


def software_gl_renderer() -> str | None:
    """The current OpenGL context's renderer string (``GL_RENDERER``) when it names a CPU
    rasteriser such as Mesa's llvmpipe, else None (a real GPU, no OpenGL context, no libGL,
    or any failure).  Call right after creating an SDL renderer: SDL's OpenGL renderer leaves its
    context current.  On such a "GPU" the texture path costs more than software surfaces (it
    composes the whole window every frame and loads the GL libraries), so ``auto`` avoids it."""
    try:
        import ctypes
        import ctypes.util

        name = ctypes.util.find_library("GL") or ctypes.util.find_library("opengl32")
        if not name:
            return None
        gl = ctypes.CDLL(name)
        gl.glGetString.restype = ctypes.c_char_p
        gl.glGetString.argtypes = [ctypes.c_uint]
        raw = gl.glGetString(0x1F01)  # GL_RENDERER
    except Exception:
        return None
    text = raw.decode("utf-8", "replace") if raw else ""
    return text if any(word in text.lower() for word in SOFTWARE_GL) else None


def _open_texture_window(title: str, size: tuple[int, int], fullscreen: bool,
                         accelerated: int) -> TextureBackend:
    from pygame._sdl2.video import Renderer

    if not pygame.display.get_init():
        pygame.display.init()
    kwargs: dict[str, Any] = {"resizable": True}
    if fullscreen:
        # Created at the desktop's size: without a window manager (or before it acts) a window
        # made at ``size`` stays that small while ``Window.size`` already says full screen, and
        # the scene would be laid out for a screen it is not shown on.
        size = desktop_size() or size
        kwargs = {"fullscreen_desktop": True}
    else:
        size = windowed_size(size)  # as the software window (:func:`_open_display`)
    win = pygame.Window(title, size, **kwargs)
    try:
        ren = Renderer(win, accelerated=accelerated)
    except Exception:
        win.destroy()
        raise
    try:
        win.minimum_size = MIN_SIZE
    except Exception:  # pragma: no cover
        pass
    backend = TextureBackend(win, ren)
    backend.driver = "accelerated" if accelerated == 1 else "software renderer"
    return backend


def desktop_size() -> tuple[int, int] | None:
    """The size of the first display in pixels, or None when it is unknown (no display, or a
    zero size)."""
    try:
        w, h = pygame.display.get_desktop_sizes()[0]
    except Exception:
        return None
    return (int(w), int(h)) if w > 0 and h > 0 else None


WINDOW_SHARE = (0.95, 0.9)
"""A window (not full screen) is at most this share of the desktop's width and height: asked
for the desktop's own size (1920×1080 on a 1920×1080 screen), it still shows its title bar and
edges and leaves a panel or taskbar its room."""


def windowed_size(size: tuple[int, int]) -> tuple[int, int]:
    """The size (px) a window asked for at ``size`` opens at, for either renderer: clamped to
    :data:`WINDOW_SHARE` of the desktop (:func:`desktop_size`) and never below ``MIN_SIZE``;
    ``size`` unchanged under SDL's dummy or offscreen driver (a fake desktop) or when the
    desktop's size is unknown."""
    desk = desktop_size()  # None, never a zero size, when unknown
    if desk is None or os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
        return size
    return (max(MIN_SIZE[0], min(size[0], int(desk[0] * WINDOW_SHARE[0]))),
            max(MIN_SIZE[1], min(size[1], int(desk[1] * WINDOW_SHARE[1]))))


def _open_display(size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
    # Dirty rectangles want SDL's native window framebuffer: by default SDL may emulate it with a
    # renderer texture (on X11 with Mesa that is llvmpipe OpenGL), which uploads and presents the
    # whole window on every update and loads ~100 MB of GL libraries.  A user's setting wins.
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
    flags = pygame.RESIZABLE
    if fullscreen:
        flags = pygame.FULLSCREEN
        size = (0, 0)
    else:
        size = windowed_size(size)
    win = pygame.display.set_mode(size, flags)
    _set_display_window(minimum_size=MIN_SIZE)
    return win


def _set_display_window(**attributes: Any) -> None:
    """Set attributes (``minimum_size``, ``position``) of the display module's window;
    nothing when the driver or an older pygame-ce cannot."""
    try:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            win = pygame.Window.from_display_module()
            for name, value in attributes.items():
                setattr(win, name, value)
    except Exception:  # older pygame-ce or a driver without windows
        pass


def _move_display_window(pos: tuple[int, int]) -> None:
    """Move the display module's window to ``pos`` (nothing when the driver cannot)."""
    _set_display_window(position=pos)


def set_fullscreen(backend: Backend, on: bool, size: tuple[int, int]) -> pygame.Surface:
    """Switch the window of ``backend`` (opened by :func:`create_backend`) to full screen at
    the display's native size (``on``), or back to a resizable window of ``size`` (clamped to
    the desktop as at start); returns the new drawing surface (``backend.surface``, already
    the window's real size).  Raises ``pygame.error`` when the driver refuses."""
    desk = desktop_size()
    if isinstance(backend, TextureBackend):
        win = backend.window
        if on:
            if desk:
                win.position = (0, 0)
                win.size = desk  # the real window must match what Window.size will say
            win.set_fullscreen(True)
        else:
            win.set_windowed()
            win.size = windowed_size(size)
            try:
                win.position = pygame.WINDOWPOS_CENTERED
            except Exception:  # pragma: no cover - a driver without positions
                pass
        backend.resized()
        return backend.surface
    if on:
        _move_display_window((0, 0))  # without a window manager it keeps its windowed place
        pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        _move_display_window((0, 0))
    else:
        _open_display(size, False)
    backend.resized()
    return backend.surface


def create_backend(renderer: str = "auto", size: tuple[int, int] = (1280, 720), *,
                   fullscreen: bool = False, title: str = "Hong Wu",
                   screen: pygame.Surface | None = None) -> Backend:
    """Open the window for ``renderer`` (``auto``/``gpu``/``software``) and return its backend.

    ``screen``: draw into this surface instead of opening a window (software, no display
    updates; benchmarks and tools).  ``gpu`` may also be given as ``gpu-soft`` to use the
    texture path on SDL's software renderer (tests: it runs under the dummy video driver).
    Raises ValueError for an unknown ``renderer``; never for a missing GPU (falls back).
    """
    if renderer not in RENDERERS + ("gpu-soft",):
        raise ValueError(f"renderer must be one of {', '.join(RENDERERS)}, not {renderer!r}")
    if screen is not None:
        return SoftwareBackend(screen, update_display=False)
    if renderer in ("auto", "gpu", "gpu-soft"):
        accelerated = 0 if renderer == "gpu-soft" else 1
        try:
            backend = _open_texture_window(title, size, fullscreen, accelerated)
            cpu_gl = software_gl_renderer() if renderer == "auto" else None
            if cpu_gl is not None:
                backend.close()
                raise RuntimeError(f"the accelerated renderer is a CPU rasteriser ({cpu_gl})")
            problem = backend.self_test()
            if problem is None:
                log.info("renderer: GPU textures (%s)", backend.driver)
                return backend
            backend.close()
            log.warning("GPU renderer draws wrong (%s); using software surfaces", problem)
        except Exception as exc:
            level = logging.WARNING if renderer == "gpu" else logging.INFO
            log.log(level, "GPU renderer unavailable (%s); using software surfaces", exc)
    surf = _open_display(size, fullscreen)
    pygame.display.set_caption(title)
    return SoftwareBackend(surf, update_display=True)
