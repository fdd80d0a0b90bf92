"""A Screen: one display that redraws only when its picture changes, and measures it."""

import logging
import time

from luma.core.virtual import sevensegment

from scoreboard.display import devices, led
from scoreboard.display.render import render, render_notice, render_pairing, render_saver
from scoreboard.texts.i18n import DEFAULT_LANGUAGE, translator

log = logging.getLogger("scoreboard.display")


class Screen:
    """One display. `show()` renders the snapshot, pushes it only if the picture differs
    from the last one, and returns the bytes pushed (0 when nothing changed). A display
    that fails while running is logged once and then left alone; the others go on."""

    def __init__(
        self,
        device,
        *,
        name: str,
        panel,
        lang=DEFAULT_LANGUAGE,
        timings=None,
        counter=None,
        segments: bool = False,
        contrast: int | None = None,
    ):
        translator(lang)  # an unknown language stops at start, not at the first foul
        self.device, self.name, self.panel, self.lang = device, name, panel, lang
        self.timings = timings  # the button timings the screens name (texts/words.py)
        self.counter = counter
        self.segments = sevensegment(device) if segments else None
        self.failed: str | None = None
        # OLED burn-in (scoreboard/table/screen_saver.py): an OLED dims and shows the saver; the
        # LED digits do not burn in. `saver_step` set: the saver is shown, at that step.
        self.burns_in = not panel.matrix and not segments
        self.saver_step: int | None = None
        # A phone's pairing code (scoreboard/table/phone_control.py): (code, url) while an OLED shows it.
        self.pairing: tuple[str, str] | None = None
        self.contrast = contrast  # the configured contrast, restored on waking
        self.level: int | None = contrast  # the contrast the device was last set to
        self._args = None  # the last show()'s arguments, for redraw()
        self.picture = None
        self.updates = 0
        self.bytes_total = 0
        self.last_bytes = 0
        self.last_seconds = 0.0  # render + push of the last call that pushed
        self._last = None

    def show(self, snapshot: dict, *, faults=(), hint=None) -> int:
        self._args = (snapshot, faults, hint)
        if self.failed:
            return 0
        start = time.perf_counter()
        if self.segments is not None:
            picture = led.sevensegment_text(snapshot)
        elif self.saver_step is not None:
            picture = render_saver(snapshot, self.panel, self.saver_step)
        elif self.pairing is not None and self.burns_in:
            picture = render_pairing(*self.pairing, self.panel, lang=self.lang)
        else:
            picture = render(
                snapshot,
                self.panel,
                lang=self.lang,
                timings=self.timings,
                faults=faults,
                hint=hint,
            )
        key = picture if isinstance(picture, str) else picture.tobytes()
        if key == self._last:
            return 0
        before = self.counter.sent if self.counter else 0
        if not self._push(picture):
            return 0
        self._last = key
        self.last_seconds = time.perf_counter() - start
        self.last_bytes = (self.counter.sent - before) if self.counter else 0
        self.bytes_total += self.last_bytes
        self.updates += 1
        return self.last_bytes

    def show_notice(self, title: str, text: str, *, page: int = 0) -> int:
        """A notice in words instead of the score (a mistake in the settings): page `page` of
        it on an OLED; the LED digits say "Err". Returns the count of pages (1 for digits)."""
        if self.failed:
            return 1
        if self.segments is not None:
            picture, count = "Err", 1
        else:
            picture, count = render_notice(title, text, self.panel, page=page)
        if self._push(picture):
            self._last = None  # the next show() draws the score again
            self.updates += 1
        return count

    def _push(self, picture) -> bool:
        """`picture` to the device (a text for 7-segment digits); False if the device failed."""
        try:
            if self.segments is not None:
                self.segments.text = picture
            else:
                self.device.display(picture)
        except Exception as exc:  # a bus error must not stop the scoreboard
            self.failed = f"{self.name}: stopped: {exc}"
            log.error("display %s", self.failed)
            return False
        self.picture = picture  # what the device was last sent
        return True

    def redraw(self) -> int:
        """Shows the last state again (after the saver changed what this screen shows)."""
        if self._args is None:
            return 0
        snapshot, faults, hint = self._args
        return self.show(snapshot, faults=faults, hint=hint)

    def set_contrast(self, level: int | None) -> None:
        """Dims (a level 0-255) or restores the configured contrast (None)."""
        if self.failed or not hasattr(self.device, "contrast"):
            return
        level = self.contrast if level is None else level
        level = 0xCF if level is None else int(level)  # luma's OLED default
        try:
            self.device.contrast(level)
            self.level = level
        except Exception as exc:  # a bus error must not stop the scoreboard
            self.failed = f"{self.name}: stopped: {exc}"
            log.error("display %s", self.failed)

    @property
    def image(self):
        """The last picture the device holds (luma's dummy and emulators keep it)."""
        return getattr(self.device, "image", None)


def create_displays(specs, *, lang=DEFAULT_LANGUAGE, timings=None, on_error=None) -> list[Screen]:
    """A Screen for each spec that starts. A display that is missing or fails at start
    is logged (and passed to `on_error(spec, message)`), and the rest keep running."""
    translator(lang)
    screens = []
    for number, spec in enumerate(specs, 1):
        try:
            devices.check(spec)
            device, counter, panel = devices.create(spec)
            screens.append(
                Screen(
                    device,
                    name=devices.describe(spec),
                    panel=panel,
                    lang=lang,
                    timings=timings,
                    counter=counter,
                    segments=spec["driver"] == "max7219-7seg",
                    contrast=spec.get("contrast"),
                )
            )
        except Exception as exc:  # missing bus, absent chip, no pygame: report, go on
            label = devices.describe(spec) if isinstance(spec, dict) and "driver" in spec else spec
            message = f"display {number} ({label}) did not start: {exc}; running without it"
            log.error(message)
            if on_error:
                on_error(spec, message)
    return screens
