#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make test-systemd: curatord under a real systemd (252, Debian bookworm) as PID 1.
#
# A debootstrap'ed Debian minbase tree (cached between runs, keyed by what goes in
# it) is overlaid per run so that every run starts clean; `make install DESTDIR=`
# puts curatord in, with the checks (Tests/systemd/) and a oneshot unit that runs
# them; a loop-mounted ext4 image is bound in as a data disk (/srv/disk); then
# systemd-nspawn boots it. The checks write their results to a bound folder and
# power the container off; Tests/systemd/report.py prints them and decides.
#
# Needs root. Exits 0 when every required check passed, 1 when one failed, 2 when
# the test could not be run at all (no nspawn, no debootstrap, no boot): never a
# silent skip. Everything made is removed on exit; the results stay in $OUT.
#
# Environment: CURATORD_TEST_CACHE (default /var/cache/curatord-test),
# CURATORD_TEST_OUT (default .build/test-systemd), CURATORD_TEST_TIMEOUT (seconds
# for the container's whole run, default 420), CURATORD_TEST_MIRROR (default: the
# Debian mirror apt uses here).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

suite=bookworm
cache=${CURATORD_TEST_CACHE:-/var/cache/curatord-test}
out=${CURATORD_TEST_OUT:-$repo/.build/test-systemd}
timeout_s=${CURATORD_TEST_TIMEOUT:-420}
machine=curatord-test
# On top of minbase: systemd as PID 1, logind and its bus for linger and the user
# manager, trash-cli for what users see of their trash, and the C libraries the
# binaries link (make install brings only the binaries; libsystemd0 is in minbase),
# curatord-web's among them, and openssl for the web checks' certificate.
packages=(systemd systemd-sysv dbus libpam-systemd trash-cli libinotifytools0 libsqlite3-0 libexif12 libacl1 libchafa0 libexempi8
    libmicrohttpd12 libsodium23 openssl)
# Bump to rebuild every cached tree when the way it is made changes.
tree_format=3

work=""
disk_mounted=""
root_mounted=""
container=""   # the pid of timeout(1) running systemd-nspawn, while it runs

say() { printf 'test-systemd: %s\n' "$*"; }
die() {
    printf 'test-systemd: %s\n' "$*" >&2
    exit 2
}

