"""Every phrase fits every display in every language; long names are shortened whole-glyph."""

import ast
import copy
from pathlib import Path
from string import Formatter

import pytest

from scoreboard.commands.gallery import samples, setup_samples
from scoreboard.core.settings import LANGUAGES as SETUP_LANGUAGES
from scoreboard.core.settings import OPTIONS, MatchSettings
from scoreboard.display import DISPLAYS, LANGUAGES
from scoreboard.display.render import canvas, panel
from scoreboard.display.screens.setup import HELP, OPTION_LABELS, VALUES
from scoreboard.table.setup import model
from scoreboard.table.stats_pages import PAGES
from scoreboard.texts.catalogs import parse_po, po_files
from scoreboard.texts.i18n import translator
from scoreboard.texts.messages import HINTS, KINDS, MESSAGES, NOT_SAVED, TO_DO, WHAT_IS_WRONG
from scoreboard.texts.words import Timings

HINT_FIELDS = {
    "name": "Олександра-Вікторія Щербатюк",
    "gainer": "Maximilian Alexander von Ünterberg",  # whose point a waiting FOUL step gives
    "score": "11:5",  # the score it would end the frame on
    "n": 15,
    "kind": "early-stroke",
    "pocket": 6,
}
TIMED = {"hold", "undo_hold"}  # filled in by the screens from the configured timings
# The longest timings the config takes ([timings] hold_time 0.3-10, undo_hold_time 0.3-30).
LONGEST_TIMINGS = Timings(hold=9.75, undo_hold=29.75)
LONG_NAMES = {"A": "Олександра-Вікторія Щербатюк", "B": "Maximilian Alexander von Ünterberg"}
SAMPLES = samples()
OLEDS = [d for d in DISPLAYS if not panel(d).matrix]


def variants():
    """Each sample with the longest names, every foul kind, two-digit scores and frames,
    many balls to spot, and every fault and hint over it."""
    for name, snap in SAMPLES.items():
        snap = copy.deepcopy(snap)
        snap["players"] = dict(LONG_NAMES)
        yield name, snap, {}
        yield f"{name}+faults", snap, {"faults": [{"kind": "sensor-silent", "pocket": 6}] * 3}
        if snap.get("foul"):
            for kind in KINDS:
                many = copy.deepcopy(snap)
                many["foul"]["kinds"] = [kind, "double-hit", "push"]
                many["foul"]["to_spot"] = 15
                yield f"{name}-{kind}", many, {}
    wide = copy.deepcopy(SAMPLES["play"])
    wide.update(
        score={"A": 15, "B": 1},
        frames={"A": 9, "B": 12},
        race=15,
        target=16,
        balls_on_table=0,
        players=dict(LONG_NAMES),
    )
    yield "play-two-digits", wide, {}
    # The statistics pages between frames (stats_pages.py): long names, three-digit figures,
    # every foul kind's name, a frame of hours.
    for page in PAGES[1:]:
        stats = copy.deepcopy(SAMPLES["match-over-timed"]) | {"page": page}
        stats["players"] = dict(LONG_NAMES)
        stats["frame_times"][-1] = 3 * 3600 + 59 * 60 + 59
        stats["frames"] = {"A": 98, "B": 99}
        stats["race"] = 99
        for side in ("A", "B"):
            stats["stats"][side].update(pots=999, best_run=16)
            stats["stats"][side]["fouls"] = {kind: 99 for kind in KINDS}
        yield f"match-over-{page}", stats, {}
        for kind in KINDS:  # each kind's name on a row of its own
            one = copy.deepcopy(stats)
            one["stats"]["A"]["fouls"] = {kind: 999}
            one["stats"]["B"]["fouls"] = {}
            yield f"match-over-{page}-{kind}", one, {}
    for fault in MESSAGES:
        yield f"fault-{fault}", SAMPLES["play"], {"faults": [{"kind": fault, "pocket": 6}]}
    for hint, text in HINTS.items():
        # A message with fields gets the longest of each: a name, a count, a foul kind.
        fields = {
            f: HINT_FIELDS[f] for _, f, _, _ in Formatter().parse(text) if f and f not in TIMED
        }
        yield f"hint-{hint}", SAMPLES["foul"], {"hint": (hint, tuple(fields.items()))}
    path = "/var/lib/scoreboard/journal.log"
    for problem in WHAT_IS_WRONG:
        for page in range(4):
            fault = {"kind": "not-saved", "problem": problem, "path": path, "page": page}
            yield f"not-saved-{problem}-{page}", SAMPLES["play"], {"faults": [fault]}
    fault = {"kind": "not-saved", "problem": "full", "path": path, "page": 0}
    yield "hint-while-not-saved", SAMPLES["foul"], {"hint": "refused", "faults": [fault]}
    yield from setup_variants()


