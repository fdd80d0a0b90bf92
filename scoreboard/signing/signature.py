"""A table's result, signed (issue 34): the bytes that are signed, signing them, checking them.

A signed result is the `result` payload (docs/API.md "MQTT") with two more fields: `key`, the
table's public key (Ed25519, its raw 32 bytes in base64), and `signature`, the Ed25519
signature (base64) of the result's canonical bytes:

    b"fp-result-v1\\n" + JSON of every field but `signature`, keys sorted at every level,
    no spaces (separators "," and ":"), text as UTF-8 (no \\u escapes), no NaN

Every field is covered, `key` and `log_sha256` (the match log's digest) included, and any field
a later version adds (a table's confirmation of the result): nothing is signed field by field.
The first line keeps a result's signature from meaning anything else the key might sign.
"""

import base64
import json

from scoreboard.signing.table_key import TableKey

CONTEXT = b"fp-result-v1\n"
SIGNED_FIELDS = ("key", "signature")


def canonical(payload: dict) -> bytes:
    """What is signed: the context line and `payload` without its signature, in one spelling.
    ValueError for what JSON cannot hold (NaN)."""
    rest = {k: v for k, v in payload.items() if k != "signature"}
    text = json.dumps(
        rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return CONTEXT + text.encode("utf-8")


def sign(payload: dict, key: TableKey) -> dict:
    """`payload` with the table's public key and its signature."""
    signed = {**payload, "key": key.public}
    signed.pop("signature", None)
    signature = key.sign(canonical(signed))
    return {**signed, "signature": base64.b64encode(signature).decode("ascii")}


def check(payload, *, key: str | None = None) -> str | None:
    """Why `payload` is not a result signed by `key` (by the key it names, if `key` is None);
    None when it is."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not isinstance(payload, dict):
        return "not a result"
    named, signature = payload.get("key"), payload.get("signature")
    if not isinstance(named, str) or not isinstance(signature, str):
        return "not signed"
    if key is not None and named != key:
        return "signed by another key than the table's"
    try:
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(named, validate=True))
        public.verify(base64.b64decode(signature, validate=True), canonical(payload))
    except (ValueError, TypeError, InvalidSignature):
        return "signature did not verify"
    return None
