"""The table's side of phone control (issue 12): the pairing code on its OLEDs, and the OK
press a phone's change to a match in play waits for. No network here: the net process
(`scoreboard net`, scoreboard/net/) decides who is paired and asks through the local socket.
"""
