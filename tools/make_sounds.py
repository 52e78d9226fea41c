#!/usr/bin/env python3
"""Synthesise the client's sound effects into ``assets/sounds/*.wav`` (no downloads).

Every effect is computed from sine waves and seeded white noise with the standard library
only (``math``, ``random``, ``struct``, ``wave``), then written as 16-bit mono PCM:

========== ==================================================== ========
name       what it sounds like                                  length
========== ==================================================== ========
deal       card flick: bright noise swish sweeping down          0.12 s
play       card laid on felt: soft, muffled pat with a low thud   0.20 s
ruff       trumping in: sharper, louder slap with a crack         0.30 s
trick_won  soft two-note chime (bell-like partials)               0.70 s
red_five   bright rising arpeggio C-E-G-C with a held chord       1.00 s
win        rising five-note jingle ending on a shimmering note    1.20 s
lose       four falling "wah" tones, the last one sagging         1.20 s
click      short UI tick                                          0.05 s
promotion  a title reached: rising fourths into a bright held     1.20 s
           chord with a bell shimmer and a soft cymbal swell
========== ==================================================== ========

Each effect is peak-normalised to its own level below full scale, so nothing clips, and
faded in/out over a couple of milliseconds so playback starts and stops without a pop.
Noise comes from ``random.Random("hongwu-sfx-<name>")``, so the files are the same on
every run (bit-identical on the same platform; another C library's ``sin`` could differ in
the last bit of a rare sample).

The script also writes ``assets/sounds/LICENSE.md``: the sounds are the project's own work,
dedicated to the public domain under CC0 1.0.

Usage::

    python tools/make_sounds.py                  # 22,050 Hz into assets/sounds/
    python tools/make_sounds.py --rate 44100     # CD rate (files twice as large)
    python tools/make_sounds.py --only win lose  # regenerate some effects only
"""
from __future__ import annotations

import argparse
import math
import random
import struct
import sys
import wave
from pathlib import Path
from typing import Callable, Sequence

REPO_ROOT = Path(__file__).resolve().parent.parent
SOUND_DIR = REPO_ROOT / "assets" / "sounds"
DEFAULT_RATE = 22050
SUPPORTED_RATES = (22050, 44100)
SAMPLE_WIDTH = 2  # bytes: 16-bit signed PCM
MAX_SECONDS = 1.2
FULL_SCALE = 32767

TAU = 2.0 * math.pi

Signal = list[float]


# --------------------------------------------------------------------------- building blocks

def silence(seconds: float, rate: int) -> Signal:
    """Return ``seconds`` of zeros at ``rate`` Hz (``round(seconds * rate)`` samples)."""
    return [0.0] * round(seconds * rate)


def mix_into(dest: Signal, src: Signal, start: float, rate: int, gain: float = 1.0) -> None:
    """Add ``src * gain`` into ``dest`` starting at ``start`` seconds, in place.

    Samples that would fall past the end of ``dest`` are dropped.

    Raises:
        ValueError: ``start`` is negative.
    """
    if start < 0:
        raise ValueError("start must be >= 0")
    offset = round(start * rate)
    for i, value in enumerate(src[: max(0, len(dest) - offset)]):
        dest[offset + i] += gain * value


def envelope(n: int, rate: int, attack: float, decay: float, hold: float = 0.0) -> Signal:
    """Return an attack / hold / exponential-decay gain curve of ``n`` samples, peak 1.0.

    Args:
        n: number of samples.
        rate: sample rate in Hz.
        attack: linear rise time in seconds (0 for an instant start).
        decay: exponential time constant in seconds after the hold (gain falls to 1/e).
        hold: seconds held at full gain between attack and decay.
    """
    a = attack * rate
    h = hold * rate
    out = []
    for i in range(n):
        if i < a:
            out.append(i / a)
        elif i < a + h:
            out.append(1.0)
        else:
            out.append(math.exp(-(i - a - h) / (decay * rate)))
    return out


