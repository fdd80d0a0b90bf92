"""The shared link framing and messages: round trips, resync, and no false frames."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.inputs.portable import framing, messages


def test_crc16_matches_the_ccitt_check_value():
    # CRC-16/MCRF4XX (reflected CCITT, init 0xFFFF, no final xor) of "123456789".
    assert framing.crc16(b"123456789") == 0x6F91


def test_frame_layout_is_len_seq_payload_crc_sync():
    frame = framing.Encoder().frame(b"\x03abc")
    assert frame[0] == len(frame) == 9
    assert frame[1] == 0 and frame[2:6] == b"\x03abc" and frame[-1] == framing.SYNC


def test_round_trip_and_sequence_numbers():
    enc, dec = framing.Encoder(), framing.Decoder()
    data = b"".join(enc.frame(bytes([i & 0xFF]) * (i % 20 + 1)) for i in range(300))
    got = dec.feed(data)
    assert [seq for seq, _ in got] == [i & 0xFF for i in range(300)]
    assert [p for _, p in got] == [bytes([i & 0xFF]) * (i % 20 + 1) for i in range(300)]
    assert dec.errors == 0 and dec.missed == 0


def test_payload_too_big_is_refused():
    with pytest.raises(framing.FrameError):
        framing.Encoder().frame(bytes(framing.MAX_PAYLOAD + 1))


def test_garbage_before_a_frame_costs_at_most_that_frame_and_resyncs():
    enc, dec = framing.Encoder(), framing.Decoder()
    frames = [enc.frame(messages.ack(9, n, n)) for n in range(3)]
    got = dec.feed(b"MicroPython v1.22 REPL\r\n>>> " + b"".join(frames))
    assert [messages.parse(p)[2] for _, p in got][-2:] == [1, 2]
    assert dec.errors >= 1


def test_cut_frame_then_whole_frames():
    enc, dec = framing.Encoder(), framing.Decoder()
    a, b, c = (enc.frame(messages.pot(n, n - 1, 1, 0)) for n in (1, 2, 3))
    got = dec.feed(a[:5] + b + c)
    assert messages.parse(got[-1][1])[1] == 3
    assert dec.errors >= 1


def test_feeding_byte_by_byte_gives_the_same_frames():
    enc = framing.Encoder()
    data = b"".join(enc.frame(messages.pot(n, n - 1, n % 6 + 1, n)) for n in range(20))
    dec = framing.Decoder()
    got = [f for i in range(len(data)) for f in dec.feed(data[i : i + 1])]
    assert len(got) == 20


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise(data):
    framing.Decoder().feed(data)


def test_every_single_and_double_bit_flip_is_caught():
    frame = framing.Encoder().frame(messages.pot(7, 6, 3, 100))
    bits = len(frame) * 8
    rng = random.Random(5)
    flips = [(i,) for i in range(bits)] + [tuple(rng.sample(range(bits), 2)) for _ in range(3000)]
    for flip in flips:
        bad = bytearray(frame)
        for bit in flip:
            bad[bit // 8] ^= 1 << (bit % 8)
        assert framing.Decoder().feed(bytes(bad)) == [], flip


def test_messages_round_trip_and_reject_wrong_lengths():
    assert messages.parse(messages.hello(1, 2, 3, "v1")) == (messages.HELLO, 1, 2, 3, "v1")
    # Serials travel whole (32 bits): nothing to widen, nothing to wrap in a club's life.
    assert messages.parse(messages.pot(70000, 69999, 4, 12)) == (messages.POT, 70000, 69999, 4, 12)
    hb = messages.heartbeat(9, 1234, 0b100, 0b1, 2, 0, 3)
    assert messages.parse(hb) == (messages.HEARTBEAT, 9, 1234, 4, 1, 2, 0, 3)
    assert messages.parse(messages.ack(1, 5, 6)) == (messages.ACK, 1, 5, 6)
    assert messages.parse(messages.ack(1, 5, 6) + b"x") is None
    assert messages.parse(b"\x55") is None
    assert messages.parse(b"") is None
