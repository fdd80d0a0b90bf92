#!/usr/bin/env bash
# Remove the scoreboard service installed by systemd/install.sh. Safe to run again.
# Keeps /etc/scoreboard (the config) and /var/lib/scoreboard (the match in progress and the
# archive of finished matches) unless PURGE=1, and leaves I2C/SPI switched on in the boot
# config, since other things may use them.
#
#   sudo systemd/uninstall.sh            # or: sudo PURGE=1 systemd/uninstall.sh
#
# Settings (environment): ROOT=DIR, NO_SYSTEMCTL=1 as for install.sh; PURGE=1.
set -euo pipefail

ROOT="${ROOT:-}"
ROOT="${ROOT%/}"
NO_SYSTEMCTL="${NO_SYSTEMCTL:-0}"
PURGE="${PURGE:-0}"
USER_NAME=scoreboard

say() { echo "scoreboard uninstall: $*"; }

if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "scoreboard uninstall: run as root: sudo $0" >&2
    exit 1
fi

if [ "$NO_SYSTEMCTL" = 1 ]; then
    say "NO_SYSTEMCTL=1: not stopping the service"
elif [ -n "$ROOT" ]; then
    systemctl --root="$ROOT" disable scoreboard.service || true
    if [ -e "$ROOT/etc/systemd/system/scoreboard-net.service" ]; then
        systemctl --root="$ROOT" disable scoreboard-net.service || true
    fi
else
    if [ -e /etc/systemd/system/scoreboard-net.service ]; then
        systemctl disable --now scoreboard-net.service || true
    fi
    if [ -e /etc/systemd/system/scoreboard.service ]; then
        systemctl disable --now scoreboard.service || true
    fi
fi

rm -f "$ROOT/etc/systemd/system/scoreboard.service" \
    "$ROOT/etc/systemd/system/scoreboard-net.service" \
    "$ROOT/etc/udev/rules.d/99-scoreboard.rules" \
    "$ROOT/etc/modules-load.d/scoreboard.conf"
rm -rf "$ROOT/opt/scoreboard"
# The `scoreboard` command install.sh put on the PATH, if it is still ours.
if [ "$(readlink "$ROOT/usr/local/bin/scoreboard" 2>/dev/null)" = /opt/scoreboard/venv/bin/scoreboard ]; then
    rm -f "$ROOT/usr/local/bin/scoreboard"
fi

if [ "$PURGE" = 1 ]; then
    say "removing the config, the match state and the archive"
    rm -rf "$ROOT/etc/scoreboard" "$ROOT/var/lib/scoreboard"
    if grep -q "^$USER_NAME:" "$ROOT/etc/passwd" 2>/dev/null; then
        userdel ${ROOT:+--root="$ROOT"} "$USER_NAME"
    fi
else
    say "kept /etc/scoreboard and /var/lib/scoreboard (PURGE=1 removes them)"
fi

if [ "$NO_SYSTEMCTL" != 1 ] && [ -z "$ROOT" ]; then
    systemctl daemon-reload
    udevadm control --reload-rules
fi
say "done"
