"""The `scoreboard` subcommands: one module each, every module has `register(subparsers)`."""

import importlib.util

PACKAGES = {"aiohttp": "aiohttp", "paho": "paho-mqtt"}  # a module, the package that brings it


class UsageError(Exception):
    """A command was given input it cannot use; the message says why (exit status 2)."""


def require(what: str, *modules: str) -> None:
    """UsageError saying which extra to install if any of `modules` is missing: the network
    side's libraries come with the `web` extra, and a plain `pip install .` has none."""
    missing = [PACKAGES.get(m, m) for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise UsageError(
            f"{what} needs {' and '.join(missing)}, which {verb} not installed. It comes with "
            "the scoreboard's `web` extra: pip install 'pyramid-scoreboard[web]' (from a "
            "clone: pip install '.[web]')"
        )
