"""The one exception the rules core raises: a refusal with a reason a person can read."""


class RuleError(ValueError):
    """An event the rules (or the current phase) do not allow; ``str(err)`` says why.

    ``hint`` is what the table's display says of it (a key of the display's messages).
    """

    def __init__(self, reason: str, hint: str = "refused") -> None:
        super().__init__(reason)
        self.hint = hint