def tone(freq: float, seconds: float, rate: int,
         partials: Sequence[tuple[float, float]] = ((1.0, 1.0),),
         attack: float = 0.005, decay: float = 0.2, hold: float = 0.0,
         vibrato: float = 0.0, vibrato_rate: float = 5.5,
         glide: float = 0.0, partial_decay: float = 0.0, release: float = 0.012) -> Signal:
    """Return an additive-synthesis note.

    Args:
        freq: fundamental in Hz.
        seconds: length.
        rate: sample rate in Hz.
        partials: ``(frequency multiple, amplitude)`` pairs summed together.
        attack, decay, hold: envelope, see :func:`envelope`.
        vibrato: pitch modulation depth as a fraction of ``freq`` (0.01 = 1 %).
        vibrato_rate: vibrato speed in Hz.
        glide: total pitch change over the note as a fraction (-0.05 = sags 5 %).
        partial_decay: extra decay for upper partials, in 1/s per multiple above 1
            (higher partials die sooner, as in a bell or a plucked string).
        release: linear fade over the last ``release`` seconds, so a note cut off
            before it has decayed ends without a click.

    Partials whose frequency would exceed 0.45 * ``rate`` are left out (no aliasing).

    Returns:
        Samples in roughly ``[-sum(amps), sum(amps)]``.
    """
    n = round(seconds * rate)
    env = envelope(n, rate, attack, decay, hold)
    r = min(n, max(1, round(release * rate)))
    for i in range(r):
        env[n - 1 - i] *= i / r
    top = freq * (1.0 + max(glide, 0.0)) * (1.0 + vibrato)
    partials = [(mult, amp) for mult, amp in partials if top * mult < 0.45 * rate]
    phases = [0.0] * len(partials)
    out = []
    for i in range(n):
        t = i / rate
        f = freq * (1.0 + glide * t / seconds) * (1.0 + vibrato * math.sin(TAU * vibrato_rate * t))
        value = 0.0
        for k, (mult, amp) in enumerate(partials):
            phases[k] += TAU * f * mult / rate
            damp = math.exp(-partial_decay * (mult - 1.0) * t) if partial_decay else 1.0
            value += amp * damp * math.sin(phases[k])
        out.append(value * env[i])
    return out


def noise(n: int, rng: random.Random) -> Signal:
    """Return ``n`` samples of uniform white noise in ``[-1, 1)`` drawn from ``rng``."""
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def svf(samples: Signal, rate: int, cutoff: Callable[[float], float] | float,
        q: float = 0.707, mode: str = "low") -> Signal:
    """Filter with a state-variable filter (topology-preserving, stable at any cutoff).

    Args:
        samples: input signal.
        rate: sample rate in Hz.
        cutoff: cutoff/centre frequency in Hz, or a function of time in seconds giving it
            (for sweeps); clamped to ``[20, 0.45 * rate]``.
        q: resonance (0.707 is flat; higher is a narrower band).
        mode: ``"low"``, ``"band"`` or ``"high"`` pass.

    Returns:
        The filtered signal, same length.

    Raises:
        ValueError: unknown ``mode``.
    """
    if mode not in ("low", "band", "high"):
        raise ValueError(f"mode must be low, band or high, not {mode!r}")
    k = 1.0 / q
    ic1 = ic2 = 0.0
    out = []
    fixed = None if callable(cutoff) else cutoff
    for i, v0 in enumerate(samples):
        fc = fixed if fixed is not None else cutoff(i / rate)  # type: ignore[operator]
        fc = min(max(fc, 20.0), 0.45 * rate)
        g = math.tan(math.pi * fc / rate)
        a1 = 1.0 / (1.0 + g * (g + k))
        a2 = g * a1
        a3 = g * a2
        v3 = v0 - ic2
        v1 = a1 * ic1 + a2 * v3
        v2 = ic2 + a2 * ic1 + a3 * v3
        ic1 = 2.0 * v1 - ic1
        ic2 = 2.0 * v2 - ic2
        out.append(v2 if mode == "low" else v1 if mode == "band" else v0 - k * v1 - v2)
    return out


def apply(samples: Signal, gains: Signal) -> Signal:
    """Multiply two signals sample by sample (the result has the shorter length)."""
    return [s * g for s, g in zip(samples, gains)]


