"""The one catalog of what the table says: hints, faults, foul kinds and the disk's problems.

Every face reads it: the OLED and LED screens (display/screens/), the phones' page, the socket
and MQTT (net/view.py), the simulator's words, the log. The strings are gettext msgids: the
translations are in locale/*/LC_MESSAGES/scoreboard.po (`python -m scoreboard.texts.catalogs`).
"""

# Foul kinds as RULES.md names them; the clause is where each is defined.
KINDS = {
    "cue-tip": "not the cue tip",  # GR-5.1
    "feet": "no foot on floor",  # GR-5.2
    "no-contact": "no contact",  # GR-6.2, GR-6.4
    "out-of-turn": "out of turn",  # GR-7.3
    "illegal-break": "illegal break",  # GR-13.1
    "early-stroke": "balls still moving",  # GR-15.2
    "touched-ball": "touched a ball",  # GR-16
    "double-hit": "double hit",  # GR-17
    "push": "push",  # GR-18, GR-19.1
    "jumped-ball": "ball off the table",  # FP-8, D-4
    "other": "other",
}

MESSAGES = {
    "board-lost": "Sensor board lost",
    "sensor-stuck": "Pocket {pocket}: stuck",
    "sensor-silent": "Pocket {pocket}: silent",
    # Board pots that could not be counted (scoreboard/store/pot_ledger.py, PROTOCOL.md).
    "board-bad-pocket": "Bad pocket: {count}",
    "board-pots-lost": "Pots lost: {count}",
    "board-pots-dropped": "Board full: {count}",
    "board-edges-missed": "Edges missed: {count}",
    "board-firmware": "Update firmware",
}

# The journal cannot be written (scoreboard/store/storage.py): the match goes on in memory. One
# row of a 128 px display cannot say it all, so the fault turns a page every couple of
# seconds: that it is not saved, what is wrong, what to do, and where.
NOT_SAVED = "Not saved"
# Each problem once: the screen's few words (translated), what to do there, and the log's and
# `scoreboard status`'s sentence with its advice (English, for whoever reads the log).
DISK = {
    "full": ("Disk is full", "Free disk space", "the disk is full", "free some space on it"),
    "read-only": (
        "Disk is read-only",
        "Remount read-write",
        "the disk is read-only",
        "remount it read-write",
    ),
    "denied": (
        "No write access",
        "Fix permissions",
        "no permission to write",
        "fix the owner and permissions (or chattr -i)",
    ),
    "not-a-folder": (
        "State dir is a file",
        "Move the file away",
        "a file stands where the state folder should be",
        "move that file away",
    ),
    "folder": (
        "Journal is a dir",
        "Move the dir away",
        "a folder stands where the journal should be",
        "move that folder away",
    ),
    "in-use": (
        "In use elsewhere",
        "Stop the other one",
        "another scoreboard process holds the state folder",
        "stop the other process",
    ),
    "broken": ("Disk error", "Check the disk", "the disk failed", "check the disk and its cable"),
}
WHAT_IS_WRONG = {key: words[0] for key, words in DISK.items()}
TO_DO = {key: words[1] for key, words in DISK.items()}
DISK_SAID = {key: words[2] for key, words in DISK.items()}
DISK_ADVICE = {key: words[3] for key, words in DISK.items()}

