"""Pairing codes (issue 12, docs/threat-model.md): single use, 120 s, five wrong lock a minute."""

import pytest

from scoreboard.net.pairing import (
    CODE_LIFETIME,
    LOCK_SECONDS,
    MAX_WRONG,
    Pairing,
    PairingRefused,
)
from scoreboard.table.loop import ManualClock


def wrong_for(code: str) -> str:
    return f"{(int(code) + 1) % 10**6:06d}"


def refused(pairing: Pairing, typed: str) -> str:
    with pytest.raises(PairingRefused) as caught:
        pairing.redeem(typed)
    return caught.value.reason


def test_a_code_is_six_digits_and_good_once():
    pairing = Pairing(clock=ManualClock())
    code = pairing.new_code().code
    assert len(code) == 6 and code.isdigit()
    pairing.redeem(code)
    assert refused(pairing, code) == "wrong"  # used up
    assert pairing.current() is None


def test_a_code_expires_after_120_seconds():
    clock = ManualClock()
    pairing = Pairing(clock=clock)
    code = pairing.new_code().code
    clock.advance(CODE_LIFETIME - 0.1)
    assert pairing.current().code == code
    clock.advance(0.1)
    assert pairing.current() is None
    assert refused(pairing, code) == "wrong"


def test_a_new_code_replaces_the_old_one():
    pairing = Pairing(clock=ManualClock())
    first = pairing.new_code().code
    second = pairing.new_code().code
    if first != second:
        assert refused(pairing, first) == "wrong"
    pairing.redeem(second)


def test_five_wrong_codes_lock_pairing_for_a_minute_the_right_code_too():
    clock = ManualClock()
    pairing = Pairing(clock=clock)
    code = pairing.new_code().code
    reasons = [refused(pairing, wrong_for(code)) for _ in range(MAX_WRONG)]
    assert reasons == ["wrong"] * (MAX_WRONG - 1) + ["locked"]
    clock.advance(LOCK_SECONDS - 1)
    assert refused(pairing, code) == "locked"
    assert pairing.locked_for() == pytest.approx(1)
    clock.advance(1)
    pairing.redeem(code)  # the lock is over and the code still good (120 s)


def test_a_guesser_gets_at_most_ten_tries_at_one_code():
    clock = ManualClock()
    pairing = Pairing(clock=clock)
    code = pairing.new_code().code
    judged = 0
    while pairing.current() is not None:
        if pairing.locked_for() == 0:
            refused(pairing, wrong_for(code))
            judged += 1
        clock.advance(0.5)
    assert judged == 2 * MAX_WRONG


def test_the_right_code_resets_the_wrong_count():
    pairing = Pairing(clock=ManualClock())
    code = pairing.new_code().code
    for _ in range(MAX_WRONG - 1):
        refused(pairing, wrong_for(code))
    pairing.redeem(code)
    code = pairing.new_code().code
    assert refused(pairing, wrong_for(code)) == "wrong"  # one wrong, not the fifth


@pytest.mark.parametrize("typed", ["12345", "1234567", "12a456", "١٢٣٤٥٦", None, 123456])
def test_something_that_is_not_six_digits_is_no_guess(typed):
    pairing = Pairing(clock=ManualClock())
    code = pairing.new_code().code
    for _ in range(MAX_WRONG + 1):
        assert refused(pairing, typed) == "malformed"
    pairing.redeem(code)


def test_with_no_code_shown_every_code_is_wrong():
    pairing = Pairing(clock=ManualClock())
    assert refused(pairing, "000000") == "wrong"
