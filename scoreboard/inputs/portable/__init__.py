"""Plain Python shared by the host and the sensor board: runs on CPython and MicroPython.

Keep this package free of typing, dataclasses and anything MicroPython lacks; the
firmware copies it to the board as /lib/portable (see hardware/README.md).
"""
