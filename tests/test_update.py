"""`scoreboard update` (issue 23): a signed update, checked first, installed and rebooted
into only between matches; refused with words when the signature is not the club's."""

import subprocess

import pytest

from scoreboard.cli import main
from scoreboard.core.phase import Phase
from scoreboard.update import UpdateError, Updater, between_matches

BUNDLE = "/data/updates/scoreboard-0.2.0-arm64.raucb"
# What RAUC 1.8 says of a bundle signed by a key the keyring does not hold.
UNTRUSTED = "Failed to verify bundle signature: signature verification failed: unable to get local issuer certificate\n"


class Table:
    """RAUC and systemctl as the updater calls them, and a match whose phase moves on."""

    def __init__(self, phases, *, info=0, install=0):
        self.phases, self.calls = list(phases), []
        self.info, self.install_rc = info, install

    def snapshot(self):
        phase = self.phases.pop(0) if len(self.phases) > 1 else self.phases[0]
        self.calls.append(f"look: {phase}")
        return {"phase": phase, "setup": None}

    def run(self, argv):
        self.calls.append(" ".join(argv))
        if argv[:2] == ["rauc", "info"]:
            if self.info:
                return subprocess.CompletedProcess(argv, 1, "", UNTRUSTED)
            return subprocess.CompletedProcess(argv, 0, '{"version": "0.2.0"}', "")
        if argv[:2] == ["rauc", "install"]:
            return subprocess.CompletedProcess(argv, self.install_rc, "", "write failed\n")
        return subprocess.CompletedProcess(argv, 0, "", "")

    def updater(self):
        return Updater(
            BUNDLE,
            snapshot=self.snapshot,
            run=self.run,
            sleep=lambda s: None,
            say=self.calls.append,
        )


@pytest.mark.parametrize("phase", [p.value for p in Phase])
def test_only_before_the_lag_is_decided_or_after_the_match_is_between_matches(phase):
    assert between_matches({"phase": phase}) == (phase in ("lag", "match-over"))
    assert not between_matches({"phase": phase, "setup": {"mode": "edit"}})


def test_the_update_waits_for_the_match_and_reboots_only_between_matches():
    table = Table(["play", "foul", "match-over", "break", "match-over"])
    assert table.updater().install() == "0.2.0"
    calls = table.calls
    assert calls[0] == f"rauc info --output-format=json {BUNDLE}"  # the signature first
    installed = calls.index(f"rauc install {BUNDLE}")
    assert calls[installed - 1] == "installing 0.2.0 into the other slot"
    assert calls[installed - 2] == "look: match-over"  # not while play or foul
    assert "look: play" in calls[:installed] and "look: foul" in calls[:installed]
    rebooted = calls.index("systemctl reboot")
    # A match begun during the install (the break) finishes before the reboot.
    assert calls[installed + 1 : rebooted].count("look: break") == 1
    assert calls[rebooted - 2] == "look: match-over"


def test_an_update_not_signed_with_the_clubs_key_is_refused_and_nothing_is_written():
    table = Table(["lag"], info=1)
    with pytest.raises(UpdateError, match="not an update signed with this club's key") as e:
        table.updater().install()
    assert "unable to get local issuer certificate" in str(e.value)
    assert not any(c.startswith(("rauc install", "systemctl")) for c in table.calls)


def test_a_failed_install_never_reboots():
    table = Table(["lag"], install=1)
    with pytest.raises(UpdateError, match="write failed"):
        table.updater().install()
    assert "systemctl reboot" not in table.calls


def test_the_command_says_where_there_is_no_rauc(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["update", BUNDLE, "--state-dir", str(tmp_path)]) == 2
    assert "does not run from the card image" in capsys.readouterr().err
