"""`scoreboard gallery`: every phase on every display in every language, as PNG files."""

from importlib import resources
from pathlib import Path

from PIL import Image

from scoreboard.commands import UsageError
from scoreboard.core.matchlog import replay
from scoreboard.core.settings import MatchSettings
from scoreboard.display import DISPLAYS, LANGUAGES
from scoreboard.display.render import panel, render, render_saver
from scoreboard.inputs.events import ButtonPress
from scoreboard.table.loop import EventLoop, ManualClock
from scoreboard.table.panel import Panel
from scoreboard.table.setup import model
from scoreboard.table.shot_clock import ShotClock
from scoreboard.table.stats_pages import PAGES

# Faults and a hint drawn over the play screen, to show the overlay in the gallery.
FAULTS = [{"kind": "sensor-stuck", "pocket": 3}, {"kind": "board-lost"}]


def samples() -> dict[str, dict]:
    """By name, the state each match log in scoreboard/display/samples ends in, replayed
    through the real Match as `scoreboard replay` does: only states the code reaches."""
    folder = resources.files("scoreboard.display") / "samples"
    return {
        entry.name.removesuffix(".log"): replay(
            entry.read_text(encoding="utf-8").splitlines()
        ).snapshot()
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".log")
    }


# Issue 34's case: Олена 7, Тарас 3, Олена at the table; FOUL pressed and stepped through the
# kinds to "out of turn", Тарас's foul (GR-7.3), whose point would be her 8th (D-2): it waits.
ENDING_LOG = """players Олена Тарас
race 3
break A
shot pots=7 cushions=4
shot
shot pots=3
shot
"""
ENDING_PRESSES = 5  # other, cue-tip, feet, no-contact, out-of-turn


def ending_sample() -> tuple[dict, tuple]:
    """(snapshot, hint) while a FOUL step that would end the frame waits: the real panel on the
    match the log above replays to, its steps applied as the table applies them."""
    match = replay(ENDING_LOG.splitlines())
    panel = Panel(match)
    outcome = None
    for i in range(ENDING_PRESSES):
        outcome = panel.handle(ButtonPress("foul", 100.0 + i / 2))
        if outcome.items:
            match.apply_all(list(outcome.items))
            panel.applied(outcome)
    if not panel.pending:
        raise RuntimeError("the gallery's waiting FOUL step did not wait: ENDING_LOG is stale")
    return match.snapshot(), outcome.hint


def with_shot_clock(snap: dict, *, seconds=30.0, after=18.0) -> dict:
    """`snap` as the app shows it `after` seconds into a shot of `seconds` ([shot_clock]):
    the real ShotClock, run on a loop in simulated time."""
    clock = ManualClock(0.0)
    loop = EventLoop(lambda event: None, clock=clock)
    shot_clock = ShotClock(loop.call_at, clock, seconds=seconds, warning=10.0, extension=20.0)
    shot_clock.follow(snap)
    clock.advance(after)
    loop.run_pending()
    return snap | {"shot_clock": shot_clock.view()}


# The setup screen (scoreboard/table/setup/), each picture the state the four buttons reach
# from the screen as it opens after the match-over sample: keys as the model takes them
# ("A", "B", "foul", "undo"; "A+"/"B+" held).
SETUP_KEYS = {
    "setup": "",
    "setup-race": "B B B foul B B",
    "setup-pick": "B foul B",
    "setup-letters": "B foul A foul B B B B foul B+ B foul A A A A foul",
    "setup-options": "A A A",
}
SETUP_ROSTER = ("Олена", "Тарас", "Ірина", "Богдан")


def setup_samples() -> dict[str, dict]:
    """The match-over sample with the setup screen open, as the keys above leave it."""
    over = samples()["match-over"]
    a, b = over["players"]["A"], over["players"]["B"]
    settings = MatchSettings(players=(a, b), race=over["race"], target=over["target"])
    found = {}
    for name, keys in SETUP_KEYS.items():
        draft = model.open_draft(settings, SETUP_ROSTER)
        for key in keys.split():
            draft, _ = model.press(draft, key.rstrip("+"), held=key.endswith("+"))
        found[name] = over | {"setup": draft.view()}
    return found


def write_gallery(out: Path, *, scale: int = 4) -> list[Path]:
    """Writes <out>/<display>/<lang>/<sample>.png, scaled by whole pixels so the README
    shows sharp pixels; returns the files written."""
    written = []
    for name, image in gallery_images(scale=scale):
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, optimize=True)
        written.append(path)
    return written


def gallery_images(*, scale: int = 4):
    """The gallery's pictures as (<display>/<lang>/<sample>.png, image), not yet written."""
    cases = dict(samples()) | setup_samples()
    cases["play-faults"] = (cases["play"], {"faults": FAULTS})
    cases["saver"] = cases["play"]  # scoreboard/table/screen_saver.py
    cases["play-shot-clock"] = with_shot_clock(cases["play"])  # shot_clock.py
    snap, hint = ending_sample()  # a FOUL step that would end the frame, waiting (issue 34)
    cases["foul-ends-frame"] = (snap, {"hint": hint})
    for page in PAGES[1:]:  # the statistics pages of a match with fouls and time marks
        cases[f"match-over-{page}"] = cases["match-over-timed"] | {"page": page}
    for display in DISPLAYS:
        for lang in LANGUAGES:
            for name, case in cases.items():
                if name.startswith("setup") and panel(display).matrix:
                    continue  # the LED digits show the score, the setup screen is the OLED's
                snap, extra = case if isinstance(case, tuple) else (case, {})
                if name == "saver":  # the play sample under the moving saver, one step on
                    image = render_saver(snap, panel(display), 1).convert("RGB")
                else:
                    image = render(snap, panel(display), lang=lang, **extra).convert("RGB")
                size = (image.width * scale, image.height * scale)
                yield (
                    Path(display, lang, f"{name}.png"),
                    image.resize(size, Image.Resampling.NEAREST),
                )


def run(args) -> int:
    if args.scale < 1 or args.scale > 16:
        raise UsageError(f"--scale must be 1 to 16, not {args.scale}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a folder")
    written = write_gallery(out, scale=args.scale)
    print(f"wrote {len(written)} pictures under {out}/")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "gallery", help="render every screen on every display and language into a folder"
    )
    parser.add_argument("--out", default="docs/gallery", help="folder (default: docs/gallery)")
    parser.add_argument("--scale", type=int, default=4, help="whole-pixel zoom (default: 4)")
    parser.set_defaults(run=run)
