"""What the screens show now, built once per picture by the presenter."""

from scoreboard.core.phase import Phase
from scoreboard.core.settings import assign_of


def scene(
    recorder, desk, pages, shot_clock, faults, confirm, *, call_later, show
) -> tuple[dict, tuple]:
    """What the screens show now: the match, and over it the setup screen, the page
    between frames or the shot's time; the faults, the disk's first."""
    shown = (*faults.shown(), *recorder.ledger.faults())
    if (not_saved := recorder.storage.shown_fault()) is not None:
        shown = (not_saved, *shown)  # first: it is what the table must know now
        recorder.storage.keep_trying(call_later, show)
    snapshot = recorder.match.snapshot()
    if snapshot["phase"] == Phase.LAG and (game := assign_of(recorder.storage.lines)):
        snapshot["game"] = game  # the club's game it waits for (issue 22): the screens only
    if (confirmation := confirm.state()) is not None:  # match over: who confirmed (issue 34)
        snapshot["confirmation"] = confirmation.view()
    if desk.is_open:  # the setup screen over the match (docs/ARCHITECTURE.md)
        snapshot["setup"] = desk.view()
    pages.follow(snapshot["phase"])
    if pages.current:  # which page between frames: for the screens only
        snapshot["page"] = pages.current
    shot_clock.follow(snapshot)
    if clock := shot_clock.view():  # the shot's time: for the screens only
        snapshot["shot_clock"] = clock
    return snapshot, shown
