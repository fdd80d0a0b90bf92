"""Pyramid Scoreboard: a scoreboard appliance for Free Pyramid (Russian billiards)."""

__version__ = "0.1.0"
