"""Frames on the sensor-board link: <len><seq><payload><crc16><sync>, with resync on error.

The same file runs on the Pico (MicroPython) and on the host (CPython). The layout is
Klipper's: `len` counts the whole frame, `seq` numbers frames per direction, the CRC
covers len, seq and payload, and after any error the reader drops bytes up to the next
sync byte, so garbage or a cut frame costs at most the frame after it.
"""

SYNC = 0x7E
MIN_FRAME = 5  # len, seq, crc (2), sync
MAX_FRAME = 64
MAX_PAYLOAD = MAX_FRAME - MIN_FRAME


class FrameError(ValueError):
    """A payload does not fit in one frame."""


def crc16(data):
    """CRC-16/CCITT as Klipper computes it (reflected, init 0xFFFF)."""
    crc = 0xFFFF
    for byte in data:
        byte ^= crc & 0xFF
        byte ^= (byte & 0x0F) << 4
        crc = ((byte << 8) | (crc >> 8)) ^ (byte >> 4) ^ (byte << 3)
    return crc & 0xFFFF


class Encoder:
    """Wraps payloads into frames, numbering them 0..255 in order."""

    def __init__(self):
        self.seq = 0

    def frame(self, payload):
        size = len(payload) + MIN_FRAME
        if size > MAX_FRAME:
            raise FrameError(f"payload of {len(payload)} bytes does not fit in a frame")
        body = bytes((size, self.seq)) + payload
        self.seq = (self.seq + 1) & 0xFF
        crc = crc16(body)
        return body + bytes((crc >> 8, crc & 0xFF, SYNC))


class Decoder:
    """Turns a byte stream into (seq, payload) pairs; never raises on bad input.

    Counters for a link monitor: `frames` good frames, `errors` resyncs, `skipped`
    bytes thrown away, `missed` frames the sequence numbers say never arrived.
    """

    def __init__(self):
        self.buf = b""
        self.frames = 0
        self.errors = 0
        self.skipped = 0
        self.missed = 0
        self._seq = -1

    def feed(self, data):
        buf = self.buf + bytes(data)
        out = []
        while buf:
            size = buf[0]
            if size < MIN_FRAME or size > MAX_FRAME:
                buf = self._resync(buf)
                continue
            if len(buf) < size:
                break
            crc = (buf[size - 3] << 8) | buf[size - 2]
            if buf[size - 1] != SYNC or crc16(buf[: size - 3]) != crc:
                buf = self._resync(buf)
                continue
            seq = buf[1]
            if self._seq >= 0:
                self.missed += (seq - self._seq - 1) & 0xFF
            self._seq = seq
            self.frames += 1
            out.append((seq, buf[2 : size - 3]))
            buf = buf[size:]
        self.buf = buf
        return out

    def _resync(self, buf):
        # Drop through the next sync byte: the byte after it is the best guess for a
        # frame start. Searching from 0 also drops a stray sync byte at the head.
        self.errors += 1
        i = 0
        while i < len(buf) and buf[i] != SYNC:
            i += 1
        self.skipped += min(i + 1, len(buf))
        return buf[i + 1 :]
