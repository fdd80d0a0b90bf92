"""The table process: the recorder, the panel, the setup flow and the presenter, wired by
wiring.py around one event loop; the phone's OK gate and the local socket's command table."""