cleanup() {
    local status=$?
    set +e
    # Interrupted while the container runs: nspawn powers it off on SIGTERM.
    if [ -n "$container" ] && kill -0 "$container" 2>/dev/null; then
        say "stopping the container"
        kill -TERM "$container"
        for _ in $(seq 100); do kill -0 "$container" 2>/dev/null || break; sleep 0.3; done
        kill -KILL "$container" 2>/dev/null
        wait "$container" 2>/dev/null
    fi
    if [ -n "$root_mounted" ]; then umount "$root_mounted" 2>/dev/null || umount -l "$root_mounted"; fi
    # A loop mount frees its loop device when unmounted (autoclear).
    if [ -n "$disk_mounted" ]; then umount "$disk_mounted" 2>/dev/null || umount -l "$disk_mounted"; fi
    [ -n "$work" ] && rm -rf "$work"
    # nspawn leaves its propagation directory behind when the host runs no systemd.
    rm -rf "/run/systemd/nspawn/propagate/$machine"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The Debian mirror apt is configured with (deb822 .sources, or sources.list).
debian_mirror() {
    if [ -n "${CURATORD_TEST_MIRROR:-}" ]; then
        echo "$CURATORD_TEST_MIRROR"
        return
    fi
    python3 - "$suite" <<'EOF'
import glob, re, sys
suite = sys.argv[1]
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in re.split(r"\n\s*\n", open(path).read()):
        fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", stanza, re.M))
        if "deb" in fields.get("Types", "").split() and suite in fields.get("Suites", "").split():
            print(fields["URIs"].split()[0]); sys.exit(0)
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        for line in open(path):
            words = line.split()
            if len(words) >= 3 and words[0] == "deb" and words[2] == suite and not words[1].startswith("["):
                print(words[1]); sys.exit(0)
    except OSError:
        pass
print("http://deb.debian.org/debian")
EOF
}

preflight() {
    [ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, mounts, systemd-nspawn): run it as root"
    scripts/install-deps.sh
    local tool
    for tool in debootstrap systemd-nspawn mkfs.ext4 python3 make; do
        command -v "$tool" >/dev/null || die "$tool is missing: scripts/install-deps.sh should have installed it"
    done
    # Fail before any work when the README's section cannot be turned into commands.
    python3 Tests/systemd/readme_steps.py README.md "As a system service on a shared folder" \
        --script /dev/null --dropin /dev/null >/dev/null || die "the README's system-service section cannot be extracted"
}

# Sets `tree` to the cached minbase tree for this package list: made once (about
# 70 s), reused after.
cached_tree() {
    local mirror key log
    mirror=$(debian_mirror)
    key=$(printf '%s\n' "$tree_format" "$suite" "$mirror" minbase "${packages[@]}" | sha256sum | cut -c1-16)
    tree=$cache/tree-$key
    mkdir -p "$cache/debs"
    exec 9>"$cache/.lock"
    flock 9   # another run making the same tree: wait for it
    if [ ! -e "$tree.ok" ]; then
        say "making the Debian $suite minbase tree (once; cached in $tree) from $mirror"
        rm -rf "$tree" "$tree.tmp"
        log=$cache/debootstrap.log
        local started=$SECONDS
        if ! debootstrap --variant=minbase --include="$(IFS=,; echo "${packages[*]}")" \
            --keyring=/usr/share/keyrings/debian-archive-keyring.gpg --cache-dir="$cache/debs" \
            "$suite" "$tree.tmp" "$mirror" > "$log" 2>&1; then
            tail -n 20 "$log" >&2
            die "debootstrap failed (log: $log)"
        fi
        # Made once, copied into every run: no machine id of its own (systemd makes one at boot).
        : > "$tree.tmp/etc/machine-id"
        rm -rf "$tree.tmp/var/cache/apt/archives/"*.deb
        mv "$tree.tmp" "$tree"
        touch "$tree.ok"
        say "tree made in $((SECONDS - started)) s"
        # Trees of other package lists are stale now.
        find "$cache" -maxdepth 1 -name 'tree-*' ! -name "tree-$key" ! -name "tree-$key.ok" -exec rm -rf {} +
    fi
    flock -u 9
}

# The run's own root: the cached tree under an overlay (a copy where overlays are refused).
run_root() {
    local tree=$1
    mkdir -p "$work/upper" "$work/overlay-work" "$work/root"
    if mount -t overlay overlay -o "lowerdir=$tree,upperdir=$work/upper,workdir=$work/overlay-work" "$work/root" 2>/dev/null; then
        root_mounted=$work/root
    else
        say "no overlay here: copying the tree"
        cp -a "$tree/." "$work/root/"
    fi
}

# A second file system for the data disk: ext4 in a loop-mounted image, top directory root's.
data_disk() {
    truncate -s 64M "$work/disk.img"
    mkfs.ext4 -q -F "$work/disk.img"
    mkdir -p "$work/disk"
    mount -o loop "$work/disk.img" "$work/disk" || die "cannot loop-mount an ext4 image (is the loop driver there?)"
    disk_mounted=$work/disk
}

install_into() {
    local root=$1 lib=$1/usr/local/lib/curatord-test
    say "make install DESTDIR=<the container's root>"
    make --no-print-directory install DESTDIR="$root" > "$work/install.log" 2>&1 || {
        tail -n 30 "$work/install.log" >&2
        die "make install failed"
    }
    install -d "$lib" "$lib/edit"
    install -m 0755 Tests/systemd/checks.sh Tests/systemd/editor "$lib/"
    install -m 0644 Tests/systemd/web_client.py "$lib/"
    # The README's commands, from the README that was installed.
    python3 Tests/systemd/readme_steps.py "$root/usr/local/share/doc/curatord/README.md" \
        "As a system service on a shared folder" --script "$lib/system-steps.sh" --dropin "$lib/system-dropin.conf"
    python3 Tests/systemd/readme_steps.py "$root/usr/local/share/doc/curatord/README.md" \
        "As a user service" --script "$lib/user-steps.sh"
    chmod 0644 "$lib"/*.sh "$lib"/*.conf
    chmod 0755 "$lib/checks.sh"
    install -m 0644 Tests/systemd/curatord-test.service "$root/etc/systemd/system/"
    ln -sf /etc/systemd/system/curatord-test.service "$root/etc/systemd/system/multi-user.target.wants/"
}

boot() {
    local root=$1 status=0 started=$SECONDS
    say "booting the container (systemd-nspawn -b; at most $timeout_s s)"
    # In the background, so that an interrupt is handled at once (bash runs traps only
    # between commands, and `wait` is one it interrupts).
    timeout -k 20 "$timeout_s" systemd-nspawn --quiet --boot --directory="$root" --machine="$machine" \
        --register=no --keep-unit --private-network --console=pipe \
        --bind="$out:/results" --bind="$out/journal:/var/log/journal" --bind="$work/disk:/srv/disk" \
        < /dev/null > "$out/nspawn.log" 2>&1 &
    container=$!
    wait "$container" || status=$?
    container=""
    say "the container ran for $((SECONDS - started)) s (systemd-nspawn exit status $status)"
    if [ ! -e "$out/checks.list" ]; then
        tail -n 30 "$out/nspawn.log" >&2
        [ -d "$out/journal" ] && journalctl -D "$out/journal" --no-pager -n 40 2>/dev/null >&2
        die "systemd-nspawn did not boot the tree far enough to run the checks (exit status $status; log: $out/nspawn.log)." \
            "It needs root, mount, PID, UTS and IPC namespaces and a cgroup file system; where the host runs no" \
            "systemd, --register=no --keep-unit (passed) spare it the system bus."
    fi
    [ "$status" -ne 124 ] || say "the container was stopped after $timeout_s s: checks still running are reported as not finished"
}

main() {
    local started=$SECONDS tree=""
    preflight
    cached_tree
    work=$(mktemp -d /var/tmp/curatord-systemd.XXXXXX)
    rm -rf "$out"
    # The journal is kept on the host too, for a run that goes wrong before the checks end.
    mkdir -p "$out/journal"
    run_root "$tree"
    data_disk
    install_into "$work/root"
    boot "$work/root"
    python3 Tests/systemd/report.py "$out" Tests/systemd/pending.txt --elapsed $((SECONDS - started))
}

main "$@"
