#!/usr/bin/env bash
# Install the scoreboard as a service on Raspberry Pi OS (Bookworm or later). Safe to run again:
# it updates the program, the unit and the udev rule, and never touches an existing config.
#
#   sudo systemd/install.sh
#
# It also puts `scoreboard` on the PATH (/usr/local/bin), adds the admin who ran it with sudo
# to the scoreboard group (so that `scoreboard status` and `history` can read the state
# directory), and switches on in the boot config what the configured displays need: I2C at
# 400 kHz, SPI0, and SPI1 for a display on SPI port 1. Run it again after changing displays.
#
# Settings (environment):
#   ROOT=DIR          install into DIR instead of / (an image being built, or a test); then
#                     the service is enabled with `systemctl --root` and nothing is started
#   NO_SYSTEMCTL=1    do not run systemctl or udevadm at all
#   WITH_NET=1        install the web face (scoreboard-net.service and its libraries) even
#                     if the config has neither [web] nor [mqtt] on: the card image, whose
#                     config a club edits later (the unit then starts only once one is on)
#   PYTHON=python3    the Python (3.11+) that builds the virtual environment
#   BOOT_CONFIG=...   where I2C and SPI are switched on; default /boot/firmware/config.txt
#                     (Bookworm), else /boot/config.txt (older releases)
set -euo pipefail

ROOT="${ROOT:-}"
ROOT="${ROOT%/}"
# First of all, before anything reads the clone (which root may have put where others cannot go).
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "scoreboard install: run as root: sudo $0" >&2
    exit 1
fi
# Whatever umask the admin's sudo brings (077 is common), the program and config must be
# readable by the scoreboard user and by the admin's `scoreboard status`.
umask 022
NO_SYSTEMCTL="${NO_SYSTEMCTL:-0}"
WITH_NET="${WITH_NET:-0}"
PYTHON="${PYTHON:-python3}"
if [ -z "${BOOT_CONFIG:-}" ]; then
    BOOT_CONFIG=/boot/firmware/config.txt
    if [ ! -f "$ROOT$BOOT_CONFIG" ] && [ -f "$ROOT/boot/config.txt" ]; then
        BOOT_CONFIG=/boot/config.txt
    fi
fi
REPO="$(cd "$(dirname "$0")/.." && pwd)"
USER_NAME=scoreboard
GROUPS_NEEDED=(gpio i2c spi dialout)
VENV=/opt/scoreboard/venv
CONFIG=/etc/scoreboard/scoreboard.toml
# The admin who ran `sudo install.sh`: gets `scoreboard status` without sudo.
ADMIN="${SUDO_USER:-}"
# Built for the Pi by Raspberry Pi OS; the venv sees them (--system-site-packages), so pip
# finds the [pi] extra's lgpio and spidev, and the signing of results' cryptography (issue
# 34), installed and has nothing to compile.
SYSTEM_PACKAGES=(lgpio:python3-lgpio spidev:python3-spidev cryptography:python3-cryptography)
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

install_system_packages() {
    local pair missing=()
    if [ -n "$ROOT" ]; then
        return  # an image: its own package list holds python3-lgpio, -spidev, -cryptography
    fi
    for pair in "${SYSTEM_PACKAGES[@]}"; do
        "$PYTHON" -c "import ${pair%%:*}" 2>/dev/null || missing+=("${pair#*:}")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return
    fi
    command -v apt-get >/dev/null || die "install ${missing[*]} (the Pi's GPIO and SPI, the results' signing) and try again"
    say "installing ${missing[*]} with apt"
    # A fresh Raspberry Pi OS image ships without package lists.
    apt-get install -y -q "${missing[@]}" || { apt-get update -q && apt-get install -y -q "${missing[@]}"; } \
        || die "apt could not install ${missing[*]}: the GPIO pins, SPI displays and signed results need them"
}

install_program() {
    if [ ! -x "$ROOT$VENV/bin/python" ]; then
        say "creating $VENV"
        # System site packages let the venv use Raspberry Pi OS's own lgpio build.
        "$PYTHON" -m venv --system-site-packages "$ROOT$VENV" \
            || die "cannot create $VENV: run 'sudo apt install python3-venv' and try again"
    fi
    local extras=pi
    if web_enabled; then
        extras=pi,web  # aiohttp, for scoreboard-net.service
    fi
    say "installing the scoreboard from $REPO into $VENV"
    "$ROOT$VENV/bin/python" -m pip install --quiet --upgrade "$REPO[$extras]"
    # On the PATH of whoever administers the Pi (and in sudo's secure_path).
    mkdir -p "$ROOT/usr/local/bin"
    ln -sfn "$VENV/bin/scoreboard" "$ROOT/usr/local/bin/scoreboard"
}

# The state directory is 0750 scoreboard:scoreboard: the scoreboard group may read the match.
add_admin() {
    if [ -z "$ADMIN" ] || [ "$ADMIN" = root ] || [ "$ADMIN" = "$USER_NAME" ]; then
        return
    fi
    if ! grep -q "^$ADMIN:" "$ROOT/etc/passwd" 2>/dev/null; then
        return
    fi
    if ! grep -Eq "^$USER_NAME:[^:]*:[^:]*:(.*,)?$ADMIN(,|\$)" "$ROOT/etc/group"; then
        say "adding $ADMIN to the $USER_NAME group, for \`scoreboard status\` and \`history\`"
        usermod ${ROOT:+--root="$ROOT"} --append --groups "$USER_NAME" "$ADMIN"
    fi
}

