"""SSD1306 / SH1106 send only what changed, and the panel still ends up holding the picture.

The drivers run over luma's own i2c interface on a fake smbus that keeps every write. A
model of the controller's memory (GDDRAM), written from the datasheets' addressing
commands, replays those bytes; after every update it must hold exactly the picture.
"""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from scoreboard.commands.gallery import FAULTS, samples
from scoreboard.display import oled
from scoreboard.display.render import PANELS, render

COMMAND, DATA = 0x00, 0x40  # the I2C control byte: what follows is commands / display data


class Bus:
    """A fake smbus under luma's i2c interface: keeps every block written, can fail."""

    def __init__(self):
        self.writes = []
        self.fail_after = None  # raise OSError once this many more writes went through

    def write_i2c_block_data(self, address, register, data):
        if self.fail_after is not None:
            if self.fail_after == 0:
                self.fail_after = None
                raise OSError(121, "Remote I/O error")
            self.fail_after -= 1
        self.writes.append((register, bytes(data)))

    def take(self):
        writes, self.writes = self.writes, []
        return writes


def sent(writes) -> int:
    """Command and data bytes, as the bench counts them (not the control bytes)."""
    return sum(len(payload) for _, payload in writes)


class Controller:
    """The GDDRAM of an SSD1306 (128 x 8 pages) or SH1106 (132 x 8 pages, 128 shown from
    column 2) and the commands that move its write pointer; any other command byte is
    either known to take no part in addressing or fails the test."""

    ONE_ARG = {0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB}
    NO_ARG = {0x2E, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8}

    def __init__(self, chip: str):
        self.chip = chip
        self.columns, self.shown_from = (128, 0) if chip == "ssd1306" else (132, 2)
        self.scramble()
        self.mode = 2  # SSD1306 resets to page addressing
        self.cols, self.pages = (0, self.columns - 1), (0, 7)
        self.col = self.page = 0
        self.pending = []

    def scramble(self):
        """Power-on RAM is whatever it is: the first frame must overwrite all of it."""
        self.ram = [bytearray([0xA5] * self.columns) for _ in range(8)]

    def feed(self, writes):
        for register, payload in writes:
            if register == COMMAND:
                for byte in payload:
                    self.command(byte)
            else:
                assert register == DATA and not self.pending, "data in the middle of a command"
                for byte in payload:
                    self.write(byte)

    def arguments(self, op: int) -> int:
        if self.chip == "ssd1306" and op == 0x20:
            return 1
        if self.chip == "ssd1306" and op in (0x21, 0x22):
            return 2
        if op in self.ONE_ARG:
            return 1
        # luma's SH1106 start-up sends the SSD1306's 0x20 alone; the SH1106 ignores it.
        sh1106_ignores = self.chip == "sh1106" and op == 0x20
        assert (
            op in self.NO_ARG
            or op < 0x20
            or 0x40 <= op < 0x80
            or 0xB0 <= op < 0xB8
            or (sh1106_ignores)
        ), f"{self.chip}: unexpected command {op:#04x}"
        return 0

    def command(self, byte: int):
        self.pending.append(byte)
        op, *args = self.pending
        if len(args) < self.arguments(op):
            return
        self.pending = []
        if op < 0x10:
            self.col = (self.col & 0xF0) | op
        elif op < 0x20:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4
        elif 0xB0 <= op < 0xB8:
            self.page = op & 0x07
        elif self.chip == "ssd1306" and op == 0x20:
            self.mode = args[0] & 0x03
            assert self.mode in (0, 2), "vertical addressing is not modelled"
        elif self.chip == "ssd1306" and op == 0x21:
            assert args[0] <= args[1] < self.columns
            self.cols, self.col = tuple(args), args[0]
        elif self.chip == "ssd1306" and op == 0x22:
            assert args[0] <= args[1] < 8
            self.pages, self.page = tuple(args), args[0]
        elif 0x40 <= op < 0x80:
            assert op == 0x40, "a display start line other than 0 is not modelled"
        elif op == 0xD3:
            assert args == [0], "a display offset is not modelled"

    def write(self, byte: int):
        assert self.col < self.columns, f"{self.chip}: write past column {self.columns - 1}"
        self.ram[self.page][self.col] = byte
        self.col += 1
        if self.chip == "ssd1306" and self.col > self.cols[1]:
            self.col = self.cols[0]
            if self.mode == 0:  # horizontal: on to the next page of the window
                self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]

    def image(self) -> Image.Image:
        """What the panel shows (128 x 64), bit 0 of each byte the top row of its page."""
        pixels = [
            255 if self.ram[y // 8][self.shown_from + x] >> (y % 8) & 1 else 0
            for y in range(64)
            for x in range(128)
        ]
        image = Image.new("1", (128, 64))
        image.putdata(pixels)
        return image


def start(chip: str, **kwargs):
    bus = Bus()
    device = getattr(oled, chip)(i2c(bus=bus), **kwargs)
    controller = Controller(chip)
    controller.feed(bus.take())
    return device, bus, controller


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def screens():
    """Real screens in the order a match shows them, with a point scored in between."""
    s = samples()
    plus_one = copy.deepcopy(s["play"])
    plus_one["score"]["A"] += 1
    plus_one["balls_on_table"] -= 1
    p = PANELS["ssd1306"]
    yield "lag", render(s["lag"], p)
    for name in ("break", "break-rerack", "break-foul", "play"):
        yield name, render(s[name], p)
    yield "+1 point", render(plus_one, p)
    yield "play with faults", render(s["play"], p, faults=FAULTS)
    yield "foul", render(s["foul"], p)
    yield "foul, hint", render(s["foul"], p, hint="penalty-ball")
    for name in ("play", "frame-over", "match-over"):
        yield name, render(s[name], p)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_the_panel_holds_each_screen_after_only_the_changes(chip):
    device, bus, controller = start(chip)
    assert same(controller.image(), Image.new("1", (128, 64))), "luma's start-up clear"
    for name, picture in screens():
        device.display(picture)
        writes = bus.take()
        controller.feed(writes)
        assert same(controller.image(), picture), f"{chip}: the panel is wrong after {name}"
        assert sent(writes) < 1030, f"{chip}: {name} sent a whole frame"


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_point_scored_costs_at_most_128_bytes(chip):
    s = samples()
    plus_one = copy.deepcopy(s["play"])
    plus_one["score"]["A"] += 1
    plus_one["balls_on_table"] -= 1
    device, bus, _ = start(chip)
    device.display(render(s["play"], PANELS[chip]))
    bus.take()
    device.display(render(plus_one, PANELS[chip]))
    assert 0 < sent(bus.take()) <= 128
    device.display(render(plus_one, PANELS[chip]))
    assert bus.take() == []  # nothing changed, nothing sent


@pytest.mark.parametrize(("chip", "whole"), [("ssd1306", 6 + 1024), ("sh1106", 8 * (3 + 128))])
def test_a_frame_after_forget_is_whole(chip, whole):
    """The first frame is whole (the power-on RAM in the model is garbage, and after luma's
    start-up clear the panel is blank: see above); after forget() the next is whole too."""
    device, bus, controller = start(chip)
    picture = render(samples()["play"], PANELS[chip])
    device.display(picture)
    controller.feed(bus.take())
    device.forget()  # the panel was re-initialised: its memory holds anything
    controller.scramble()
    device.display(picture)  # the same picture: all of it goes again
    writes = bus.take()
    controller.feed(writes)
    assert sent(writes) == whole and same(controller.image(), picture)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_an_update_that_fails_half_way_sends_the_next_frame_whole(chip):
    s = samples()
    device, bus, controller = start(chip)
    device.display(render(s["play"], PANELS[chip]))
    controller.feed(bus.take())
    bus.fail_after = 3
    with pytest.raises(OSError):
        device.display(render(s["foul"], PANELS[chip]))
    controller.feed(bus.take())  # what reached the panel before the error
    picture = render(s["frame-over"], PANELS[chip])
    device.display(picture)
    writes = bus.take()
    controller.feed(writes)
    assert sent(writes) >= 1024 and same(controller.image(), picture)


@st.composite
def pictures(draw):
    """A few random boxes, on or off, over the last picture: small and large changes."""
    boxes = draw(
        st.lists(
            st.tuples(
                st.integers(0, 127),
                st.integers(0, 63),
                st.integers(0, 40),
                st.integers(0, 20),
                st.booleans(),
            ),
            max_size=6,
        )
    )
    return boxes


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@settings(max_examples=60, deadline=None)
@given(steps=st.lists(pictures(), min_size=1, max_size=8), rotate=st.sampled_from([0, 1, 2, 3]))
def test_any_sequence_of_pictures_ends_on_the_panel(chip, steps, rotate):
    device, bus, controller = start(chip, rotate=rotate)
    picture = Image.new("1", device.size)
    for boxes in steps:
        pen = ImageDraw.Draw(picture)
        for x, y, w, h, on in boxes:
            pen.rectangle((x, y, x + w, y + h), fill=255 if on else 0)
        device.display(picture)
        controller.feed(bus.take())
        assert same(controller.image(), device.preprocess(picture))
