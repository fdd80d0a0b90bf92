"""A player's name reads as it is on every screen: no character that is not shown as itself
(issue 20: a right-to-left override in a name passed the config and showed reversed)."""

import pytest

from scoreboard.core.settings import name_problem
from scoreboard.rules.setup import hidden_characters


@pytest.mark.parametrize(
    "name",
    ["Ta\u202eras", "Ta\u200bras", "Ta\u200dras", "\ufeffTaras", "Ta\x00ras", "Ta\x1bras",
     "Ta\x7fras", "Ta\x85ras", "Ta\tras"],
)  # fmt: skip
def test_a_control_or_format_character_is_hidden_and_refused_as_a_name(name):
    assert hidden_characters(name)
    assert "no control or format characters" in name_problem(name)


@pytest.mark.parametrize(
    "name", ["Taras", "Олена", "Олександра-Вікторія", "Ünterberg", "O'Neil", "A B"]
)
def test_letters_digits_spaces_and_marks_are_shown_as_they_are(name):
    assert not hidden_characters(name)
    assert name_problem(name) is None
