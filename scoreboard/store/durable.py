"""Small files replaced whole and durably: a temporary file written and fsynced, renamed over
the old one, then the folder fsynced, so a power cut leaves the old file or the new, never half.

The journal's archive, the setup screen's `setup.json` and the paired phones' `phones.json`
are kept this way (the journal itself is appended to: `journal.py`).
"""

import os
from collections.abc import Callable
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """Make a folder's entries (a file created, renamed or removed) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_file(
    path: Path,
    data: bytes,
    *,
    mode: int = 0o644,
    before_rename: Callable[[int], None] | None = None,
) -> None:
    """Put `data` at `path` durably (raises OSError if the disk refuses). `before_rename(fd)`
    may change the new file (its owner) before it takes the old one's place."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    try:
        if before_rename is not None:
            before_rename(fd)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(tmp, path)  # over the old one, atomically (POSIX)
    fsync_dir(path.parent)
