"""A mistake in the settings is shown on the table's displays in words (issue 23: a card's
settings are edited from a PC, and nobody at the table has a keyboard or SSH)."""

import os

from scoreboard import config as configuration
from scoreboard.cli import main
from scoreboard.display import create_displays
from scoreboard.display.canvas import Canvas
from scoreboard.display.screens import notice
from scoreboard.table import settings_mistake
from scoreboard.table.settings_mistake import MistakeScreen, explain

DUMMY = '[[display.screen]]\ndriver = "dummy"\nemulates = "ssd1306"\n'


def mistake(path):
    try:
        configuration.load(path)
    except configuration.ConfigError as exc:
        return exc
    raise AssertionError("the config was accepted")


class Notifier:
    def __init__(self):
        self.sent = []

    def notify(self, message):
        self.sent.append(message)


class Ticks:
    """stop.wait() in simulated time: `then[n]` runs at the n-th tick; never set."""

    def __init__(self, then, last):
        self.n, self.then, self.last = 0, then, last

    def wait(self, seconds):
        self.n += 1
        self.then.get(self.n, lambda: None)()
        return self.n > self.last  # a safety stop: the test fails on "stopped"


def test_the_display_part_of_a_refused_config_is_still_the_files_own(tmp_path):
    path = tmp_path / "scoreboard.toml"
    path.write_text(DUMMY + "[match]\nrace_to = 'eight'\n")
    assert mistake(path).line == 5
    (screen,) = configuration.display_of(path).screens
    assert (screen.driver, screen.emulates) == ("dummy", "ssd1306")
    # A mistake in the TOML itself or in [display]: the default's displays.
    path.write_text(DUMMY + "[match\n")
    assert configuration.display_of(path) == configuration.DisplayConfig()
    path.write_text(DUMMY + 'language = "de"\n')
    assert configuration.display_of(path) == configuration.DisplayConfig()
    assert configuration.display_of(tmp_path / "missing.toml") == configuration.DisplayConfig()


def test_the_words_say_which_file_which_line_what_and_what_to_do(tmp_path):
    path = tmp_path / "scoreboard.toml"
    path.write_text("[match]\nplayer_a = 'Olena'\nrace_to = 'eight'\n")
    words = explain(mistake(path), path)
    first, then = words.split("\n")
    assert first.startswith("scoreboard.toml, line 3: match.race_to: ")
    assert str(tmp_path) not in first  # the path is said once, in what to do
    assert "Fix it in scoreboard.toml" in then and str(path) in then
    assert "starts by itself" in then


def test_long_words_wrap_inside_the_panel_and_every_word_is_kept():
    c = Canvas(128, 64)
    text = "scoreboard.toml, line 12: display.screen[1].driver: unknown driver\n" + "/x" * 60
    rows = notice.rows(c, text)
    assert all(c.width_of(r, size=notice.SIZE) <= c.width - 4 for r in rows)
    assert "".join(rows).replace(" ", "") == text.replace(" ", "").replace("\n", "")
    assert len(notice.pages(c, text)) == -(-len(rows) // 4)


def test_the_mistake_is_drawn_paged_and_the_table_restarts_once_the_file_is_saved(tmp_path):
    path = tmp_path / "scoreboard.toml"
    path.write_text(DUMMY + "[sensors]\nsource = 'laser'\n")
    (screen,) = create_displays([{"driver": "dummy", "emulates": "ssd1306"}])
    notifier = Notifier()
    shown = MistakeScreen(path, mistake(path), [screen], notifier=notifier)
    pictures = []
    ticks_per_page = int(settings_mistake.PAGE_SECONDS / settings_mistake.TICK_SECONDS)

    def look():
        pictures.append(screen.image.copy())

    def save():
        path.write_text(DUMMY)

    then = {1: look, ticks_per_page + 1: look, 3 * ticks_per_page: save}
    assert shown.run(Ticks(then, 10 * ticks_per_page)) == "changed"
    assert notifier.sent[0] == "READY=1" and notifier.sent[1].startswith("STATUS=Settings mistake")
    assert notifier.sent.count("WATCHDOG=1") == 3 * ticks_per_page
    assert shown.pages > 1
    first, second = pictures
    assert first.getbbox() is not None  # something is lit
    assert first.tobytes() != second.tobytes()  # the next page
    # The title bar is lit across the top row; the text rows below it hold dark and lit pixels.
    assert first.crop((0, 0, 128, 1)).getextrema() == (255, 255)


def test_run_under_systemd_shows_the_mistake_on_the_files_displays(tmp_path, monkeypatch):
    path = tmp_path / "scoreboard.toml"
    path.write_text(DUMMY + "[sensors]\nsource = 'laser'\n")
    seen = {}

    def run(self, stop):
        seen["screens"] = [s.name for s in self.screens]
        seen["text"] = self.text
        return "changed"

    monkeypatch.setattr(MistakeScreen, "run", run)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    assert main(["run", "--config", str(path), "--state-dir", str(tmp_path / "state")]) == 0
    assert seen["screens"] == ["dummy"]
    assert seen["text"].startswith("scoreboard.toml, line 5: sensors.source: ")
    assert not os.path.exists(tmp_path / "state")  # nothing written


def test_run_in_a_terminal_still_says_the_mistake_and_stops(tmp_path, monkeypatch, capsys):
    path = tmp_path / "scoreboard.toml"
    path.write_text("[sensors]\nsource = 'laser'\n")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert main(["run", "--config", str(path)]) != 0
    assert "scoreboard.toml:2: sensors.source: must be one of" in capsys.readouterr().err
