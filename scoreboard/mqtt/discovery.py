"""Home Assistant MQTT discovery for a table: four sensors (score, frames, phase, fault) on
one device, retained under ``homeassistant/sensor/<table>/<sensor>/config`` and sent again
whenever Home Assistant says ``online`` on ``homeassistant/status`` (it restarted)."""

from scoreboard.mqtt import topics

PREFIX = "homeassistant"
STATUS = f"{PREFIX}/status"

# sensor -> (its name, the topic it reads, the template that turns the payload into a value)
SENSORS = {
    "score": (
        "Score",
        topics.STATE,
        "{{ value_json.score.A }}:{{ value_json.score.B }}",
    ),
    "frames": (
        "Frames",
        topics.STATE,
        "{{ value_json.frames.A }}:{{ value_json.frames.B }}",
    ),
    "phase": ("Phase", topics.STATE, "{{ value_json.phase }}"),
    "fault": (
        "Fault",
        topics.FAULTS,
        "{{ value_json.faults | map(attribute='kind') | join(', ') if value_json.faults else 'none' }}",
    ),
}


def config_topic(table: str, sensor: str) -> str:
    return f"{PREFIX}/sensor/{table}/{sensor}/config"


def messages(table: str, *, name: str, version: str) -> list[tuple[str, dict]]:
    """(topic, payload) of every sensor's discovery message for `table`."""
    device = {
        "identifiers": [f"fp_{table}"],
        "name": f"Pyramid {name or table}",
        "manufacturer": "Pyramid Scoreboard",
        "model": "Free Pyramid scoreboard",
        "sw_version": version,
    }
    out = []
    for sensor, (title, source, template) in SENSORS.items():
        payload = {
            "name": title,
            "unique_id": f"fp_{table}_{sensor}",
            # the entity's id, as Home Assistant asks since 2025.10 (`object_id`, its old
            # name, is ignored from 2026.4)
            "default_entity_id": f"sensor.fp_{table}_{sensor}",
            "state_topic": topics.topic(table, source),
            "value_template": template,
            "availability_topic": topics.topic(table, topics.AVAILABILITY),
            "payload_available": topics.ONLINE,
            "payload_not_available": topics.OFFLINE,
            "device": device,
        }
        if sensor == "score":  # the whole state as attributes: names, striker, foul ...
            payload["json_attributes_topic"] = topics.topic(table, topics.STATE)
        out.append((config_topic(table, sensor), payload))
    return out
