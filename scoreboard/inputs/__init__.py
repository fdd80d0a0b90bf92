"""Inputs from the table: buttons, pocket sensors on GPIO, and the sensor-board link."""
