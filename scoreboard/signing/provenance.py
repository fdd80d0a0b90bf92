"""Where a kept result came from (issue 34), in the words the desk, the exports and `scoreboard
verify` use: a table's signed result says whether both players confirmed it at the table (its
`confirmation`: "confirmed", "timed-out", or null / absent for a match not confirmed, e.g. one
abandoned before); a result the staff entered or corrected at the desk says who."""

CONFIRMED = "confirmed at the table by both"
TIMED_OUT = "timed out at the table"
NOT_CONFIRMED = "not confirmed"
NOT_SIGNED = "not signed"  # a table before issue 34, taken by a club that checks no keys
BY_TABLE = {"confirmed": CONFIRMED, "timed-out": TIMED_OUT}


def of_result(result: dict) -> str:
    """A table's result's provenance, from its own (signed) word on its confirmation."""
    if not isinstance(result.get("signature"), str):
        return NOT_SIGNED
    return BY_TABLE.get(result.get("confirmation"), NOT_CONFIRMED)


def of_staff(recorded_by: str) -> str:
    """A result the staff entered: `recorded_by` as the club keeps it ("staff Ira")."""
    return f"entered by {recorded_by or 'staff'}"


def by_staff(recorded_by) -> bool:
    return isinstance(recorded_by, str) and recorded_by.split(" ")[0] == "staff"
