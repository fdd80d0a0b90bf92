"""The one exception the rules core raises: a refusal with a reason a person can read."""


class RuleError(ValueError):
    """An event the rules (or the current phase) do not allow; ``str(err)`` says why."""