# Whether the config switches on the table's network side ([web] enabled = true, or [mqtt]
# enabled = true: the MQTT publisher runs in the same process): only then is
# scoreboard-net.service installed and enabled.
web_enabled() {
    [ "$WITH_NET" != 1 ] || return 0
    "$PYTHON" - "$ROOT$CONFIG" <<'PY'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        config = tomllib.load(f)
    enabled = any(config.get(part, {}).get("enabled") is True for part in ("web", "mqtt"))
except (OSError, ValueError, AttributeError):
    enabled = False  # no config yet (the example's is off), or one `config check` refuses
sys.exit(0 if enabled else 1)
PY
}

install_files() {
    local config="$ROOT$CONFIG"
    if [ -e "$config" ]; then
        say "keeping the existing /etc/scoreboard/scoreboard.toml"
    else
        say "writing /etc/scoreboard/scoreboard.toml from the example"
        install -D -m 0644 "$REPO/scoreboard/config.example.toml" "$config"
    fi
    install -D -m 0644 "$REPO/systemd/scoreboard.service" "$ROOT/etc/systemd/system/scoreboard.service"
    if web_enabled; then
        install -D -m 0644 "$REPO/systemd/scoreboard-net.service" \
            "$ROOT/etc/systemd/system/scoreboard-net.service"
    fi
    install -D -m 0644 "$REPO/systemd/99-scoreboard.rules" "$ROOT/etc/udev/rules.d/99-scoreboard.rules"
    # Load the I2C and USB-serial drivers at boot, so their device groups exist when the
    # service starts: DeviceAllow=char-i2c / char-ttyACM / char-ttyUSB are resolved then.
    mkdir -p "$ROOT/etc/modules-load.d"
    printf '# Loaded for the Pyramid scoreboard (systemd/install.sh).\ni2c-dev\ncdc_acm\nusbserial\n' \
        > "$ROOT/etc/modules-load.d/scoreboard.conf"
}

# Set "$2=$3" (e.g. dtparam=i2c_arm, on) in the boot config $1: flip or uncomment an existing
# line whose value matches $4 (default: any), else append it under [all]. A line that is
# already right ($5, default $3) is left alone, so this runs again.
set_boot_line() {
    local file="$1" key="$2" value="$3" others="${4:-[^,[:space:]]*}" right="${5:-$3}"
    local existing="^[[:space:]]*#?[[:space:]]*$key=$others[[:space:]]*$"
    if grep -Eq "^[[:space:]]*$key=$right[[:space:]]*$" "$file"; then
        return
    fi
    say "setting $key=$value in $BOOT_CONFIG (takes effect after a reboot)"
    if grep -Eq "$existing" "$file"; then
        sed -i -E "0,/$existing/s//$key=$value/" "$file"
    else
        # [all] so that the line is not caught in a [pi4]-style section above it.
        printf '\n[all]\n%s=%s\n' "$key" "$value" >> "$file"
    fi
    REBOOT=1
}

# How many chip selects the configured displays use on SPI1 (0: none is on SPI1).
spi1_chip_selects() {
    "$PYTHON" - "$ROOT$CONFIG" <<'PY'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        screens = tomllib.load(f).get("display", {}).get("screen", [])
except (OSError, ValueError, AttributeError):
    screens = []  # `scoreboard config check` says what is wrong with it
spi = ("ssd1322", "max7219", "max7219-7seg")
devices = [
    s.get("spi_device", 0)
    for s in screens
    if isinstance(s, dict) and s.get("port") == 1
    and (s.get("driver") in spi or s.get("interface") == "spi")
]
print(max(devices) + 1 if devices else 0)
PY
}

enable_buses() {
    local file="$ROOT$BOOT_CONFIG" chip_selects
    if [ ! -f "$file" ]; then
        say "no $BOOT_CONFIG: switch on I2C and SPI yourself (raspi-config, Interface Options)"
        return
    fi
    set_boot_line "$file" dtparam=i2c_arm on
    # 100 kHz unless told: a full 128x64 frame would take ~93 ms instead of ~23 ms.
    set_boot_line "$file" dtparam=i2c_arm_baudrate 400000
    set_boot_line "$file" dtparam=spi on
    chip_selects="$(spi1_chip_selects)"
    if [ "$chip_selects" -gt 0 ]; then
        # SPI1 is an overlay with 1 to 3 chip selects; one with enough of them is kept.
        chip_selects=$((chip_selects < 3 ? chip_selects : 3))
        set_boot_line "$file" dtoverlay "spi1-${chip_selects}cs" "spi1-[1-3]cs" "spi1-[$chip_selects-3]cs"
    fi
}

enable_service() {
    if [ "$NO_SYSTEMCTL" = 1 ]; then
        say "NO_SYSTEMCTL=1: not enabling the service"
    elif [ -n "$ROOT" ]; then
        systemctl --root="$ROOT" enable scoreboard.service
        if web_enabled; then
            systemctl --root="$ROOT" enable scoreboard-net.service
        fi
    else
        # udev may not run (a container, a chroot): the rule then takes effect at the next boot.
        udevadm control --reload-rules 2>/dev/null \
            && udevadm trigger --subsystem-match=tty --action=add 2>/dev/null \
            || say "udev did not reload its rules; the sensor board's rule applies after a reboot"
        systemctl daemon-reload
        systemctl enable scoreboard.service
        systemctl try-restart scoreboard.service
        if web_enabled; then
            systemctl enable scoreboard-net.service
            systemctl restart scoreboard-net.service
        fi
    fi
}

create_user
add_admin
install_system_packages
install_program
install_files
enable_buses
enable_service
if [ "$REBOOT" = 1 ]; then
    say "done; reboot once to switch on I2C and SPI (the scoreboard starts at boot)"
else
    say "done; start it with: sudo systemctl start scoreboard"
fi
