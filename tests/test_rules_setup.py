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


@pytest.mark.parametrize("name", ["Taras", "Олена", "Олена-Віра", "Ünterberg", "O'Neil", "A B"])
def test_letters_digits_spaces_and_marks_are_shown_as_they_are(name):
    assert not hidden_characters(name)
    assert name_problem(name) is None


def test_one_name_limit_everywhere_a_name_comes_in_12_letters():
    """Issue 20: 12 letters on the setup screen, 20 through /api/roster, 16 in the config:
    now 12 everywhere (core/settings.py NAME_LETTERS)."""
    from scoreboard import config as configuration
    from scoreboard.core.settings import NAME_LETTERS, MatchSettings, SettingsError
    from scoreboard.store.setup_store import roster_names

    assert NAME_LETTERS == 12
    twelve, thirteen = "Олександрина", "Олександрина1"
    assert name_problem(twelve) is None and "at most 12" in name_problem(thirteen)
    assert roster_names([twelve]) == (twelve,)
    with pytest.raises(SettingsError, match="at most 12"):
        roster_names([thirteen])
    with pytest.raises(SettingsError, match="at most 12"):
        MatchSettings.from_dict({"players": [thirteen, "Taras"]})  # a phone's, the club's
    configuration.loads(f'[match]\nplayer_a = "{twelve}"\n')
    with pytest.raises(configuration.ConfigError, match="1 to 12"):
        configuration.loads(f'[match]\nplayer_a = "{thirteen}"\n')
    with pytest.raises(configuration.ConfigError, match="1 to 12"):
        configuration.loads(f'[match]\nroster = ["{thirteen}"]\n')