def finish(samples: Signal, rate: int, peak: float, fade: float = 0.003) -> Signal:
    """Normalise ``samples`` to ``peak`` (fraction of full scale) and fade both ends.

    Args:
        samples: the raw effect.
        rate: sample rate in Hz.
        peak: target absolute peak in ``(0, 1)``; the result never exceeds it.
        fade: length of the linear fade-in and fade-out in seconds.

    Returns:
        A new list in ``[-peak, peak]``.

    Raises:
        ValueError: ``peak`` outside ``(0, 1)`` or an all-silent input.
    """
    if not 0.0 < peak < 1.0:
        raise ValueError("peak must be in (0, 1)")
    top = max(abs(s) for s in samples)
    if top == 0.0:
        raise ValueError("silent effect")
    scale = peak / top
    out = [s * scale for s in samples]
    m = min(len(out) // 2, max(1, round(fade * rate)))
    for i in range(m):
        g = i / m
        out[i] *= g
        out[-1 - i] *= g
    return out


def midi(note: int) -> float:
    """Return the frequency in Hz of MIDI note number ``note`` (69 = A4 = 440 Hz)."""
    return 440.0 * 2.0 ** ((note - 69) / 12.0)


# ------------------------------------------------------------------------------ the effects

BRASS = ((1, 1.0), (2, 0.55), (3, 0.35), (4, 0.2), (5, 0.12), (6, 0.06))
BELL = ((1, 1.0), (2.0, 0.35), (2.76, 0.25), (5.4, 0.12))
SOFT = ((1, 1.0), (2, 0.25), (3, 0.08))


def sfx_deal(rate: int, rng: random.Random) -> Signal:
    """Card flick: a bright noise swish, band-pass swept from 6 kHz down to 2 kHz."""
    n = round(0.12 * rate)
    swish = svf(noise(n, rng), rate, lambda t: 6000.0 - 33000.0 * t, q=1.2, mode="band")
    snap = svf(noise(n, rng), rate, 3000.0, mode="high")
    out = apply(swish, envelope(n, rate, 0.012, 0.025))
    mix_into(out, apply(snap, envelope(n, rate, 0.0005, 0.004)), 0.0, rate, 0.5)
    return finish(out, rate, 0.6)


def sfx_play(rate: int, rng: random.Random) -> Signal:
    """Card laid on felt: low-passed noise pat (≈1.4 kHz) over a short 140 Hz thud."""
    n = round(0.20 * rate)
    pat = apply(svf(noise(n, rng), rate, 1400.0), envelope(n, rate, 0.002, 0.03))
    thud = tone(140.0, 0.20, rate, SOFT, attack=0.002, decay=0.035, glide=-0.3)
    mix_into(pat, thud, 0.0, rate, 0.5)
    return finish(pat, rate, 0.65)


def sfx_ruff(rate: int, rng: random.Random) -> Signal:
    """Trumping in: a sharp wide-band crack, then a bright slap with some body (≈0.3 s)."""
    n = round(0.30 * rate)
    crack = apply(svf(noise(n, rng), rate, 2500.0, mode="high"), envelope(n, rate, 0.0003, 0.006))
    slap = apply(svf(noise(n, rng), rate, lambda t: 5000.0 - 8000.0 * t, q=0.9, mode="band"),
                 envelope(n, rate, 0.001, 0.045))
    body = tone(190.0, 0.30, rate, SOFT, attack=0.001, decay=0.05, glide=-0.35)
    out = silence(0.30, rate)
    mix_into(out, crack, 0.0, rate, 0.9)
    mix_into(out, slap, 0.002, rate, 1.0)
    mix_into(out, body, 0.0, rate, 0.45)
    return finish(out, rate, 0.85)


def sfx_trick_won(rate: int, rng: random.Random) -> Signal:
    """Soft chime: E6 then B6 with bell partials, ringing out over 0.7 s."""
    out = silence(0.70, rate)
    mix_into(out, tone(midi(88), 0.70, rate, BELL, attack=0.003, decay=0.22, partial_decay=6.0),
             0.0, rate, 1.0)
    mix_into(out, tone(midi(95), 0.60, rate, BELL, attack=0.003, decay=0.2, partial_decay=6.0),
             0.09, rate, 0.8)
    return finish(out, rate, 0.5)


def sfx_red_five(rate: int, rng: random.Random) -> Signal:
    """Bright fanfare: a fast C5-E5-G5 arpeggio into a held C-major chord topped by C6."""
    out = silence(1.00, rate)
    notes = (72, 76, 79)
    for i, note in enumerate(notes):
        start = 0.07 * i
        mix_into(out, tone(midi(note), 1.0 - start, rate, BRASS, attack=0.012, decay=0.3,
                           hold=0.06, partial_decay=2.0), start, rate, 0.7)
    mix_into(out, tone(midi(84), 0.79, rate, BRASS, attack=0.015, decay=0.3, hold=0.22,
                       vibrato=0.006, partial_decay=2.0), 0.21, rate, 1.0)
    sparkle = tone(midi(96), 0.5, rate, BELL, attack=0.002, decay=0.12, partial_decay=8.0)
    mix_into(out, sparkle, 0.21, rate, 0.35)
    return finish(out, rate, 0.8)


def sfx_win(rate: int, rng: random.Random) -> Signal:
    """Rising jingle: G4 C5 E5 G5 then a long C6 with vibrato and a bell shimmer."""
    out = silence(1.20, rate)
    notes = (67, 72, 76, 79)
    step = 0.11
    for i, note in enumerate(notes):
        mix_into(out, tone(midi(note), 0.35, rate, SOFT + ((4, 0.05),), attack=0.006,
                           decay=0.09, hold=0.04), step * i, rate, 0.8)
    last = step * len(notes)
    mix_into(out, tone(midi(84), 1.20 - last, rate, SOFT, attack=0.01, decay=0.3, hold=0.18,
                       vibrato=0.008), last, rate, 1.0)
    mix_into(out, tone(midi(91), 1.20 - last, rate, BELL, attack=0.004, decay=0.18,
                       partial_decay=6.0), last, rate, 0.3)
    return finish(out, rate, 0.65)


def sfx_lose(rate: int, rng: random.Random) -> Signal:
    """Falling tones: G4 F#4 F4, then E4 sagging by a semitone; mellow, muted timbre."""
    out = silence(1.20, rate)
    notes = (67, 66, 65)
    step = 0.22
    timbre = ((1, 1.0), (2, 0.4), (3, 0.25), (5, 0.08))
    for i, note in enumerate(notes):
        mix_into(out, tone(midi(note), 0.26, rate, timbre, attack=0.02, decay=0.1, hold=0.08,
                           glide=-0.015), step * i, rate, 0.8)
    last = step * len(notes)
    mix_into(out, tone(midi(64), 1.20 - last, rate, timbre, attack=0.02, decay=0.22, hold=0.2,
                       vibrato=0.012, vibrato_rate=4.5, glide=-0.06), last, rate, 0.9)
    return finish(svf(out, rate, 2200.0), rate, 0.5)


def sfx_click(rate: int, rng: random.Random) -> Signal:
    """UI click: a 1.8 kHz blip with a tiny high-passed noise tick, 50 ms."""
    n = round(0.05 * rate)
    blip = tone(1800.0, 0.05, rate, ((1, 1.0), (2.3, 0.3)), attack=0.0005, decay=0.008)
    tick = apply(svf(noise(n, rng), rate, 4000.0, mode="high"), envelope(n, rate, 0.0002, 0.002))
    mix_into(blip, tick, 0.0, rate, 0.4)
    return finish(blip, rate, 0.5, fade=0.001)


def sfx_promotion(rate: int, rng: random.Random) -> Signal:
    """A new title 升级: G4 C5 F5 B♭5 rising in fourths, then a held E♭-major chord topped by
    E♭6, a bell shimmer and a band-passed noise swell underneath."""
    out = silence(1.20, rate)
    notes = (67, 72, 77, 82)
    step = 0.09
    for i, note in enumerate(notes):
        mix_into(out, tone(midi(note), 0.4, rate, BRASS, attack=0.008, decay=0.12, hold=0.03,
                           partial_decay=2.5), step * i, rate, 0.65)
    last = step * len(notes)
    for note, gain in ((75, 0.5), (79, 0.45), (82, 0.45), (87, 0.8)):
        mix_into(out, tone(midi(note), 1.20 - last, rate, SOFT, attack=0.02, decay=0.35, hold=0.15,
                           vibrato=0.006), last, rate, gain)
    mix_into(out, tone(midi(99), 0.6, rate, BELL, attack=0.002, decay=0.15, partial_decay=7.0), last, rate, 0.3)
    n = round(0.8 * rate)
    swell = apply(svf(noise(n, rng), rate, 6000.0, mode="high"), envelope(n, rate, 0.25, 0.15))
    mix_into(out, swell, 0.15, rate, 0.08)
    return finish(out, rate, 0.7)


#: Effect name -> synthesiser ``(rate, rng) -> samples in [-1, 1]``.
EFFECTS: dict[str, Callable[[int, random.Random], Signal]] = {
    "deal": sfx_deal,
    "play": sfx_play,
    "ruff": sfx_ruff,
    "trick_won": sfx_trick_won,
    "red_five": sfx_red_five,
    "win": sfx_win,
    "lose": sfx_lose,
    "click": sfx_click,
    "promotion": sfx_promotion,
}


# ---------------------------------------------------------------------------------- output

def render(name: str, rate: int = DEFAULT_RATE) -> Signal:
    """Synthesise effect ``name`` with its own fixed seed.

    Args:
        name: a key of :data:`EFFECTS`.
        rate: sample rate in Hz.

    Returns:
        Samples in ``[-1, 1]``, at most :data:`MAX_SECONDS` long.

    Raises:
        KeyError: unknown effect.
        AssertionError: the synthesiser broke the length or level limits.
    """
    samples = EFFECTS[name](rate, random.Random(f"hongwu-sfx-{name}"))
    assert len(samples) <= MAX_SECONDS * rate, f"{name} is longer than {MAX_SECONDS} s"
    assert max(abs(s) for s in samples) < 1.0, f"{name} would clip"
    return samples


def to_pcm16(samples: Signal) -> bytes:
    """Convert ``[-1, 1]`` floats to little-endian signed 16-bit PCM bytes (2 per sample).

    Values are rounded and clamped to ``[-32767, 32767]``.
    """
    ints = [max(-FULL_SCALE, min(FULL_SCALE, round(s * FULL_SCALE))) for s in samples]
    return struct.pack(f"<{len(ints)}h", *ints)


def write_wav(path: Path, samples: Signal, rate: int) -> None:
    """Write ``samples`` as a 16-bit mono PCM WAV file at ``rate`` Hz (parent dirs created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(SAMPLE_WIDTH)
        w.setframerate(rate)
        w.writeframes(to_pcm16(samples))


LICENSE_TEXT = """\
# Sound effects licence

These sound files were synthesised by the Hong Wu project's own script,
`tools/make_sounds.py`, from sine waves and seeded pseudo-random noise. No recordings,
samples or third-party material were used.

| file | sound |
| --- | --- |
{table}

To the extent possible under law, the Hong Wu contributors have waived all copyright and
related or neighbouring rights to these sound files, dedicating them to the public domain
under the Creative Commons CC0 1.0 Universal Public Domain Dedication
(https://creativecommons.org/publicdomain/zero/1.0/). You may copy, modify and
distribute them, even commercially, without asking permission and without attribution.

Format: 16-bit signed PCM WAV, mono, {rate} Hz. Regenerate with
`python tools/make_sounds.py`, which also writes this file.
"""


def write_license(out_dir: Path, rate: int) -> Path:
    """Write ``LICENSE.md`` (CC0 dedication and a list of the effects) into ``out_dir``.

    Args:
        out_dir: the sounds directory.
        rate: sample rate the files were written at, in Hz.

    Returns:
        The path written.
    """
    path = out_dir / "LICENSE.md"
    rows = []
    for name, func in EFFECTS.items():
        summary = (func.__doc__ or "").strip().splitlines()[0].rstrip(".")
        rows.append(f"| `{name}.wav` | {summary} |")
    out_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(LICENSE_TEXT.format(table="\n".join(rows), rate=rate), encoding="utf-8")
    return path


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser of this script."""
    parser = argparse.ArgumentParser(
        description="Synthesise the Hong Wu sound effects into assets/sounds/ (stdlib only).")
    parser.add_argument("--out-dir", type=Path, default=SOUND_DIR,
                        help="output directory (default: assets/sounds)")
    parser.add_argument("--rate", type=int, choices=SUPPORTED_RATES, default=DEFAULT_RATE,
                        help="sample rate in Hz (default: %(default)s)")
    parser.add_argument("--only", nargs="+", choices=sorted(EFFECTS), metavar="NAME",
                        help=f"effects to write (default: all of {', '.join(EFFECTS)})")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the script; returns the process exit code (0 on success)."""
    args = build_parser().parse_args(argv)
    total = 0
    for name in args.only or EFFECTS:
        samples = render(name, args.rate)
        path = args.out_dir / f"{name}.wav"
        write_wav(path, samples, args.rate)
        size = path.stat().st_size
        total += size
        peak = max(abs(s) for s in samples)
        print(f"{path.name:14s} {len(samples) / args.rate:5.2f} s  "
              f"peak {20 * math.log10(peak):6.1f} dBFS  {size:8,d} bytes")
    print(f"{'total':14s} {total:27,d} bytes")
    print(write_license(args.out_dir, args.rate))
    return 0


if __name__ == "__main__":
    sys.exit(main())
