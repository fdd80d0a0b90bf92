"""The `scoreboard` subcommands: one module each, every module has `register(subparsers)`."""
