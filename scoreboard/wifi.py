"""The table's Wi-Fi on a card image (issue 23): [wifi] of the settings, for wpa_supplicant.

scoreboard-wifi.service runs `scoreboard wifi` at every boot, before the network: the
boot partition's settings become /run/scoreboard-wifi/wpa_supplicant-wlan0.conf (the image's
/etc/wpa_supplicant/wpa_supplicant-wlan0.conf points there; the root stays read-only), or
no file at all when [wifi] names no network (wpa_supplicant@wlan0 then does not start). The
network's name goes as hex and the password as its WPA key (PBKDF2, as wpa_passphrase
computes it), so no character of either needs quoting.
"""

import hashlib
import os
from pathlib import Path

from scoreboard.config import WifiConfig

RUN_FILE = Path("/run/scoreboard-wifi/wpa_supplicant-wlan0.conf")


def psk(ssid: str, password: str) -> str:
    """The WPA2 key of a passphrase (IEEE 802.11i, H.4): what wpa_passphrase prints."""
    key = hashlib.pbkdf2_hmac("sha1", password.encode(), ssid.encode(), 4096, 32)
    return key.hex()


def wpa_conf(w: WifiConfig) -> str | None:
    """wpa_supplicant's config for [wifi], or None when it names no network."""
    if not w.ssid:
        return None
    network = [f"\tssid={w.ssid.encode().hex()}", "\tscan_ssid=1"]
    if w.password:
        network += [f"\tpsk={psk(w.ssid, w.password)}", "\tkey_mgmt=WPA-PSK"]
    else:
        network += ["\tkey_mgmt=NONE"]
    return (
        "# Written at boot from the [wifi] of scoreboard.toml (scoreboard/wifi.py): edit that.\n"
        f"ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev\ncountry={w.country}\n"
        "network={\n" + "\n".join(network) + "\n}\n"
    )


def write(w: WifiConfig, path: Path = RUN_FILE) -> bool:
    """Writes (mode 0600: it holds the key) or removes the file; True if there is a network."""
    text = wpa_conf(w)
    if text is None:
        path.unlink(missing_ok=True)
        return False
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    new = path.with_suffix(".new")
    fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(new, path)
    return True
