"""The web pages' texts, made from the display's catalogs (scoreboard/net/view.py)."""

from scoreboard.bridge.protocol import state_message
from scoreboard.core.matchlog import replay
from scoreboard.net.view import view


def test_the_view_says_the_foul_and_what_to_spot_in_the_displays_language():
    snap = replay(["players Олена Тарас", "break A", "shot pots=2 foul=push"]).snapshot()
    for lang, words in (
        ("en", ["FOUL: push", "+1 Тарас: takes ball", "Spot 2 balls"]),
        ("uk", ["ШТРАФ: пропих"]),
    ):
        v = view(state_message(snap, faults=[{"kind": "sensor-stuck", "pocket": 3}], lang=lang))
        assert v["foul"][: len(words)] == words
    assert view(state_message(snap, lang="en", faults=[{"kind": "board-lost"}]))["faults"] == [
        "Sensor board lost"
    ]


def test_a_watchers_page_says_who_chooses_what_after_a_foul():
    """Issue 22: the page said "Choose: A or B" (the table's buttons) to people without them."""
    after_break = replay(["players Олена Тарас", "break A", "shot pots=2 foul=push"]).snapshot()
    in_play = replay(["players Олена Тарас", "break A", "shot pots=1", "shot", "shot foul=push"])
    v = view(state_message(after_break, lang="en"))
    assert v["headline"] == "Тарас chooses: play on, hand the shot over, or rack again"
    v = view(state_message(in_play.snapshot(), lang="uk"))
    assert v["headline"] == "Вибирає Олена: бити самому або віддати удар суперникові"
