"""`scoreboard sim` in a real 80x24 terminal (tmux): the emulated display, both names, the score
and the whole key legend fit; the language key redraws the display in uk, ru, en and back; a
terminal that changes its size is laid out again.

The picture tmux holds is read back cell by cell (luma's half blocks: two pixels a cell) and
compared with the display's own picture for the state the journal holds, scaled by luma's
asciiblock art, so a wrong language or a stale picture fails, not only a missing one.
"""

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from luma.emulator.device import asciiblock
from tmux import Tmux

from scoreboard.core.matchlog import replay
from scoreboard.display.devices import panel_for
from scoreboard.display.render import render
from scoreboard.sim.table import legend
from scoreboard.sim.terminal import MIN_PICTURE_ROWS, TEXT_ROWS, fit, wrap_items
from scoreboard.store.journal import read_journal

ROOT = Path(__file__).resolve().parent.parent
PANEL = panel_for({"driver": "emulator-terminal", "emulates": "ssd1306"})
LEGEND_UK = ("a/b press", "A/B hold", "f FOUL", "F hold FOUL", "u UNDO", "U hold UNDO")
LEGEND_UK += ("1-6 pocket", "l language: uk", "q quit")


def expected_picture(state_dir, lang: str, columns: int, rows: int) -> list[list[tuple]]:
    """The display's picture for the journal's state, as luma's asciiblock art of that size."""
    snapshot = replay(read_journal(state_dir).lines).snapshot()
    image = render(snapshot, PANEL, lang=lang).convert("RGB")
    art = list(asciiblock._generate_art(None, image, columns, rows * 2))
    return [art[row * columns : (row + 1) * columns] for row in range(rows)]


@pytest.fixture
def sim80x24(tmp_path):
    state = tmp_path / "state"
    command = [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(state)]
    terminal = Tmux(tmp_path / "tmux.sock", command, columns=80, lines=24, cwd=ROOT)
    yield terminal, state
    terminal.close()


def test_sim_in_80x24_shows_names_score_legend_and_the_language_key_redraws(sim80x24):
    t, state = sim80x24
    screen = t.wait_for_text("Гравець 1", "Гравець 2", "0 : 0", "phase lag", *LEGEND_UK)
    assert all(len(line) <= 80 for line in screen.splitlines())
    picture = t.picture()
    assert 6 <= len(picture) <= 24 - 2 - 2  # room left for the names, the score and the legend
    assert len({len(row) for row in picture}) == 1 and len(picture[0]) <= 80
    rows, columns = len(picture), len(picture[0])
    assert columns == 4 * rows  # a 128x64 display keeps its shape: two pixels a cell
    uk = t.wait_for(
        lambda: (p := t.picture()) == expected_picture(state, "uk", columns, rows) and p,
        "the lag screen's picture in uk",
    )
    t.keys("l")  # "who breaks?" in the next language
    t.wait_for_text("l language: ru")
    ru = t.wait_for(
        lambda: (p := t.picture()) == expected_picture(state, "ru", columns, rows) and p,
        "the picture in ru",
    )
    t.keys("l")
    t.wait_for_text("l language: en")
    en = t.wait_for(
        lambda: (p := t.picture()) == expected_picture(state, "en", columns, rows) and p,
        "the picture in en",
    )
    assert uk != ru != en != uk
    t.keys("l")  # round to uk again
    t.wait_for_text("l language: uk")
    t.wait_for(lambda: t.picture() == uk, "the uk picture again")

    t.keys("a")  # A breaks
    t.wait_for_text("phase break")
    t.keys("3")  # a ball through pocket 3
    t.wait_for_text("Гравець 1 1 : 0 Гравець 2", "q quit")
    t.wait_for(
        lambda: t.picture() == expected_picture(state, "uk", columns, rows), "the score's picture"
    )

    t.resize(60, 20)  # laid out again: a smaller picture, the text and the legend still whole
    screen = t.wait_for_text("U hold UNDO", "q quit", "Гравець 1 1 : 0 Гравець 2")
    t.wait_for(lambda: len(t.picture()) < rows, "a smaller picture")
    assert all(item in screen for item in LEGEND_UK)
    assert max(len(row) for row in t.picture()) <= 60


