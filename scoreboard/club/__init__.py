"""`scoreboard club`: the club's screen (issue 12). It subscribes to every table on the
club's MQTT broker and serves the hall TV's all-tables page, any table's overlay, the staff's
setup of each table's next match (published as the table's `assign`) and a day's results.

- `hall.py`: what the club knows of each table, from the topics (pure);
- `results.py`: the finished matches, kept on disk once each, a day's as CSV;
- `table_keys.py`: each result checked against its table's key, as the staff approved it;
- `broker.py`: the paho client: subscribes, hands messages to the asyncio loop, publishes assign;
- `server.py`: the aiohttp app (pages in `static/`, the API, Server-Sent Events).
"""
