"""The pairing page (`/pair`, issue 12) in the display's language: its words come from the
display's gettext catalogs (scoreboard/texts/locale/), as the other pages' do (view.py);
the page's script says what a refusal means from its status, in those words too."""

import html
from importlib import resources
from string import Template

from scoreboard.net.view import words

# The page's words, by the name the page uses ($w_<name>).
PAIR_WORDS = {
    "title": "Pair this phone",
    "heading": "This table and your phone",
    "how": "At the table, hold UNDO until it asks, then press FOUL: type the code it shows here.",
    "code": "Code",
    "name": "This phone's name",
    "button": "Pair",
    "as": "Paired as",
    "undo": "Undo the last step",
    "ok_note": "The table asks for OK (A or B) before a change to a match in play.",
    "phones": "Paired phones",
    "unpair": "Unpair",
    "unpair_me": "Unpair me",
    "done": "Paired.",
    "wrong": "Wrong or expired code: at the table, hold UNDO, then press FOUL for a new one.",
    "locked": "Too many wrong codes: try again in a minute.",
    "malformed": "The code is six digits.",
    "waiting": "Waiting for OK at the table (A or B).",
    "no_table": "The table does not answer.",
    "refused": "Refused at the table.",
    "dropped": "Not done: nobody pressed OK, or a ball was played first.",
    "setup": "Next match",
    "player_a": "Player A",
    "player_b": "Player B",
    "race": "Race to (frames)",
    "target": "Points to win a frame",
    "breaker": "Who breaks",
    "keep": "as it is",
    "lag": "the lag decides",
    "send": "Set up",
    "this_match": "Set for this match: nothing is played yet.",
    "next_match": "Set for the next match: it starts when this one is over.",
    "on_screen": "On the table's setup screen: start it there with one press.",
    "new_match": "A new match has started.",
}


def pair_words(lang: str) -> dict[str, str]:
    t = words(lang)
    return {key: t.gettext(text) for key, text in PAIR_WORDS.items()}


def pair_page(lang: str) -> str:
    """The page's HTML in ``lang`` (an unknown language: the display's first)."""
    text = (resources.files(__package__) / "pages" / "pair.html").read_text(encoding="utf-8")
    fields = {f"w_{key}": html.escape(value) for key, value in pair_words(lang).items()}
    return Template(text).substitute(lang=html.escape(lang), **fields)
