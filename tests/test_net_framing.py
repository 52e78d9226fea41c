"""net.framing: msgpack documents over a byte stream, size limits, garbage."""
from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings, strategies as st

from net import framing

messages = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=20)
    | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=5),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(messages, min_size=1, max_size=6), st.lists(st.integers(1, 50), max_size=20))
def test_any_split_of_the_stream_gives_the_same_documents(docs, cuts):
    data = b"".join(framing.encode(d) for d in docs)
    dec = framing.Decoder()
    out, pos = [], 0
    for cut in cuts:
        out += dec.feed(data[pos:pos + cut])
        pos += cut
    out += dec.feed(data[pos:])
    assert out == docs
    assert dec.pending == 0


def test_frame_over_the_limit_is_refused_even_when_incomplete():
    dec = framing.Decoder(max_frame=1000)
    big = framing.encode(["x" * 5000], max_frame=10_000)
    with pytest.raises(framing.FrameTooLarge):
        dec.feed(big[:1500])  # the document is not complete yet, but already too long
    with pytest.raises(framing.FrameTooLarge):  # stays broken
        dec.feed(b"\x90")


def test_frame_over_the_limit_in_one_chunk():
    dec = framing.Decoder(max_frame=100)
    with pytest.raises(framing.FrameTooLarge):
        dec.feed(msgpack.packb(list(range(200))))


def test_huge_length_header_does_not_allocate():
    dec = framing.Decoder(max_frame=1000)
    # array32 header claiming 4 billion items, then nothing
    with pytest.raises(framing.FrameError):
        dec.feed(b"\xdd\xff\xff\xff\xff" + b"\x00" * 2000)


def test_garbage_bytes_are_corrupt():
    dec = framing.Decoder()
    with pytest.raises(framing.FrameCorrupt):
        dec.feed(b"\xc1\xc1\xc1")  # 0xc1 is never used by msgpack


def test_non_string_map_keys_are_corrupt():
    dec = framing.Decoder()
    with pytest.raises(framing.FrameCorrupt):
        dec.feed(msgpack.packb({1: 2}))


def test_deep_nesting_is_refused():
    dec = framing.Decoder()
    with pytest.raises(framing.FrameError):
        dec.feed(b"\x91" * 5000 + b"\xc0")


def test_encode_refuses_oversized_outgoing():
    with pytest.raises(framing.FrameTooLarge):
        framing.encode("y" * 100, max_frame=50)
