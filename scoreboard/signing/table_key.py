"""The table's own signing key (issue 34): an Ed25519 key made once, at the first start, in the
table's state folder, and never anywhere else.

``<state_dir>/table-key.pem`` holds the private key (PKCS #8, PEM; mode 0600: the service's user
only). ``table-key.pub`` beside it holds the public key, one line of base64 (mode 0640: the
``scoreboard`` group reads it, so `scoreboard status` run by an admin shows it).

Whichever process needs the key first makes it: the table at its start, the network process
before it signs a result. A new key is written to a file of its own and made durable, then
linked to its name; the link fails if another process got there first, and that key is taken.
A key that is there is never replaced: a damaged one stops signing and says what to do.
"""

import base64
import contextlib
import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from scoreboard.store.durable import fsync_dir, replace_file

PRIVATE_NAME = "table-key.pem"
PUBLIC_NAME = "table-key.pub"
PRIVATE_MODE = 0o600
PUBLIC_MODE = 0o640


class TableKeyError(Exception):
    """The table's key cannot be read or made; the message says where and what to do."""


@dataclass(frozen=True)
class TableKey:
    """The private key (cryptography's Ed25519PrivateKey) and its public key as text."""

    private: object
    public: str  # the raw 32 bytes, base64 (public_text)

    def sign(self, data: bytes) -> bytes:
        return self.private.sign(data)


def public_text(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def fingerprint(public: str) -> str:
    """A public key in 16 hex digits, four groups (SHA-256 of its raw bytes): short enough for
    staff to compare at the desk with what the table's `scoreboard status` says."""
    try:
        raw = base64.b64decode(public, validate=True)
    except ValueError:
        raw = public.encode()
    digits = hashlib.sha256(raw).hexdigest()[:16]
    return " ".join(digits[i : i + 4] for i in range(0, 16, 4))


def read_public(state_dir) -> str | None:
    """The table's public key as `table-key.pub` has it, None before the first start made it
    (`scoreboard status`: reading only, never making). OSError if the folder is closed."""
    try:
        text = (Path(state_dir) / PUBLIC_NAME).read_text(encoding="ascii").strip()
    except (FileNotFoundError, ValueError):
        return None  # not made yet (or not text: made again by the next start)
    return text or None


def ensure(state_dir) -> None:
    """The key made if there is none (the table's start): a key and its public file already
    there cost two stats, not the cryptography library's import."""
    folder = Path(state_dir)
    if (folder / PRIVATE_NAME).is_file() and (folder / PUBLIC_NAME).is_file():
        return
    load_or_make(folder)


def load_or_make(state_dir) -> TableKey:
    """The table's key: read, or made if there is none. TableKeyError if it cannot be."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    folder = Path(state_dir)
    path = folder / PRIVATE_NAME
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = _make(folder)
    except OSError as exc:
        raise TableKeyError(f"cannot read the table's key {path}: {exc.strerror}") from None
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        private = None
    if not isinstance(private, Ed25519PrivateKey):
        raise TableKeyError(
            f"{path} is not an Ed25519 key (damaged?): the table signs nothing until it is; "
            "move it away and start the table to make a new one, which the club's staff then "
            "approve at the desk"
        )
    raw = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    public = public_text(raw)
    _keep_public(folder, public)
    return TableKey(private, public)


def _make(folder: Path) -> bytes:
    """A new key linked in as ``table-key.pem`` unless another process's came first; the
    bytes of the one that is there."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path = folder / PRIVATE_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".table-key.", suffix=".new")  # 0600
        try:
            os.fchmod(fd, PRIVATE_MODE)
            os.write(fd, pem)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # never over a key that is there
        except FileExistsError:
            pass  # another process made the table's key first: that one it is
        finally:
            os.unlink(tmp)
        fsync_dir(folder)
        return path.read_bytes()
    except OSError as exc:
        raise TableKeyError(f"cannot make the table's key {path}: {exc.strerror}") from None


def _keep_public(folder: Path, public: str) -> None:
    """``table-key.pub`` as the private key says, group-readable; written only when it is
    missing or says otherwise."""
    path = folder / PUBLIC_NAME
    try:
        if path.read_text(encoding="ascii").strip() == public:
            return
    except (OSError, ValueError):
        pass
    # A folder that refuses it: `scoreboard status` says the key is not made yet; the results
    # are signed all the same.
    with contextlib.suppress(OSError):
        replace_file(
            path,
            (public + "\n").encode("ascii"),
            mode=PUBLIC_MODE,
            before_rename=lambda fd: os.fchmod(fd, PUBLIC_MODE),
        )
