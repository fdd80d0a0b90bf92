"""Compiles the gettext catalogs (.po → .mo) with the standard library only.

`python -m scoreboard.texts.catalogs` rewrites every locale/*/LC_MESSAGES/scoreboard.mo;
a test checks the shipped .mo files equal a fresh compile, so they never go stale.
"""

import ast
import struct
import sys
from pathlib import Path

from scoreboard.texts.i18n import DOMAIN, LOCALE_DIR


class CatalogError(Exception):
    """A .po file this small compiler cannot read; the message names the line."""


def parse_po(text: str, *, source: str = "<po>") -> dict[str, str]:
    """The catalog as {msgid: msgstr}; plural entries are keyed 'id\\0plural' → 'f0\\0f1…'."""
    entries: list[dict[str, list[str]]] = []
    entry: dict[str, list[str]] = {}
    key = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and entry:
                entries.append(entry)
                entry, key = {}, None
            continue
        if line.startswith('"'):
            if key is None:
                raise CatalogError(f"{source}:{number}: a string outside any field")
            entry[key].append(ast.literal_eval(line))
            continue
        field, _, rest = line.partition(" ")
        if field not in ("msgid", "msgid_plural", "msgstr") and not field.startswith("msgstr["):
            raise CatalogError(f"{source}:{number}: unknown field {field!r}")
        if field == "msgid" and entry:
            entries.append(entry)
            entry = {}
        key = field
        entry[key] = [ast.literal_eval(rest)]
    if entry:
        entries.append(entry)

    catalog = {}
    for item in entries:
        msgid = "".join(item.get("msgid", []))
        if "msgid_plural" in item:
            msgid += "\0" + "".join(item["msgid_plural"])
            forms = sorted(k for k in item if k.startswith("msgstr["))
            msgstr = "\0".join("".join(item[k]) for k in forms)
        else:
            msgstr = "".join(item.get("msgstr", []))
        # An untranslated entry is left out, as GNU msgfmt does, so gettext falls back.
        if msgstr.strip("\0"):
            catalog[msgid] = msgstr
    return catalog


def compile_mo(catalog: dict[str, str]) -> bytes:
    """GNU .mo bytes (little-endian, no hash table) for a parsed catalog."""
    ids = sorted(catalog)
    originals = [i.encode() for i in ids]
    translations = [catalog[i].encode() for i in ids]
    count = len(ids)
    header_size = 7 * 4
    table_size = count * 8
    data_start = header_size + 2 * table_size
    offsets, blob = [], b""
    for string in originals + translations:
        offsets.append((len(string), data_start + len(blob)))
        blob += string + b"\0"
    head = struct.pack(
        "<7I", 0x950412DE, 0, count, header_size, header_size + table_size, 0, data_start
    )
    tables = b"".join(struct.pack("<2I", length, offset) for length, offset in offsets)
    return head + tables + blob


def po_files() -> list[Path]:
    return sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compiled(po: Path) -> bytes:
    return compile_mo(parse_po(po.read_text(encoding="utf-8"), source=str(po)))


def main() -> int:
    for po in po_files():
        po.with_suffix(".mo").write_bytes(compiled(po))
        print(f"compiled {po.with_suffix('.mo').relative_to(LOCALE_DIR.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
