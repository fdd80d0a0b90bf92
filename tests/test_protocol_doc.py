"""firmware/PROTOCOL.md says what the code does: the lost-board timeout is the config's."""

import re
from pathlib import Path

from scoreboard.config import SensorsConfig

PROTOCOL = (Path(__file__).resolve().parent.parent / "firmware" / "PROTOCOL.md").read_text()


def test_the_lost_board_timeout_in_the_protocol_is_the_configs():
    said = re.search(
        r"declares the board lost.*?after\s+`\[sensors\] heartbeat_timeout`\s+\(default ([\d.]+) s\)",
        PROTOCOL,
        re.S,
    )
    assert said, "PROTOCOL.md must name [sensors] heartbeat_timeout and its default"
    assert float(said.group(1)) == SensorsConfig().heartbeat_timeout
