"""The setup screen's logic alone (table/setup/model.py): what each button does in each mode."""

from scoreboard.core.settings import NAME_LETTERS, MatchSettings
from scoreboard.table.setup import model
from scoreboard.table.setup.model import CLOSE, START, Draft, letters, open_draft, press

SETTINGS = MatchSettings(players=("Олена", "Тарас"), race=3, lang="uk")


def run(draft: Draft, keys: str) -> tuple[Draft, list]:
    asked = []
    for key in keys.split():
        draft, asks = press(draft, key.rstrip("+"), held=key.endswith("+"))
        asked.append(asks)
    return draft, asked


def typing(alphabet="uk") -> Draft:
    d = open_draft(MatchSettings(players=("Олена", "Тарас"), lang=alphabet), ())
    d, _ = run(d, "B foul A foul")  # player A, New name (the list wraps round)
    assert d.mode == "letters"
    return d


def type_sign(d: Draft, sign: str) -> Draft:
    assert d.mode == "letters" and sign in d.ring()
    while d.ring()[d.at] != sign:
        d, _ = press(d, "B")
    d, _ = press(d, "foul")
    return d


def test_it_opens_on_start_so_a_rematch_is_one_foul():
    d = open_draft(SETTINGS, ())
    assert d.current == "start" and press(d, "foul") == (d, START)


def test_undo_on_the_menu_closes_and_a_and_b_move_round():
    d = open_draft(SETTINGS, ())
    assert press(d, "undo")[1] == CLOSE
    d, _ = run(d, "A")
    assert d.current == model.ROWS[-1] == "lang"
    d, _ = run(d, "B B")
    assert d.current == "player-a"


def test_a_held_button_steps_the_race_by_five_within_its_limits():
    d, _ = run(open_draft(SETTINGS, ()), "B B B foul B+ B+")
    assert d.settings.race == 13
    d, _ = run(d, "A+ A+ A+ A+")
    assert d.settings.race == 1  # never below 1
    d, _ = run(d, "foul")
    assert d.mode == "menu" and d.settings.race == 1


def test_target_stays_within_fp_1():
    d, _ = run(open_draft(SETTINGS, ()), "B B B B foul B+ B+")
    assert d.settings.target == 8


def test_every_option_and_breaker_value_is_reached_and_cycles_back():
    d = open_draft(SETTINGS, ())
    for row in ("breaker", *(r for r in model.ROWS if r.startswith("option:")), "lang"):
        while d.current != row:
            d, _ = press(d, "B")
        d, _ = press(d, "foul")
        seen = {str(d.view()["settings"])}
        for _ in range(5):
            d, _ = press(d, "B")
            seen.add(str(d.view()["settings"]))
        assert len(seen) >= 2, row
        d, _ = press(d, "undo")  # back as it was
        assert d.settings == SETTINGS


def test_letters_capitalise_each_word_and_undo_deletes():
    d = typing()
    for sign in ("О", "Л", "Я", "-", "М", " ", "К"):
        d = type_sign(d, sign)
    assert d.typed == "Оля-М К"
    d, _ = run(d, "undo undo")
    assert d.typed == "Оля-М"


def test_a_name_never_starts_with_a_space_nor_holds_two():
    d = type_sign(typing(), " ")
    assert d.typed == ""
    d = type_sign(type_sign(d, "Я"), " ")
    d = type_sign(d, " ")
    assert d.typed == "Я "


def test_the_alphabet_sign_goes_uk_ru_en():
    d = typing()
    d = type_sign(d, model.NEXT_ALPHABET)
    assert d.alphabet == "ru" and "Ы" in d.ring()
    d = type_sign(d, model.NEXT_ALPHABET)
    assert d.alphabet == "en" and "W" in d.ring()
    d = type_sign(type_sign(d, "W"), "O")
    assert d.typed == "Wo"


def test_twelve_letters_at_most():
    d = typing()
    for _ in range(NAME_LETTERS):
        d = type_sign(d, "А")
    assert len(d.typed) == NAME_LETTERS
    while d.ring()[d.at] != "Б":
        d, _ = press(d, "B")
    d, asks = press(d, "foul")
    assert asks == "setup-name-full" and len(d.typed) == NAME_LETTERS


def test_done_gives_the_player_the_name_and_an_empty_one_goes_back_to_the_list():
    d = type_sign(typing(), model.DONE)
    assert d.mode == "pick" and d.names()[d.choice] == model.NEW_NAME
    d, _ = run(d, "foul")
    d = type_sign(type_sign(d, "Я"), model.DONE)
    assert d.mode == "menu" and d.settings.players == ("Я", "Тарас")


def test_undo_with_nothing_typed_goes_back_to_the_list_then_the_menu():
    d, _ = run(typing(), "undo")
    assert d.mode == "pick"
    d, _ = run(d, "undo")
    assert d.mode == "menu" and d.settings == open_draft(d.settings, ()).settings


def test_a_draft_comes_back_from_its_dict_exactly_and_a_stale_one_from_the_menu():
    d = type_sign(typing(), "Ж")
    assert Draft.from_dict(d.to_dict(), ()) == d
    broken = d.to_dict() | {"at": 999}
    assert Draft.from_dict(broken, ()).mode == "menu"


def test_the_ring_puts_done_first():
    assert letters("en")[:3] == (model.DONE, model.DELETE, model.NEXT_ALPHABET)
    assert letters("uk")[3] == "А" and "Ґ" in letters("uk") and "Ё" in letters("ru")
