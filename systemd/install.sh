#!/usr/bin/env bash
# Install the scoreboard as a service on Raspberry Pi OS (Bookworm or later). Safe to run again:
# it updates the program, the unit and the udev rule, and never touches an existing config.
#
#   sudo systemd/install.sh
#
# Settings (environment):
#   ROOT=DIR          install into DIR instead of / (an image being built, or a test); then
#                     the service is enabled with `systemctl --root` and nothing is started
#   NO_SYSTEMCTL=1    do not run systemctl or udevadm at all
#   PYTHON=python3    the Python (3.11+) that builds the virtual environment
#   BOOT_CONFIG=/boot/firmware/config.txt   where I2C and SPI are switched on
set -euo pipefail

ROOT="${ROOT:-}"
ROOT="${ROOT%/}"
# First of all, before anything reads the clone (which root may have put where others cannot go).
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "scoreboard install: run as root: sudo $0" >&2
    exit 1
fi
NO_SYSTEMCTL="${NO_SYSTEMCTL:-0}"
PYTHON="${PYTHON:-python3}"
BOOT_CONFIG="${BOOT_CONFIG:-/boot/firmware/config.txt}"
REPO="$(cd "$(dirname "$0")/.." && pwd)"
USER_NAME=scoreboard
GROUPS_NEEDED=(gpio i2c spi dialout)
VENV=/opt/scoreboard/venv
REBOOT=0

say() { echo "scoreboard install: $*"; }
die() { echo "scoreboard install: $*" >&2; exit 1; }

# useradd, groupadd and usermod take --root themselves; every other path is prefixed by hand.
create_user() {
    local group missing=() own_group=--user-group
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! grep -q "^$group:" "$ROOT/etc/group" 2>/dev/null; then
            say "creating group $group"
            groupadd ${ROOT:+--root="$ROOT"} --system "$group"
        fi
    done
    if ! grep -q "^$USER_NAME:" "$ROOT/etc/passwd" 2>/dev/null; then
        # A group left behind by an earlier install would make --user-group fail.
        grep -q "^$USER_NAME:" "$ROOT/etc/group" 2>/dev/null && own_group="--gid=$USER_NAME"
        say "creating user $USER_NAME"
        useradd ${ROOT:+--root="$ROOT"} --system "$own_group" --home-dir /var/lib/scoreboard \
            --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
    fi
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! grep -Eq "^$group:[^:]*:[^:]*:(.*,)?$USER_NAME(,|\$)" "$ROOT/etc/group"; then
            missing+=("$group")
        fi
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "adding $USER_NAME to ${missing[*]}"
        usermod ${ROOT:+--root="$ROOT"} --append --groups "$(IFS=,; echo "${missing[*]}")" "$USER_NAME"
    fi
}

install_program() {
    if [ ! -x "$ROOT$VENV/bin/python" ]; then
        say "creating $VENV"
        # System site packages let the venv use Raspberry Pi OS's own lgpio build.
        "$PYTHON" -m venv --system-site-packages "$ROOT$VENV" \
            || die "cannot create $VENV: run 'sudo apt install python3-venv' and try again"
    fi
    say "installing the scoreboard from $REPO into $VENV"
    "$ROOT$VENV/bin/python" -m pip install --quiet --upgrade "$REPO[pi]"
}

install_files() {
    local config="$ROOT/etc/scoreboard/scoreboard.toml"
    if [ -e "$config" ]; then
        say "keeping the existing /etc/scoreboard/scoreboard.toml"
    else
        say "writing /etc/scoreboard/scoreboard.toml from the example"
        install -D -m 0644 "$REPO/scoreboard/config.example.toml" "$config"
    fi
    install -D -m 0644 "$REPO/systemd/scoreboard.service" "$ROOT/etc/systemd/system/scoreboard.service"
    install -D -m 0644 "$REPO/systemd/99-scoreboard.rules" "$ROOT/etc/udev/rules.d/99-scoreboard.rules"
    # Load the I2C and USB-serial drivers at boot, so their device groups exist when the
    # service starts: DeviceAllow=char-i2c / char-ttyACM are resolved at that moment.
    mkdir -p "$ROOT/etc/modules-load.d"
    printf '# Loaded for the Pyramid scoreboard (systemd/install.sh).\ni2c-dev\ncdc_acm\n' \
        > "$ROOT/etc/modules-load.d/scoreboard.conf"
}

# Switch dtparam=$2 on in the boot config $1: uncomment or flip an existing line, else append.
enable_dtparam() {
    local file="$1" param="$2"
    local existing="^[[:space:]]*#?[[:space:]]*dtparam=$param=(on|off)[[:space:]]*$"
    if grep -Eq "^[[:space:]]*dtparam=$param=on[[:space:]]*$" "$file"; then
        return
    fi
    say "switching on dtparam=$param=on in $BOOT_CONFIG (takes effect after a reboot)"
    if grep -Eq "$existing" "$file"; then
        sed -i -E "0,/$existing/s//dtparam=$param=on/" "$file"
    else
        # [all] so that the line is not caught in a [pi4]-style section above it.
        printf '\n[all]\ndtparam=%s=on\n' "$param" >> "$file"
    fi
    REBOOT=1
}

enable_buses() {
    local file="$ROOT$BOOT_CONFIG"
    if [ ! -f "$file" ]; then
        say "no $BOOT_CONFIG: switch on I2C and SPI yourself (raspi-config, Interface Options)"
        return
    fi
    enable_dtparam "$file" i2c_arm
    enable_dtparam "$file" spi
}

enable_service() {
    if [ "$NO_SYSTEMCTL" = 1 ]; then
        say "NO_SYSTEMCTL=1: not enabling the service"
    elif [ -n "$ROOT" ]; then
        systemctl --root="$ROOT" enable scoreboard.service
    else
        udevadm control --reload-rules
        udevadm trigger --subsystem-match=tty --action=add
        systemctl daemon-reload
        systemctl enable scoreboard.service
        systemctl try-restart scoreboard.service
    fi
}

create_user
install_program
install_files
enable_buses
enable_service
if [ "$REBOOT" = 1 ]; then
    say "done; reboot once to switch on I2C and SPI (the scoreboard starts at boot)"
else
    say "done; start it with: sudo systemctl start scoreboard"
fi
