"""Players' names (issue 11): two different names always, in the config, the log and at start."""

import pytest
from matchplay import play

from scoreboard import config as configuration
from scoreboard.core.matchlog import LogError
from scoreboard.table.recorder import setup_lines


@pytest.mark.parametrize("b", ["Олена", "олена", " Олена "])
def test_the_config_refuses_the_same_name_twice_and_says_where(b):
    with pytest.raises(configuration.ConfigError) as err:
        configuration.loads(f'[match]\nplayer_a = "Олена"\nplayer_b = "{b}"\n')
    assert err.value.key == "match.player_b" and err.value.line == 3
    assert "must differ from match.player_a" in str(err.value)


@pytest.mark.parametrize(
    "lang, names",
    [
        ("uk", ("Гравець 1", "Гравець 2")),
        ("ru", ("Игрок 1", "Игрок 2")),
        ("en", ("Player 1", "Player 2")),
    ],
)
def test_without_names_a_match_starts_with_two_different_ones_in_the_display_language(lang, names):
    c = configuration.loads(f'[display]\nlanguage = "{lang}"\n')
    assert (c.match.player_a, c.match.player_b) == names
    s = play("\n".join(setup_lines(c)))
    assert s["players"] == {"A": names[0], "B": names[1]}


def test_a_log_naming_one_player_twice_is_refused():
    with pytest.raises(LogError, match="line 1: the two players need different names"):
        play("players Taras taras")
