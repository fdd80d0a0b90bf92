"""The `scoreboard` subcommands: one module each, every module has `register(subparsers)`."""


class UsageError(Exception):
    """A command was given input it cannot use; the message says why (exit status 2)."""
