"""A FOUL step that would end the frame waits (docs/decisions.md, "A correction is one step"),
and every such kind shows its own consequence on every display (issue 34): whose foul, whose
point, the score it would end on, that the frame (or the match) ends, and never a line left
from the kind before it. Through the appliance: the App on gpiozero's mock pins, the real
panel and journal, luma's dummy devices (a 128 px and a 256 px OLED, a 64 px MAX7219 chain),
simulated time. The words are read from the canvas that drew each device's picture."""

import pytest
from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.display import LANGUAGES, create_displays, led
from scoreboard.display.render import canvas
from scoreboard.inputs.events import ButtonPress, Pot
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance
from scoreboard.texts.i18n import translator
from scoreboard.texts.messages import HINTS, KINDS, hint_text
from scoreboard.texts.words import Words

NAMES = '[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\nrace = 2\n'
SPECS = [
    {"driver": "dummy", "emulates": "ssd1306"},
    {"driver": "dummy", "emulates": "ssd1322"},
    {"driver": "dummy", "emulates": "max7219", "width": 64},  # room beside score and frames
]


@pytest.fixture
def table(tmp_path):
    made = []

    def make(lang="uk", extra="", race=2):
        text = NAMES.replace("race = 2", f"race = {race}") + extra
        cfg = configuration.loads(text + f'[display]\nlanguage = "{lang}"\n')
        screens = create_displays(SPECS, lang=lang)
        a = Appliance(
            cfg,
            state_dir=tmp_path / f"{lang}{len(made)}",
            screens=screens,
            pin_factory=MockFactory(),
            clock=ManualClock(0.0),
            log=lambda m: None,
        )
        a.app.start()
        made.append(a)
        return a

    yield make
    for a in made:
        a.close()


def put(a, *events):
    """Each input at its own time: the loop's clock follows them and runs what is due."""
    for event in events:
        a.loop.clock.now = max(a.loop.clock.now, event.t)
        a.loop.put(event)
        a.loop.run_pending()
    return a.app.shown.snapshot


def words(a) -> dict[str, list[str]]:
    """Every text each OLED shows now, by its width; each checked to be what its device holds."""
    shown, said = a.app.shown, {}
    for screen in a.app.screens:
        if screen.panel.matrix:
            continue
        c = canvas(
            shown.snapshot, screen.panel, lang=screen.lang, faults=shown.faults, hint=shown.hint
        )
        assert c.image.tobytes() == screen.image.tobytes(), "the words are not the picture shown"
        said[screen.panel.width] = c.texts
    return said


def leds(a):
    """The MAX7219's picture now, and the score and frames alone (no waiting step) drawn."""
    (screen,) = [s for s in a.app.screens if s.panel.matrix]
    plain = led.matrix(a.app.shown.snapshot, screen.panel.width, screen.panel.height)
    return screen.image.tobytes(), plain.tobytes()


