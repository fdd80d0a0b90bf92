# Shared by `make system-test` (systemd/system-test/run) and `make image` (image/build):
# an arm64 Debian root built and entered on this machine through qemu-user. Sourced, not run;
# needs SUITE, ARCH, MIRROR and PACKAGES (COMPONENTS is optional: main).
AARCH64_MAGIC='\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
AARCH64_MASK='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'

# A command in the root, not booted (like a chroot, with /proc, /sys and /dev set up).
# nspawn's complaint about a /run that is not a tmpfs on this host is noise.
inside() {
    local root="$1"
    shift
    systemd-nspawn -q --register=no --keep-unit -D "$root" -E DEBIAN_FRONTEND=noninteractive "$@" \
        2> >(sed '/Attempted to remove disk file system/d' >&2)
}

# arm64 programs run through qemu-user: binfmt_misc with the F flag, so that the interpreter
# is opened here, once, and need not exist inside the root, and the C flag, so that a setuid
# program (sudo) runs with its owner's rights, as on a Pi. Debian's own entry has no C: then
# ours is registered, and being newer it is the one the kernel uses.
binfmt() {
    local dir=/proc/sys/fs/binfmt_misc entry
    [ -e "$dir/register" ] || mount -t binfmt_misc binfmt_misc "$dir"
    for entry in "$dir"/*; do
        if grep -qx enabled "$entry" 2>/dev/null && grep -q '^flags: .*F' "$entry" \
            && grep -q '^flags: .*C' "$entry" \
            && grep -q '^magic 7f454c460201010000000000000000000200b700' "$entry"; then
            echo "arm64 binaries run through $(sed -n 's/^interpreter //p' "$entry")"
            return
        fi
    done
    [ ! -e "$dir/scoreboard-aarch64" ] || echo -1 > "$dir/scoreboard-aarch64"
    printf ':scoreboard-aarch64:M::%s:%s:%s:FC' "$AARCH64_MAGIC" "$AARCH64_MASK" \
        "$(readlink -f "$(command -v qemu-aarch64-static)")" > "$dir/register"
    echo "registered qemu-aarch64-static with binfmt_misc as scoreboard-aarch64 (flags F, C)"
}

# This machine reaches PyPI through a TLS proxy with its own CA: pip in the root trusts what
# pip here trusts (a Pi at a club needs nothing of the kind).
host_ca() {
    local ca="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}"
    [ -f "$ca" ] || return 0
    install -D -m 0644 "$ca" "$1/etc/pip-host-ca.crt"
    printf '[global]\ncert = /etc/pip-host-ca.crt\n' >"$1/etc/pip.conf"
}

# Debian 12 arm64, as debootstrap makes it: cached by its inputs alone.
debootstrap_root() {
    local building="$1"
    rm -rf "$building"
    mkdir -p "$building"
    debootstrap --foreign --arch="$ARCH" --variant=minbase --components="${COMPONENTS:-main}" \
        --include="$PACKAGES" "$SUITE" "$building/root" "$MIRROR"
    # dpkg's fsync after every file costs minutes under emulation; a half-built root is
    # thrown away anyway.
    mkdir -p "$building/root/etc/dpkg/dpkg.cfg.d"
    echo force-unsafe-io >"$building/root/etc/dpkg/dpkg.cfg.d/system-test-unsafe-io"
    chroot "$building/root" /debootstrap/debootstrap --second-stage
    rm "$building/root/etc/dpkg/dpkg.cfg.d/system-test-unsafe-io"
}

