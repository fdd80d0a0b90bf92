"""The simulator: the real appliance on gpiozero's MockFactory pins, a simulated sensor board
behind a pseudo-terminal, and luma's emulated displays, driven from the keyboard.

Keys: a / b press a player's button, A / B hold it, f FOUL, F hold FOUL, u UNDO, U hold UNDO,
1-6 a ball falls into that pocket, l the next display language (uk, ru, en), q quits.

    table.py     the keys: mock pins pressed and held, balls dropped into the board
    terminal.py  the emulated display and the text fitted into the terminal's size
    session.py   one run: the appliance, the table, the terminal and the keyboard

It needs luma.emulator (the `sim` extra); `scoreboard sim` says so when it is missing.
"""

from scoreboard.sim.session import run_sim

__all__ = ["run_sim"]
