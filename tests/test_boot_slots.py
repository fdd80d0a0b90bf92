"""Which root slot a card boots (issue 23): image/root/usr/lib/scoreboard-image/boot-slots, the
script RAUC calls as its custom bootloader backend and the initramfs runs at every boot. Run
here under the machine's POSIX sh, on a state file of its own."""

import shlex
import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

SCRIPT = Path(__file__).resolve().parent.parent / "image/root/usr/lib/scoreboard-image/boot-slots"


class Card:
    def __init__(self, tmp_path: Path):
        self.state = tmp_path / "boot-slots"
        self.run_dir = tmp_path

    @property
    def env(self) -> dict:
        return {"BOOT_SLOTS_STATE": str(self.state), "PATH": "/usr/bin:/bin"}

    def call(self, *args, booted=None) -> subprocess.CompletedProcess:
        script = SCRIPT.read_text()
        if booted:  # /run/boot-slot.env, as the initramfs writes it
            (self.run_dir / "boot-slot.env").write_text(f"BOOT_SLOT={booted}\n")
            script = script.replace("/run/boot-slot.env", str(self.run_dir / "boot-slot.env"))
        return subprocess.run(
            ["sh", "-c", script, "boot-slots", *args], env=self.env, capture_output=True, text=True
        )

    def out(self, *args, **kw) -> str:
        done = self.call(*args, **kw)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def outs(self, calls) -> list[str]:
        """Each call's output, the calls run one after another by one sh (as `out` would
        run them, without a Python process start between them)."""
        lines = ["set -e"]
        for call in calls:
            lines += [f"sh {shlex.quote(str(SCRIPT))} {shlex.join(call)}", "echo ."]
        done = subprocess.run(
            ["sh", "-c", "\n".join(lines)], env=self.env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        outs = done.stdout.split(".\n")
        assert len(outs) == len(calls) + 1 and outs[-1] == "", done.stdout
        return [out.strip() for out in outs[:-1]]


def test_a_new_card_boots_slot_a_and_slot_b_is_empty(tmp_path):
    card = Card(tmp_path)
    assert card.out("choose") == "A"
    assert card.out("get-primary") == "A"
    assert (card.out("get-state", "A"), card.out("get-state", "B")) == ("good", "bad")
    assert not card.state.exists()  # a good slot's boot writes nothing
    assert card.call("trial", booted="A").returncode == 1


def test_an_update_boots_on_trial_and_is_kept_once_marked_good(tmp_path):
    card = Card(tmp_path)
    card.out("set-state", "B", "bad")  # RAUC, before it writes into B
    card.out("set-primary", "B")  # RAUC, once B is written
    assert card.out("choose") == "B"  # a try used up
    assert card.call("trial", booted="B").returncode == 0
    card.out("set-state", "B", "good")  # scoreboard-boot-check: READY=1 came
    assert card.call("trial", booted="B").returncode == 1
    for _ in range(5):
        assert card.out("choose") == "B"


def test_a_new_version_that_never_comes_up_is_rolled_back_after_its_two_tries(tmp_path):
    card = Card(tmp_path)
    card.out("set-primary", "B")
    assert [card.out("choose") for _ in range(4)] == ["B", "B", "A", "A"]
    assert card.out("get-primary") == "A" and card.out("get-state", "B") == "bad"


def test_a_power_cut_while_the_state_is_written_leaves_the_old_state(tmp_path):
    card = Card(tmp_path)
    card.out("set-primary", "B")
    # The new file was being written when the power went: the old one is whole and is used.
    (tmp_path / "boot-slots.new").write_text("PRIMARY=A\nA_STA")
    assert card.out("choose") == "B"
    card.state.write_text("garbage\x00PRIMARY=Q\n")  # a state no write of ours makes
    assert card.out("choose") == "A"


def test_a_wrong_call_is_refused_and_changes_nothing(tmp_path):
    card = Card(tmp_path)
    assert card.call("set-primary", "C").returncode == 2
    assert card.call("set-state", "A", "maybe").returncode == 2
    assert card.call("reboot").returncode == 2
    assert not card.state.exists()


CALLS = st.lists(
    st.one_of(
        st.tuples(st.just("set-primary"), st.sampled_from("AB")),
        st.tuples(st.just("set-state"), st.sampled_from("AB"), st.sampled_from(["good", "bad"])),
        st.tuples(st.just("choose")),
    ),
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(CALLS)
def test_a_card_always_boots_a_slot_that_is_not_bad_while_one_is_not(calls):
    import tempfile

    with tempfile.TemporaryDirectory() as where:
        card = Card(Path(where))
        *_, state_a, state_b, chosen = card.outs(
            [*calls, ("get-state", "A"), ("get-state", "B"), ("choose",)]
        )
        states = {"A": state_a, "B": state_b}
        assert chosen in "AB"
        if "good" in states.values():
            assert states[chosen] == "good", (calls, states, chosen)