@pytest.mark.parametrize(
    ("size", "display", "picture"),
    [
        ((80, 24), (128, 64), (72, 18)),  # the legend on two rows, four for the text
        ((80, 24), (256, 64), (80, 10)),  # SSD1322: as wide as the terminal
        ((200, 60), (128, 64), (128, 32)),  # never more than a cell a pixel
        ((40, 12), (128, 64), None),  # too small for a legible picture: text only
    ],
)
def test_fit_leaves_the_text_and_the_whole_legend_their_rows(size, display, picture):
    columns, lines = size
    layout = fit(columns, lines, *display, legend("uk"))
    got = layout.picture and (layout.picture.columns, layout.picture.rows)
    assert got == picture
    wrapped = wrap_items(legend("uk"), layout.width)
    assert sorted("  ".join(wrapped).split("  ")) == sorted(legend("uk"))
    assert all(len(line) < columns for line in wrapped)
    assert layout.legend_rows == len(wrapped)
    if picture:
        box = layout.picture
        assert box.rows >= MIN_PICTURE_ROWS
        assert box.rows + TEXT_ROWS + layout.legend_rows <= lines
        assert box.left - 1 == (columns - box.columns) // 2  # centred
        assert layout.text_top == box.rows + 1


@pytest.mark.parametrize("lang, title", [("en", "Pair a phone"), ("uk", None)])
def test_the_pairing_code_is_said_in_words_under_the_picture(tmp_path, lang, title):
    """Issue 20: at 80x24 the code was only inside the scaled-down picture, easily misread."""
    import io

    from scoreboard import config
    from scoreboard.sim.terminal import TextScreen
    from scoreboard.table.app import App
    from scoreboard.table.loop import ManualClock
    from scoreboard.texts.i18n import translator

    out = io.StringIO()
    words = TextScreen(out, layout=None, legend=legend, lang=lang)
    in_lang = config.default()
    in_lang = replace(in_lang, display=replace(in_lang.display, language=lang))
    app = App(in_lang, state_dir=tmp_path, screens=[words], clock=ManualClock(1.0),
              log=lambda m: None)  # fmt: skip
    app.start()
    app.phone.show_code("042917", "http://table.local:8080/pair#code=042917")
    said = out.getvalue().split("\n--\n")[-2]
    title = title or translator("uk").gettext("Pair a phone")
    assert f"{title}: 042 917  http://table.local:8080/pair" in said
    app.phone.paired()
    assert title not in out.getvalue().split("\n--\n")[-2]  # gone with the code
    app.close()


def test_the_words_say_the_setup_screen_when_the_picture_shows_it(tmp_path):
    """Issue 20: the setup screen in the picture, "match won" in the words under it."""
    import io

    from scoreboard import config
    from scoreboard.inputs.events import ButtonHold, ButtonPress
    from scoreboard.sim.terminal import TextScreen
    from scoreboard.table.app import App
    from scoreboard.table.loop import ManualClock

    out = io.StringIO()
    words = TextScreen(out, layout=None, legend=legend, lang="en")
    clock = ManualClock(1.0)
    english = config.default()
    english = replace(english, display=replace(english.display, language="en"))
    app = App(english, state_dir=tmp_path, screens=[words], clock=clock,
              log=lambda m: None)  # fmt: skip
    app.start()

    def said(*events):
        for event in events:
            clock.now = event.t
            app.loop.put(event)
            app.loop.run_pending()
        return out.getvalue().split("\n--\n")[-2]

    assert said(ButtonHold("foul", 2.0)).startswith("Next match 1/")  # from the lag
    assert ": Start the match" in said()
    assert said(ButtonPress("B", 4.0)).startswith("Next match 2/")  # on to the next row
    assert "Next match" not in said(ButtonPress("undo", 6.0))  # closed: the match again
    app.close()
