"""The phases of the frame lifecycle (`lifecycle.py` moves between them; everything else reads them).

A `StrEnum`, so a phase is still the plain word in the snapshot, the JSON and the journal.
"""

from enum import StrEnum


class Phase(StrEnum):
    LAG = "lag"  # GR-8: before the first frame, who breaks is being decided
    BREAK = "break"  # GR-13: the opening break of a frame is next
    PLAY = "play"
    FOUL = "foul"  # GR-7.4: a foul waits for the next player's choice
    BREAK_FOUL = "break-foul"  # GR-13.2: a foul on the break waits for its choice
    FRAME_OVER = "frame-over"  # FP-1
    MATCH_OVER = "match-over"  # D-5


SHOOTING = (Phase.BREAK, Phase.PLAY)  # a striker is at the table
CHOOSING = (Phase.FOUL, Phase.BREAK_FOUL)  # a decider chooses after a foul
IN_FRAME = (*SHOOTING, *CHOOSING)
OVER = (Phase.FRAME_OVER, Phase.MATCH_OVER)