def setup_variants():
    """The setup screen: every row being changed, every value, the longest names."""
    for name, snap in setup_samples().items():
        yield name, snap, {}
    over = SAMPLES["match-over"]
    longest = ("Олександра-В", "Maximilian A")  # 12 letters, what the letters take
    for breaker in ("lag", "A", "B"):
        for lang in SETUP_LANGUAGES:
            for values in zip(*(OPTIONS[k] for k in OPTIONS), strict=False):
                settings = MatchSettings(
                    players=longest,
                    race=99,
                    target=8,
                    options=tuple(zip(OPTIONS, values, strict=True)),
                    lang=lang,
                    breaker=breaker,
                )
                draft = model.open_draft(settings, longest)
                for row in range(len(model.ROWS)):
                    editing, _ = model.press(draft, "foul")
                    for d in (draft, editing):
                        yield (
                            f"setup-{breaker}-{lang}-{values}-{row}",
                            over | {"setup": d.view()},
                            {},
                        )
                    draft, _ = model.press(draft, "B")


@pytest.mark.parametrize("timings", [Timings(), LONGEST_TIMINGS], ids=["default", "longest"])
@pytest.mark.parametrize("display", OLEDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phrase_fits(display, lang, timings):
    overflows = []
    for name, snap, extra in variants():
        c = canvas(snap, panel(display), lang=lang, timings=timings, **extra)
        overflows += [f"{name}: {text}" for text in c.overflows]
    assert overflows == []


@pytest.mark.parametrize("display", OLEDS)
def test_long_names_are_shortened_with_an_ellipsis(display):
    snap = copy.deepcopy(SAMPLES["play"])
    snap["players"] = dict(LONG_NAMES)
    c = canvas(snap, panel(display), lang="uk")
    shortened = c.shorten(
        c.width // 2 - 4, "{name}", size=16 if c.wide else 12, name=LONG_NAMES["A"]
    )
    assert shortened.endswith("…") and LONG_NAMES["A"].startswith(shortened[:-1].rstrip())


def test_shortening_never_cuts_a_glyph():
    """Terminus is monospaced: a shortened text is whole cells, within its box."""
    c = canvas(SAMPLES["lag"], panel("ssd1306"), lang="uk")
    for width in range(6, 128, 5):
        s = c.shorten(width, "{name}", name=LONG_NAMES["A"])
        assert c.width_of(s) <= width or s == LONG_NAMES["A"][:1] + "…"


def used_phrases() -> set[str]:
    """Every literal passed to gettext/ngettext in the display code, plus the tables."""
    found = set(KINDS.values()) | set(MESSAGES.values()) | set(HINTS.values()) | {"Fault: {kind}"}
    found |= set(VALUES.values()) | set(OPTION_LABELS.values()) | set(HELP.values())
    found |= set(WHAT_IS_WRONG.values()) | set(TO_DO.values()) | {NOT_SAVED}
    root = Path(__file__).parents[1] / "scoreboard" / "display"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
                "gettext",
                "ngettext",
            ):
                args = [a.value for a in node.args if isinstance(a, ast.Constant)]
                if args and all(isinstance(a, str) for a in args):
                    found.add(args[0] if node.func.attr == "gettext" else "\0".join(args[:2]))
    return found


@pytest.mark.parametrize("po", po_files(), ids=lambda p: p.parts[-3])
def test_every_phrase_is_translated(po):
    catalog = parse_po(po.read_text(encoding="utf-8"))
    missing = sorted(used_phrases() - set(catalog))
    assert missing == []


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        (
            "uk",
            {1: "1 куля", 2: "2 кулі", 5: "5 куль", 11: "11 куль", 21: "21 куля", 22: "22 кулі"},
        ),
        (
            "ru",
            {1: "1 шар ", 3: "3 шара", 7: "7 шаров", 12: "12 шаров", 31: "31 шар ", 44: "44 шара"},
        ),
        ("en", {1: "1 ball ", 2: "2 balls"}),
    ],
)
def test_plural_forms(lang, counts):
    t = translator(lang)
    for n, start in counts.items():
        text = t.ngettext("{n} ball left", "{n} balls left", n).format(n=n)
        assert text.startswith(start), (n, text)