def olena_on_seven_taras_three(a):
    """Target 8: Олена 7, Тарас 3, Олена at the table (balls well clear of the miss window)."""
    put(a, ButtonPress("A", 1.0))  # Олена breaks
    for i in range(7):
        put(a, Pot(1, 10.0 + 10 * i))
    put(a, ButtonPress("B", 80.0))  # she misses: Тарас at the table
    for i in range(3):
        put(a, Pot(2, 90.0 + 10 * i))
    s = put(a, ButtonPress("A", 120.0))  # he misses
    assert s["score"] == {"A": 7, "B": 3} and s["striker"] == "A"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_D_2_GR_7_3_a_waiting_kind_says_whose_point_and_that_the_frame_ends_then_goes(table, lang):
    """The issue's case: out of turn at 7:3 is Тарас's foul (GR-7.3), Олена's point, her
    8th: it waits, said with its own consequence. The next kind is Олена's again and ends
    nothing: taken at once, and the line that the frame ends goes."""
    a, t = table(lang), Words(translator(lang))
    olena_on_seven_taras_three(a)
    s = put(a, ButtonPress("foul", 130.0))  # Олена's foul, kind "other": Тарас +1, taken
    assert s["phase"] == "foul" and s["score"] == {"A": 7, "B": 4}
    for i, kind in enumerate(("cue-tip", "feet", "no-contact")):  # each taken at once
        s = put(a, ButtonPress("foul", 130.5 + i / 2))
        assert s["foul"]["kinds"] == [kind] and s["score"] == {"A": 7, "B": 4}
    before_kind = t.gettext(KINDS["no-contact"])
    previous_line = t.gettext("+1 {name}: takes ball").format(name="Тарас")
    assert all(previous_line in said for said in words(a).values())

    s = put(a, ButtonPress("foul", 132.0))  # out of turn: Тарас's foul, Олена's 8th point
    assert s["phase"] == "foul" and s["score"] == {"A": 7, "B": 4}  # not taken yet
    title = t.gettext(HINTS["foul-kind"]).format(name="Тарас", kind=t.gettext(KINDS["out-of-turn"]))
    for width, said in words(a).items():
        assert title in said, (width, said)
        assert "+1 Олена → 8:3" in said, (width, said)  # whose point, the score then
        assert t.gettext("Ends the frame") in said, (width, said)
        assert previous_line not in said and not any(before_kind in w for w in said), said
    shown, plain = leds(a)
    assert shown != plain  # the chain has room: ">8:3" beside the score and frames
    sentence = hint_text(a.app.hint, t)  # the phones' page, the socket, the simulator
    assert "Олена" in sentence and "8:3" in sentence

    s = put(a, ButtonPress("foul", 132.5))  # balls still moving: Олена's again, ends nothing
    assert s["phase"] == "foul" and s["foul"]["kinds"] == ["early-stroke"]
    assert s["score"] == {"A": 7, "B": 4}  # taken at once
    for width, said in words(a).items():
        assert not any("8:3" in w or t.gettext("Ends the frame") in w for w in said), said
        assert previous_line in said, (width, said)  # this kind's own consequence
    shown, plain = leds(a)
    assert shown == plain  # nothing left of the waiting kind on the digits


def test_D_2_a_waiting_first_FOUL_that_ends_the_match_says_so_until_it_is_taken(table):
    """Race 1: the first FOUL press gives Тарас his 8th point and the match. It is shown,
    with its consequence, as long as it waits: here a kind's window of 10 s, longer than a
    hint's 4 s. Then it is taken, and the match-over screen has no word of it."""
    extra = "[timings]\nfoul_kind_window = 10.0\n"
    a, t = table("en", extra, race=1), Words(translator("en"))
    put(a, ButtonPress("A", 1.0), ButtonPress("B", 2.0))  # Олена breaks and misses
    for i in range(7):
        put(a, Pot(1, 10.0 + 10 * i))  # Тарас pots seven
    s = put(a, ButtonPress("A", 80.0))  # he misses: Олена at the table
    assert s["score"] == {"A": 0, "B": 7}
    s = put(a, ButtonPress("foul", 90.0))
    assert s["phase"] == "play" and s["score"] == {"A": 0, "B": 7}
    a.loop.clock.now = 99.0  # 9 s on: still waiting, still said
    a.loop.run_pending()
    for width, said in words(a).items():
        assert "+1 Тарас → 0:8" in said and t.gettext("Ends the match") in said, (width, said)
    assert a.app.shown.snapshot["phase"] == "play"
    a.loop.clock.now = 100.0  # the kind's 10 s: taken
    a.loop.run_pending()
    s = a.app.shown.snapshot
    assert s["phase"] == "match-over" and s["score"] == {"A": 0, "B": 8}
    for width, said in words(a).items():
        assert not any("0:8" in w and "→" in w for w in said), (width, said)
        assert t.gettext("Ends the match") not in said, (width, said)