# Hints the panel gives (scoreboard/table/panel.py), by key: an input this phase ignored, or
# what to do next. Keys not here are shown as given.
HINTS = {
    "who-breaks": "Who breaks? Press",
    "hold-to-pot": "Hold {hold}: +1 ball",
    "not-your-turn": "Not your turn",
    "two-buttons": "One button at a time",
    "penalty-ball": "Penalty ball taken",
    "ball-after-frame": "Press to go on",
    "choose": "Choose: A or B",
    "match-over": "UNDO {undo_hold}: new match",
    "nothing-to-undo": "Nothing to undo",
    # UNDO held asks (panel.py): UNDO again a new match, FOUL a code to pair a phone.
    "confirm-new-match": "UNDO new, FOUL phone",
    "refused": "Not allowed now",
    # What an UNDO, a lapse or a correction did (issue 11): said once, briefly.
    "undone-foul": "Undone: {name}'s foul",
    "undone-pots": "Undone: {name} +{n}",
    "undone-miss": "Undone: {name}'s miss",
    "undone-choice": "Undone: the choice",
    "undone-break": "Undone: who breaks",
    "undone-next": "Undone: next frame",
    "undone-lapse": "Undone: the lapse",
    "undone-foul-pots": "Undone foul: {name} +{n}",  # the FOUL press: the shot's balls back
    "undone-kind": "Foul back to: {kind}",  # a kind step
    "undone-no-foul": "Foul again: {kind}",  # "no foul"
    "undone-not-a-ball": "Ball back: {name} +{n}",  # a stuck beam's retract
    "lapsed": "Point taken back: {name}",
    "no-lapse": "Nothing to take back",  # FOUL held with none (FP-7 note): nothing else
    "lapsed-back": "Point given back: {name}",  # CV-1: the offender kept his ball
    "time-up": "Time is up: {name}",  # the shot clock, advisory (shot_clock.py)
    "extension": "Extension: {name}",  # the striker's one extension this frame
    "foul-kind": "Foul {name}: {kind}",  # whose foul the kind is (out-of-turn: the other's)
    "foul-cancelled": "No foul: as before",
    # A FOUL step that would end the frame waits (table/foul_steps.py): said with its own
    # consequence, whose point and the score it ends on (issue 34). The OLEDs draw it as a
    # screen of its own (display/screens/foul_pending.py).
    "foul-ends-frame": "Foul {name}: {kind}; +{n} {gainer}: frame ends {score}",
    "foul-ends-match": "Foul {name}: {kind}; +{n} {gainer}: match ends {score}",
    "no-foul-ends-frame": "No foul: +{n} {gainer}, frame ends {score}",
    "no-foul-ends-match": "No foul: +{n} {gainer}, match ends {score}",
    # GR-15.1: a ball sensed just after a miss press fell on the stroke called a miss.
    "miss-ball": "Still rolling: {name} +1",
    "match-restored": "The last match is back",
    "config-applied": "New settings: this match",
    "config-next-match": "New settings: next match",
    "config-refused": "Config error: not taken",
    # The setup screen (scoreboard/table/setup/) and settings sent for the next match.
    "setup-same-name": "Same name twice",
    "setup-name-full": "12 letters at most",
    "setup-next-match": "Next match is set",
    "not-a-ball": "Pocket {pocket}: not a ball",
    "check-score": "Pocket {pocket}: check score",
    # Phones (issue 12, scoreboard/table/phone_control.py): pairing, and a change a phone asks for.
    "phone-code-asked": "Asking for a code…",
    "phone-no-network": "Network is off",
    "phone-paired": "Phone paired",
    "phone-undo": "Phone undo? OK: A/B",
    "phone-refused": "Phone: refused",
    # The players confirm a match's result (issue 34, scoreboard/table/result_confirm.py).
    "confirmed-by": "Confirmed: {name}",
    "confirm-waits": "Waiting for {name}",
    "result-confirmed": "Result confirmed",
    "result-final": "Result is final",  # UNDO, FOUL or a ball once it is closed: nothing
}


# The hints of a FOUL step that waits because it would end the frame or the match.
ENDING_HINTS = ("foul-ends-frame", "foul-ends-match", "no-foul-ends-frame", "no-foul-ends-match")


def hint_fields(hint, t) -> tuple[str, dict]:
    """A hint's key and its fields, a foul kind in words: ``("lapsed", {"name": "Taras"})``."""
    key, fields = hint if isinstance(hint, tuple) else (hint, ())
    fields = dict(fields)
    if "kind" in fields:
        fields["kind"] = t.gettext(KINDS.get(fields["kind"], KINDS["other"]))
    return key, fields


def hint_text(hint, t) -> str:
    """A hint as a sentence in the display's language (for text screens: the simulator's)."""
    key, fields = hint_fields(hint, t)
    return t.timed(HINTS[key]).format(**fields) if key in HINTS else str(key)
