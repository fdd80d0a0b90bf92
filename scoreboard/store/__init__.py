"""What is kept on disk: the journal and its durable writes, the storage faults, the sensor
board's pot ledger, the setup kept for the next match, and the history's rows and columns."""
