"""What takes an input before the panel, in order: the first that takes it ends it, and the
screens are drawn again. Each filter is ``taken(event, answer) -> bool``; `answer` says the
input answers the question UNDO held asked, which only the panel may take.

1. the screen saver: a press that wakes the saver does nothing else;
2. the phone control: a press that closes the pairing code or answers a phone's request;
3. the statistics pages: FOUL between frames turns the page (not over the setup screen, and
   not while it is about the stroke that ended the frame: GR-22.3, the panel's);
4. the shot clock: the striker's own button asks for his extension.
"""

from scoreboard.inputs.events import Button, ButtonPress


def standard_filters(app) -> list:
    """The table's filters in their order (the wiring may add its own before or after)."""

    def saver(event, answer) -> bool:
        return app.saver.woken_by(event)

    def phone(event, answer) -> bool:
        if app.phone.takes(event):
            app.show()
            return True
        return False

    def pages(event, answer) -> bool:
        if answer or app.desk.is_open or _late_foul(app, event):
            return False
        if not app.pages.takes(event, app.match.phase):
            return False
        app.show()  # FOUL between frames turns the statistics page (stats_pages.py)
        return True

    def shot_clock(event, answer) -> bool:
        shown = app.presenter.shown
        if answer or not shown or not app.shot_clock.takes(event, shown.snapshot):
            return False
        app.show()  # the striker's own button: his extension (shot_clock.py)
        return True

    return [saver, phone, pages, shot_clock]


def _late_foul(app, event) -> bool:
    """FOUL within the window of the stroke that ended the frame: that stroke's foul (GR-22.3)."""
    return _is_foul(event) and not app.confirm.final() and app.panel.takes_foul(event.t)


def _is_foul(event) -> bool:
    return isinstance(event, ButtonPress) and event.button == Button.FOUL
