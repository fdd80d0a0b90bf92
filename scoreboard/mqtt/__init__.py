"""The tables together over MQTT (issue 12): the table's publisher, which runs in the network
process (`scoreboard net`), never in the display loop.

- `topics.py`: the topics under ``fp/v1/<table>/`` and their payloads (docs/API.md "MQTT");
- `discovery.py`: Home Assistant's discovery messages for a table;
- `results.py`: finished matches kept until the broker has acknowledged them (PUBACK);
- `publisher.py`: the paho client that joins the table's socket (scoreboard/bridge/) to the
  broker, and signs each result with the table's key (scoreboard/signing/).
"""
