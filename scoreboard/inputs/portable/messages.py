"""Messages inside link frames: one type byte, then little-endian fields (firmware/PROTOCOL.md)."""

import struct

# Board to host.
HELLO = 0x01
HEARTBEAT = 0x02
POT = 0x03
# Host to board.
ACK = 0x81
HELLO_REQUEST = 0x82
STOP = 0x83

_HELLO = "<BIII"  # type, boot id, store id, acked
_HEARTBEAT = "<BIIBBBHH"  # type, boot id, uptime, stuck, blocked, pending, dropped, missed
_POT = "<BIIBI"  # type, serial, prev, pocket, age
# A pot whose pocket has this bit takes back the ball its leading edge counted in that
# pocket: the beam turned out stuck (pocket_counter.RETRACT).
RETRACT_BIT = 0x80
_ACK = "<BIII"  # type, boot id of the board it answers, held, floor
# A STOP carries this word so that a flipped type byte alone cannot stop the firmware.
STOP_MAGIC = 0x53544F50
_STOP = "<BI"

_FIXED = {
    HEARTBEAT: _HEARTBEAT,
    POT: _POT,
    ACK: _ACK,
    STOP: _STOP,
}


def hello(boot_id, store_id, acked, version):
    return struct.pack(_HELLO, HELLO, boot_id, store_id, acked) + version.encode()


def heartbeat(boot_id, uptime_ms, stuck_mask, blocked_mask, pending, dropped, missed):
    return struct.pack(
        _HEARTBEAT,
        HEARTBEAT,
        boot_id,
        int(uptime_ms) & 0xFFFFFFFF,
        stuck_mask,
        blocked_mask,
        min(pending, 255),
        min(dropped, 0xFFFF),
        min(missed, 0xFFFF),
    )


def pot(serial, prev, pocket, age_ms):
    # `prev` is the serial sent before this one (or the last the host acked): the host
    # takes a pot only once it holds `prev`, so order survives any loss (PROTOCOL.md).
    age = min(max(int(age_ms), 0), 0xFFFFFFFF)
    return struct.pack(_POT, POT, serial & 0xFFFFFFFF, prev & 0xFFFFFFFF, pocket & 0xFF, age)


def ack(boot_id, held, floor):
    return struct.pack(_ACK, ACK, boot_id, held & 0xFFFFFFFF, floor & 0xFFFFFFFF)


def hello_request():
    return bytes((HELLO_REQUEST,))


def stop():
    return struct.pack(_STOP, STOP, STOP_MAGIC)


def parse(payload):
    """A tuple (type, fields...) or None for anything malformed or unknown."""
    if not payload:
        return None
    kind = payload[0]
    if kind == HELLO:
        size = struct.calcsize(_HELLO)
        if len(payload) < size:
            return None
        try:
            version = bytes(payload[size:]).decode()
        except UnicodeError:
            return None
        return struct.unpack(_HELLO, payload[:size]) + (version,)
    if kind == HELLO_REQUEST:
        return (kind,) if len(payload) == 1 else None
    fmt = _FIXED.get(kind)
    if fmt is None or len(payload) != struct.calcsize(fmt):
        return None
    return struct.unpack(fmt, payload)
