"""The version a table runs: the package's, or on a card image the image's release.

image/build writes /etc/scoreboard-release into the root (VERSION=, COMMIT=, BUILT=); an
update replaces the whole root, and with it this file, so the club's page shows what each
table booted. Elsewhere (a Pi installed with systemd/install.sh, a laptop) the package's."""

from pathlib import Path

from scoreboard import __version__

RELEASE = Path("/etc/scoreboard-release")


def fields(release: Path = RELEASE) -> dict[str, str]:
    """The release file's KEY=value lines; {} where there is none (not a card image)."""
    try:
        text = release.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def version(release: Path = RELEASE) -> str:
    return fields(release).get("VERSION") or __version__
