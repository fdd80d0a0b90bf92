"""What the screens and the watchers are shown: the match's snapshot with what only the
screens show over it (the setup screen, the page between frames, the shot's time), the
faults, and the hint of the moment. One picture per change: each screen redraws only if its
own picture changed, and the watchers (the socket) are told of each new one."""

from dataclasses import dataclass

HINT_SECONDS = 4.0
# What the presenter adds to the match's snapshot for the screens only, never in the journal:
# the open setup screen, the page between frames, the shot's time left.
SCREEN_ONLY = ("setup", "page", "shot_clock")


@dataclass
class Shown:
    """What the screens were last asked to show."""

    snapshot: dict
    faults: tuple
    hint: str | tuple | None
    lang: str = "uk"  # the language the screens speak

    def data(self) -> tuple[dict, list[dict]]:
        """The match's data, for those who watch from outside (the socket, the web, MQTT):
        the snapshot without what only the screens show (SCREEN_ONLY), the faults without
        which of their pages a small screen shows now. A shot clock's tick changes neither."""
        snapshot = {k: v for k, v in self.snapshot.items() if k not in SCREEN_ONLY}
        faults = [{k: v for k, v in f.items() if k != "page"} for f in self.faults]
        return snapshot, faults


class Presenter:
    """The screens, the hint and the language they speak. `scene()` gives what is to be
    shown, ``(snapshot, faults)``; `shown(Shown)` is called on each watcher for a new one."""

    def __init__(self, screens: list, scene, call_later, *, lang: str, warn=print) -> None:
        self.screens = screens
        self.scene = scene
        self.call_later = call_later
        self.warn = warn
        self.lang = ""
        self.speak(lang)  # the match's language (its setup's, or the config's): every screen's
        self.watchers: list = []
        self.hint: str | tuple | None = None
        self.shown: Shown | None = None
        self._hint_timer = None

    # -- the hint ----------------------------------------------------------------------------
    def set_hint(self, hint: str | tuple, seconds: float = HINT_SECONDS) -> None:
        self.hint = hint
        if self._hint_timer:
            self._hint_timer.cancel()
        self._hint_timer = self.call_later(seconds, self.clear_hint)

    def clear_hint(self) -> None:
        if self._hint_timer:
            self._hint_timer.cancel()
        self.hint, self._hint_timer = None, None
        self.show()

    # -- the language ------------------------------------------------------------------------
    def speak(self, lang: str) -> None:
        """The screens in `lang` from now on; the same state is drawn again."""
        if lang == self.lang:
            return
        self.lang = lang
        for screen in self.screens:
            if hasattr(screen, "lang"):
                screen.lang = lang

    def pair(self, code: tuple[str, str] | None) -> None:
        """A phone's pairing code (code, url) on the OLEDs, or None: gone; drawn at once. The
        code is the screens' only: never in what the watchers are given (Shown)."""
        for screen in self.screens:
            if hasattr(screen, "pairing"):
                screen.pairing = code
        self.shown = None  # the same state, drawn again with or without the code
        self.show()

    def rest(self, dim: int | None, step: int | None) -> None:
        """OLED burn-in (screen_saver.py): the screens that burn in dimmed to `dim` (None: the
        configured contrast) and showing the saver at `step` (None: the picture again)."""
        for screen in self.screens:
            if getattr(screen, "burns_in", False):
                screen.set_contrast(dim)
                screen.saver_step = step
                screen.redraw()

    # -- the picture -------------------------------------------------------------------------
    def show(self) -> None:
        """Redraw every screen (each redraws only if its picture changed)."""
        snapshot, faults = self.scene()
        shown = Shown(snapshot, faults, self.hint, self.lang)
        if shown == self.shown:
            return
        self.shown = shown
        for screen in self.screens:
            try:
                screen.show(shown.snapshot, faults=shown.faults, hint=shown.hint)
            except Exception as exc:  # one failing display must not stop the others
                self.warn(f"display {screen}: {exc}")
        for watcher in self.watchers:
            watcher.shown(shown)
