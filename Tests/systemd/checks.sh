#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The checks of `make test-systemd`, run inside a booted Debian container (systemd
# as PID 1) by curatord-test.service, as root. One function per check, run in the
# order of CHECKS below, each in a shell of its own with a time limit; each ends
# with `pass TEXT` or `fail TEXT`. Results go to /results (bound from the host):
#   checks.list          the checks planned, in order
#   results.tsv          NAME <tab> PASS|FAIL <tab> seconds <tab> the PASS:/FAIL: line
#   details/NAME.log     everything the check ran and printed
#   journal.txt          the container's journal, at the end
# Whether a failure counts is the host's business (pending.txt beside this file).
# The family: alice (1000) and bob (1001) share /srv/photos and a data disk
# (/srv/disk, another file system); carol (1002) is not in the socket's group.
set -uo pipefail

export RESULTS=/results
export HERE=/usr/local/lib/curatord-test
export STATE=/run/curatord-test          # what one check leaves for a later one
export SOCK=/run/curatord/curatord.sock
export PHOTOS=/srv/photos
export DISK=/srv/disk
export DISK_ROOT=/srv/disk/photos
export CONFIG=/etc/curatord/curatord.json5
# The README: "set CURATORD_SOCKET=/run/curatord/curatord.sock once".
export CURATORD_SOCKET=$SOCK
export PATH=/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin
export SYSTEMD_PAGER= SYSTEMD_COLORS=0 LC_ALL=C.UTF-8
# The web gateway, as docs/WEB.md ("HTTPS from the gateway itself") sets it up: the
# name browsers use, on the port of the socket's drop-in, with the test's certificate.
export WEB_NAME=curatord.test:8443 WEB_CONNECT=127.0.0.1:8443
export WEB_CERT=/etc/curatord/web.crt WEB_KEY=/etc/curatord/web.key

# Every check, in the order run. Those named in pending.txt are features not built yet.
CHECKS=(
    installed_binaries_run
    family_setup
    readme_system_steps
    status_line
    socket_activation
    users_as_themselves
    outsider_refused
    analyze_verify
    analyze_security
    reload
    alice_trashes
    alice_sees_her_trash
    alice_empties_her_trash
    bob_trashes_on_the_data_disk
    bob_sees_his_disk_trash
    bob_cannot_list_private
    owner_undoes_what_bob_trashed
    rm_fails_when_nothing_moved
    recycle_trash_kind
    unsandboxed_daemon_trashes
    bound_root_refused
    watchdog
    web_https_setup
    web_login_https
    web_photo_allowed
    web_photo_refused
    web_analyze
    user_readme_steps
    user_trash
    user_reload_and_verify
    no_photo_lost
)

# ---------------------------------------------------------------- helpers

say() { printf '%s\n' "$*"; }
pass() { say "PASS: $*"; exit 0; }
fail() { say "FAIL: $*"; exit 1; }
# Shows a command and its output; returns its status.
show() {
    say "+ $*"
    "$@"
    local rc=$?
    [ "$rc" -eq 0 ] || say "  (exit status $rc)"
    return "$rc"
}
must() { show "$@" || fail "\`$*\` exited with status $?"; }
# Runs a command as a user, with the environment kept (CURATORD_SOCKET).
as() {
    local user=$1
    shift
    runuser -u "$user" -- "$@"
}
# Polls a command until it succeeds, up to SECONDS seconds.
wait_until() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -ge "$deadline" ] && return 1
        sleep 0.2
    done
}
# json EXPR: evaluates EXPR on `r`, the last JSON object of stdin (curatorctl --json).
json() {
    python3 -c '
import json, sys
lines = [l for l in sys.stdin.read().splitlines() if l.startswith("{")]
r = json.loads(lines[-1]) if lines else {}
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v))' "$1"
}
# A small JPEG (SOI, a comment naming it, EOI) owned by USER: contents unique per path.
photo() {
    local path=$1 user=$2
    mkdir -p "$(dirname "$path")"
    python3 -c '
import sys
text = sys.argv[1].encode()
sys.stdout.buffer.write(b"\xff\xd8\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + b"\xff\xd9")' "$path" > "$path"
    chown "$user:$user" "$path"
    sha256sum "$path" >> "$STATE/manifest"
}
unit_value() { systemctl show -p "$2" --value "$1"; }
# systemctl reload, failing the check with curatord's last journal lines when it fails.
must_reload() {
    show systemctl reload curatord && return 0
    journalctl -u curatord --no-pager -n 8 -o cat
    fail "systemctl reload curatord failed (its journal above)"
}
# Every file whose name ends in NAME under the places trash can be: for the details.
find_trashed() {
    find / /srv/disk -xdev \( -path /proc -o -path /sys \) -prune -o -type f -name "$1" -print 2>/dev/null |
        grep -E '/(\.Trash[^/]*|Trash|\.recycle)/' || true
}
# Reads `curatorctl --json status` on stdin: true once the daemon answered and is not scanning.
idle() { json 'r.get("result", {}).get("scanning") is False' | grep -qx true; }
scanned() { curatorctl --json status | idle; }
# Trashes one photo by path as USER; prints curatorctl's output; returns its status.
trash_one() {
    local user=$1 path=$2
    shift 2
    say "+ (as $user) curatorctl rm --yes --photo $path $*"
    as "$user" curatorctl "$@" rm --yes --photo "$path" 2>&1
}

# ---------------------------------------------------------------- the system service

# What `make install` put in runs here: every library the binaries link is present.
check_installed_binaries_run() {
    local missing
    missing=$(ldd /usr/local/bin/curatord /usr/local/bin/curatorctl /usr/local/bin/curatord-web | grep 'not found')
    [ -z "$missing" ] || fail "libraries missing: $(tr -s ' \t\n' ' ' <<<"$missing")"
    must curatord --version
    must curatorctl --version
    pass "$(curatord --version) and curatorctl run; every library they link is installed"
}

check_family_setup() {
    must groupadd -f photos
    must useradd -m -u 1000 -G photos -s /bin/bash alice
    must useradd -m -u 1001 -G photos -s /bin/bash bob
    must useradd -m -u 1002 -s /bin/bash carol
    install -d -o alice -g alice "$PHOTOS/alice" "$PHOTOS/family"
    install -d -o bob -g bob "$PHOTOS/bob"
    for n in 1 2 3; do photo "$PHOTOS/alice/beach/a$n.jpg" alice; done
    for n in 1 2 3; do photo "$PHOTOS/alice/snow/s$n.jpg" alice; done
    for n in 1 2; do photo "$PHOTOS/bob/party/b$n.jpg" bob; done
    photo "$PHOTOS/family/f1.jpg" alice
    photo "$PHOTOS/family/f2.jpg" bob
    chown -R alice:alice "$PHOTOS/alice" "$PHOTOS/family"
    chown -R bob:bob "$PHOTOS/bob"
    chown bob:bob "$PHOTOS/family/f2.jpg"
    # The data disk: an ext4 file system of its own, its top directory root's.
    local fstype target
    fstype=$(findmnt -n -o FSTYPE -T "$DISK")
    target=$(findmnt -n -o TARGET -T "$DISK")
    [ "$fstype" = ext4 ] && [ "$target" = "$DISK" ] || fail "$DISK is not the data disk (findmnt: $target $fstype)"
    install -d -o bob -g bob "$DISK_ROOT/bob/hike"
    install -d -o alice -g alice "$DISK_ROOT/alice"
    for n in 1 2 3; do photo "$DISK_ROOT/bob/hike/h$n.jpg" bob; done
    photo "$DISK_ROOT/alice/x1.jpg" alice
    for n in 1 2 3; do photo "/home/alice/Pictures/p$n.jpg" alice; done
    chown -R alice:alice /home/alice/Pictures
    say "kill(1): $(command -v kill || echo 'absent, as on any minbase system')"
    pass "alice, bob (group photos) and carol; $(find "$PHOTOS" -name '*.jpg' | wc -l) photos in $PHOTOS," \
        "$(find "$DISK_ROOT" -name '*.jpg' | wc -l) on the data disk ($DISK, ext4), 3 in alice's ~/Pictures"
}

# The README's commands, verbatim (extracted from the README installed in the tree,
# readme_steps.py), with $EDITOR writing what a person would type: the roots, and
# the drop-in the README shows. The data disk's root is a second root: the README's
# per-folder permission commands are run for it too, and the drop-in names it.
check_readme_system_steps() {
    local steps=$HERE/system-steps.sh
    [ -s "$steps" ] || fail "no $steps: the README's section was not extracted"
    cat > "$HERE/edit/curatord.json5" <<EOF
// The family's shared folder, and a second root on the data disk.
{
  roots: [
    { name: "photos", path: "$PHOTOS" },
    { name: "disk", path: "$DISK_ROOT" },
  ],
}
EOF
    cp "$HERE/system-dropin.conf" "$HERE/edit/dropin.conf"
    grep -F "=$PHOTOS" "$HERE/system-dropin.conf" | sed "s|$PHOTOS|$DISK_ROOT|g" >> "$HERE/edit/dropin.conf"
    say "The drop-in the editor writes:"
    sed 's/^/    /' "$HERE/edit/dropin.conf"
    # The README's commands that name the folder, for the second root.
    # A line that names it, and a `for ...; do` loop that starts on one, whole.
    awk -v p="$PHOTOS" '
        /^[[:space:]]*#/ { next }
        inloop { print; if ($1 == "done") inloop = 0; next }
        index($0, p) && $0 !~ /\$EDITOR/ && $0 !~ /check-config/ {
            print; if ($0 ~ /;[[:space:]]*do([[:space:]]|$)/) inloop = 1
        }' "$steps" | sed "s|$PHOTOS|$DISK_ROOT|g" > "$HERE/second-root.sh"
    say "For the second root ($DISK_ROOT):"
    sed 's/^/    /' "$HERE/second-root.sh"
    must bash -e "$HERE/second-root.sh"
    say "The README's section, verbatim:"
    # `systemctl edit` works only on a terminal (systemd 252): script(1) gives the steps one.
    EDITOR=$HERE/editor show script -qec "bash -ex $steps" /dev/null ||
        fail "a command of the README's section failed (above)"
    [ -f /etc/systemd/system/curatord.service.d/override.conf ] ||
        fail "systemctl edit left no /etc/systemd/system/curatord.service.d/override.conf"
    pass "every command of the README's section ran; curatord.service is $(systemctl is-active curatord.service)"
}

status_shows() { systemctl status curatord | grep -qF "$1"; }

check_status_line() {
    local expected line
    expected=$(find "$PHOTOS" "$DISK_ROOT" -name '*.jpg' -not -path '*/.Trash*' | wc -l)
    wait_until 60 scanned || fail "the first scan did not finish within 60 s"
    # STATUS= is refreshed every second.
    if ! wait_until 10 status_shows "Status: \"$expected photos in 2 root(s)"; then
        show systemctl status curatord
        fail "no Status: \"$expected photos in 2 root(s)...\" line"
    fi
    line=$(systemctl status curatord | grep 'Status:' | sed 's/^ *//')
    show systemctl status curatord
    pass "$line"
}

check_socket_activation() {
    must systemctl stop curatord.service
    [ "$(systemctl is-active curatord.service)" = inactive ] || fail "curatord.service did not stop"
    [ "$(systemctl is-active curatord.socket)" = active ] || fail "curatord.socket is not listening"
    say "curatord.service inactive, curatord.socket active; alice connects:"
    show as alice curatorctl status || fail "alice's first connection was not served"
    [ "$(systemctl is-active curatord.service)" = active ] || fail "the connection did not start curatord.service"
    pass "alice's first connection started curatord.service (pid $(unit_value curatord.service MainPID)) and was answered"
}

# hello through the raw protocol, as USER: the uid the daemon sees.
hello_uid() {
    as "$1" python3 -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"{\"id\":1,\"cmd\":\"hello\"}\n")
print(json.loads(s.makefile().readline())["result"]["uid"])' "$SOCK"
}

check_users_as_themselves() {
    local user uid
    for user in alice bob; do
        uid=$(hello_uid "$user") || fail "$user could not say hello"
        say "$user: the daemon sees uid $uid"
        [ "$uid" = "$(id -u "$user")" ] || fail "$user is seen as uid $uid"
    done
    show as alice curatorctl ls photos/alice/beach || fail "alice could not list"
    must as alice curatorctl --session together view photos/family
    must as alice curatorctl --session together select 1
    show as bob curatorctl --session together selection
    local alice_count bob_count
    alice_count=$(as alice curatorctl --json --session together selection | json 'r["result"]["count"]')
    bob_count=$(as bob curatorctl --json --session together selection | json 'r["result"]["count"]')
    must as alice curatorctl --session together mode view
    [ "$alice_count" = 1 ] && [ "$bob_count" = 0 ] ||
        fail "sessions are not per user: alice's \"together\" has $alice_count, bob's $bob_count"
    pass "alice (uid 1000) and bob (uid 1001) are answered as themselves; a session named alike is each one's own"
}

check_outsider_refused() {
    local out rc
    out=$(as carol curatorctl status 2>&1)
    rc=$?
    say "+ (as carol) curatorctl status  -> exit status $rc"
    say "$out"
    [ "$rc" -eq 3 ] || fail "exit status $rc, not 3"
    case "$out" in *"not running"*) fail "carol is told curatord is not running: it is" ;; esac
    for want in "may not use curatord's socket $SOCK" "curatord:curatord with mode 0660" \
        "not in the group curatord" "usermod -aG curatord carol"; do
        grep -qF -- "$want" <<<"$out" || fail "the message lacks \"$want\""
    done
    pass "carol is told she may not use the socket, its group and mode, and the usermod that lets her in"
}

check_analyze_verify() {
    local out units=(/usr/local/lib/systemd/system/curatord.socket /usr/local/lib/systemd/system/curatord.service)
    say "kill(1): $(command -v kill || echo absent)"
    out=$(systemd-analyze verify --man=no "${units[@]}" 2>&1)
    say "+ systemd-analyze verify --man=no ${units[*]}"
    say "$out"
    [ -z "$out" ] || fail "systemd-analyze verify said: $(head -n 3 <<<"$out" | tr '\n' ' ')"
    pass "systemd-analyze verify prints nothing for the installed units (with the README's drop-in)"
}

check_analyze_security() {
    local out level
    out=$(systemd-analyze security --no-pager curatord.service 2>&1)
    grep -E 'Overall exposure level|✗' <<<"$out" | head -n 40
    level=$(sed -nE 's/.*Overall exposure level for curatord.service: ([0-9.]+).*/\1/p' <<<"$out")
    [ -n "$level" ] || fail "no exposure level in: $(tail -n 2 <<<"$out")"
    python3 -c "import sys; sys.exit(0 if float('$level') <= 2.0 else 1)" || fail "exposure $level is above 2.0"
    pass "systemd-analyze security curatord.service: exposure $level (at most 2.0)"
}

roots_now() { curatorctl --json status | json '",".join(x["name"] for x in r["result"]["roots"])'; }

check_reload() {
    local pid out rc
    pid=$(unit_value curatord.service MainPID)
    cp "$CONFIG" "$STATE/config.saved"
    install -d -o alice -g photos /srv/extra
    photo /srv/extra/e1.jpg alice
    python3 - "$CONFIG" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(text.replace("  ],", '    { name: "extra", path: "/srv/extra" },\n  ],', 1))
EOF
    show cat "$CONFIG"
    must_reload
    # In force when `systemctl reload` returns: no waiting.
    [ "$(roots_now)" = "photos,disk,extra" ] || fail "after the reload the roots are $(roots_now)"
    say "roots right after the reload: $(roots_now)"

    printf '{ roots: [ "this is not json5 ' > "$CONFIG"
    out=$(systemctl reload curatord 2>&1)
    rc=$?
    say "+ systemctl reload curatord (a broken file)  -> exit status $rc"
    say "$out"
    [ "$rc" -ne 0 ] || fail "a broken configuration was reloaded with success"
    journalctl -u curatord --no-pager -n 5 -o cat
    journalctl -u curatord --no-pager -o cat | grep -q "The configuration was refused" ||
        fail "the journal does not say why the reload was refused"
    [ "$(systemctl is-active curatord)" = active ] || fail "curatord is $(systemctl is-active curatord) after a refused reload"
    [ "$(roots_now)" = "photos,disk,extra" ] || fail "the refused reload changed the roots: $(roots_now)"

    cp "$STATE/config.saved" "$CONFIG"
    must_reload
    [ "$(roots_now)" = "photos,disk" ] || fail "after restoring, the roots are $(roots_now)"
    [ "$(unit_value curatord.service MainPID)" = "$pid" ] || fail "the reloads restarted curatord"
    pass "systemctl reload: a new root listed on return; a broken file failed the reload, said why, changed nothing; same pid $pid"
}

check_alice_trashes() {
    wait_until 30 scanned || fail "curatord is still scanning"
    must as alice curatorctl view photos/alice/beach
    must as alice curatorctl select 1 2
    local out
    out=$(as alice curatorctl rm --yes 2>&1)
    say "+ (as alice) curatorctl rm --yes"
    say "$out"
    grep -q "2 photos moved to the trash" <<<"$out" || fail "alice's batch did not move 2 photos: $(head -n 1 <<<"$out")"
    for n in 1 2; do
        [ ! -e "$PHOTOS/alice/beach/a$n.jpg" ] || fail "a$n.jpg is still in place"
        say "a$n.jpg is now at: $(find_trashed "a$n.jpg" | tr '\n' ' ')"
    done
    pass "alice's batch moved a1.jpg and a2.jpg out: $(find_trashed a1.jpg | head -n 1)"
}

check_alice_sees_her_trash() {
    local out
    out=$(as alice trash-list 2>&1)
    say "+ (as alice) trash-list"
    say "$out"
    for n in 1 2; do
        local place
        place=$(find_trashed "a$n.jpg" | head -n 1)
        [ -n "$place" ] && show ls -la "$(dirname "$place")" "$(dirname "$(dirname "$place")")"
        [ -n "$place" ] && { show as alice ls "$place" || say "alice cannot see $place"; }
        grep -qF "$PHOTOS/alice/beach/a$n.jpg" <<<"$out" || fail "alice's trash-list does not show a$n.jpg (it is at ${place:-nowhere})"
    done
    pass "alice's own trash-list shows the photos she trashed"
}

check_alice_empties_her_trash() {
    show as alice curatorctl trash list || fail "curatorctl has no \`trash list\`"
    # What may go for good now: her photos in any trash (no_photo_lost does not miss them).
    find_trashed '*.jpg' | while read -r path; do
        [ "$(stat -c %U "$path")" = alice ] && sha256sum "$path"
    done >> "$STATE/emptied"
    show as alice curatorctl trash empty --yes || fail "curatorctl has no \`trash empty\`"
    local out
    out=$(as alice trash-list 2>&1)
    say "$out"
    grep -q "$PHOTOS/alice/beach/a[12].jpg" <<<"$out" && fail "trash-list still shows them after emptying"
    [ -z "$(find_trashed a1.jpg)" ] || fail "a1.jpg is still in a trash"
    pass "alice emptied her trash with curatorctl; trash-list and the disk agree"
}

check_bob_trashes_on_the_data_disk() {
    local out
    out=$(trash_one bob "$DISK_ROOT/bob/hike/h1.jpg")
    say "$out"
    grep -q "1 photo moved to the trash" <<<"$out" || fail "bob's photo on the data disk was not moved: $(grep Batch <<<"$out")"
    [ ! -e "$DISK_ROOT/bob/hike/h1.jpg" ] || fail "h1.jpg is still in place"
    pass "bob's photo on the data disk was moved out: $(find_trashed h1.jpg | tr '\n' ' ')"
}

# The spec's per-volume trash is at the top of the file system: $topdir/.Trash/1001
# (when an administrator made a sticky .Trash) or $topdir/.Trash-1001, bob's.
check_bob_sees_his_disk_trash() {
    local place trash out
    place=$(find_trashed h1.jpg | head -n 1)
    trash=$(dirname "$(dirname "$place")")
    say "h1.jpg is at: ${place:-nowhere}"
    show ls -la "$DISK" "$trash" 2>&1
    out=$(as bob trash-list 2>&1)
    say "+ (as bob) trash-list"
    say "$out"
    case "$trash" in
        "$DISK/.Trash-1001" | "$DISK/.Trash/1001") ;;
        *) fail "h1.jpg is in $trash, not at the top of the data disk ($DISK/.Trash-1001)" ;;
    esac
    [ "$(stat -c %U "$trash")" = bob ] || fail "$trash is not bob's"
    grep -qF "$DISK_ROOT/bob/hike/h1.jpg" <<<"$out" || fail "bob's trash-list does not show h1.jpg"
    pass "h1.jpg is in $trash, bob's, and his trash-list shows it"
}

# alice's private folder: her group's only, which she lets curatord into (the service
# must read it to index it for her) and bob is not in. `ls` refuses bob; so must curatord.
check_bob_cannot_list_private() {
    local dir=$PHOTOS/alice/private out
    must usermod -aG alice curatord
    must systemctl restart curatord.service   # its new group
    # As alice would, step by step (the folder is never unreadable to curatord meanwhile:
    # one made with `install -d -m` would be 0700 for an instant, and never scanned).
    must as alice mkdir "$dir"
    must as alice chgrp alice "$dir"
    must as alice chmod 2770 "$dir"
    photo "$dir/secret-1.jpg" alice
    photo "$dir/secret-2.jpg" alice
    chmod 0660 "$dir"/*.jpg
    must as alice curatorctl sync
    wait_until 30 scanned || fail "curatord is still scanning"
    if as bob ls "$dir" >/dev/null 2>&1; then fail "setup: bob may ls $dir"; fi
    curatorctl --json ls photos/alice/private | grep -q secret-1 || fail "setup: curatord did not index $dir"
    say "bob's ls: $(as bob ls "$dir" 2>&1)"
    out=$(as bob curatorctl --json ls photos/alice/private 2>&1)
    say "+ (as bob) curatorctl --json ls photos/alice/private"
    say "${out:0:600}"
    grep -q secret <<<"$out" && fail "bob is shown the names in alice's private folder"
    out=$(as bob curatorctl --json ls photos 2>&1)
    grep -q secret <<<"$out" && fail "bob's listing of the whole root shows alice's private photos"
    pass "bob, whom ls refuses, is shown nothing of alice's private folder"
}

check_owner_undoes_what_bob_trashed() {
    local out batch
    out=$(trash_one bob "$PHOTOS/family/f1.jpg" --json)
    say "$out"
    batch=$(json 'r.get("result", {}).get("batch", "")' <<<"$out")
    [ -n "$batch" ] && [ ! -e "$PHOTOS/family/f1.jpg" ] || fail "setup: bob could not trash alice's f1.jpg from the family folder"
    say "bob trashed alice's family/f1.jpg in batch $batch; alice's history:"
    show as alice curatorctl history
    out=$(as alice curatorctl undo "$batch" 2>&1)
    local rc=$?
    say "+ (as alice) curatorctl undo $batch  -> exit status $rc"
    say "$out"
    if [ "$rc" -ne 0 ] || [ ! -e "$PHOTOS/family/f1.jpg" ]; then
        show as bob curatorctl undo "$batch"   # put it back anyway
        fail "alice could not undo what bob trashed of hers: $(head -n 1 <<<"$out")"
    fi
    pass "alice undid batch $batch (bob's), which had trashed her photo"
}

check_rm_fails_when_nothing_moved() {
    must as bob mkdir "$PHOTOS/bob/mine"   # 2755 bob:photos (umask 022, the parent's setgid)
    photo "$PHOTOS/bob/mine/m1.jpg" bob
    must as bob curatorctl sync
    [ "$(stat -c %a "$PHOTOS/bob/mine")" = 2755 ] || fail "setup: bob/mine has mode $(stat -c %a "$PHOTOS/bob/mine")"
    local out rc
    out=$(trash_one alice "$PHOTOS/bob/mine/m1.jpg")
    rc=$?
    say "$out"
    say "exit status $rc"
    [ -e "$PHOTOS/bob/mine/m1.jpg" ] || fail "setup: alice could delete from bob's 2755 folder"
    grep -q "^Move 1 photo" <<<"$out" || fail "setup: no batch was made: $(tail -n 1 <<<"$out")"
    [ "$rc" -ne 0 ] || fail "curatorctl rm exited 0 although nothing was moved"
    grep -q "Undo with" <<<"$out" && fail "an undo hint for a batch that moved nothing"
    pass "curatorctl rm exits $rc when nothing was moved, with the reason and no undo hint"
}

check_recycle_trash_kind() {
    cp "$STATE/config.saved" "$CONFIG"
    python3 - "$CONFIG" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(text.replace('path: "/srv/photos" }', 'path: "/srv/photos", trash: "recycle" }', 1))
EOF
    show cat "$CONFIG"
    local out
    out=$(curatord --check-config --config "$CONFIG" 2>&1)
    say "$out"
    if grep -qi "unknown\|not know" <<<"$out" || ! grep -q recycle <<<"$out"; then
        cp "$STATE/config.saved" "$CONFIG"
        fail "curatord does not know trash: \"recycle\": $(grep -i trash <<<"$out" | head -n 1)"
    fi
    must_reload
    out=$(trash_one alice "$PHOTOS/alice/snow/s3.jpg")
    say "$out"
    cp "$STATE/config.saved" "$CONFIG"
    systemctl reload curatord
    [ -e "$PHOTOS/.recycle/alice/alice/snow/s3.jpg" ] || fail "s3.jpg is not in $PHOTOS/.recycle/alice/alice/snow/"
    show as alice ls -la "$PHOTOS/.recycle/alice/alice/snow" || fail "alice cannot see her recycle folder"
    pass "trash: \"recycle\" put s3.jpg in $PHOTOS/.recycle/alice/alice/snow/, where alice sees it"
}

bare_idle() { as alice curatorctl --socket "$1" --json status | idle; }

# curatord by hand as its unprivileged user, without the unit's sandbox (issue 13 item 2).
# Bare, it cannot make a trash the user's: it must say so, with the fix, before anyone
# deletes (not skip every photo at delete time); started the way it says, it trashes
# where the user's trash-list finds it.
check_unsandboxed_daemon_trashes() {
    local run=/run/curatord-bare sock=/run/curatord-bare/curatord.sock pid out fix
    install -d -o curatord -g curatord -m 0755 "$run" /var/lib/curatord-bare
    cat > "$run/curatord.json5" <<EOF
{
  roots: [ { name: "photos", path: "$PHOTOS" }, { name: "disk", path: "$DISK_ROOT" } ],
  socket: "$sock", socket_mode: "0660", state_dir: "/var/lib/curatord-bare",
}
EOF
    out=$(runuser -u curatord -- curatord --check-config --config "$run/curatord.json5" 2>&1 >/dev/null)
    say "+ (as curatord) curatord --check-config --config $run/curatord.json5"
    say "$out"
    grep -q 'root "photos": .*lacks CAP_CHOWN' <<<"$out" || fail "--check-config does not say that bare curatord cannot make a trash alice's"
    fix=$(grep -o 'setpriv [^.)]*' <<<"$out" | head -n 1 | sed 's/ *$//')
    [ -n "$fix" ] || fail "--check-config names no fix"
    say "the fix it names: $fix"
    # As it says: the same user, no sandbox, the three capabilities.
    $fix --reuid=curatord --regid=curatord --init-groups curatord --config "$run/curatord.json5" > "$run/log" 2>&1 &
    pid=$!
    if ! wait_until 20 as alice curatorctl --socket "$sock" status; then
        kill "$pid"
        cat "$run/log"
        fail "curatord run by hand as curatord did not answer"
    fi
    wait_until 30 bare_idle "$sock"
    out=$(trash_one alice "$PHOTOS/alice/snow/s2.jpg" --socket "$sock")
    say "$out"
    say "--- its log:"
    cat "$run/log"
    kill "$pid"
    wait "$pid"
    grep -q "1 photo moved to the trash" <<<"$out" || fail "nothing trashed without the sandbox: $(grep -A1 Batch <<<"$out" | tr '\n' ' ')"
    out=$(as alice trash-list 2>&1)
    say "$out"
    grep -qF "$PHOTOS/alice/snow/s2.jpg" <<<"$out" || fail "trashed, but alice's trash-list does not show it"
    pass "bare, curatord named the fix ($fix); so started, without the sandbox, alice's photo went where her trash-list finds it"
}

# A freedesktop root on the root file system that the sandbox binds onto itself
# (ReadWritePaths= naming it, as for a recycle root): in the service's namespace it is
# a mount of its own, on the host it is no top directory, and alice's trash-list
# would never list a .Trash-1000 there. curatord must refuse it at start, naming
# trash: "recycle", and trash nothing; its --check-config must fail the same way.
check_bound_root_refused() {
    local conf=$STATE/bound.json5 out rc started took
    install -d -o alice -g alice /srv/bound
    photo /srv/bound/b1.jpg alice
    cat > "$conf" <<EOF
{
  roots: [ { name: "bound", path: "/srv/bound" } ],
  socket: "/run/curatord-bound/curatord.sock", state_dir: "/var/lib/curatord-bound",
}
EOF
    # Bounded (RuntimeMaxSec=): a curatord that starts serves until stopped.
    started=$SECONDS
    out=$(systemd-run --quiet --wait --pipe --collect --unit=curatord-bound -p ProtectSystem=strict \
        -p ReadWritePaths=/srv/bound -p StateDirectory=curatord-bound -p RuntimeDirectory=curatord-bound \
        -p RuntimeMaxSec=20 /usr/local/bin/curatord --config "$conf" 2>&1)
    rc=$?
    took=$((SECONDS - started))
    say "+ systemd-run -p ProtectSystem=strict -p ReadWritePaths=/srv/bound curatord  -> exit status $rc after $took s"
    say "$out"
    [ "$rc" -ne 0 ] && [ "$took" -lt 15 ] || fail "curatord started with a root that its sandbox binds onto itself"
    grep -q 'root "bound": /srv/bound is a mount of its own here' <<<"$out" ||
        fail "no word of the bind mount: $(head -n 1 <<<"$out")"
    grep -q "top directory, where trash-list, gio and file managers look for a user's trash, is /:" <<<"$out" ||
        fail "the host's top directory (/) is not named"
    grep -q 'curatord refuses the root' <<<"$out" && grep -qF 'trash: "recycle"' <<<"$out" ||
        fail 'the refusal does not name trash: "recycle"'
    [ -e /srv/bound/b1.jpg ] && [ ! -e /srv/bound/.Trash-1000 ] || fail "something was trashed or made in /srv/bound"
    out=$(systemd-run --quiet --wait --pipe --collect --unit=curatord-bound-check -p ProtectSystem=strict \
        -p ReadWritePaths=/srv/bound -p StateDirectory=curatord-bound -p RuntimeDirectory=curatord-bound \
        -p RuntimeMaxSec=20 /usr/local/bin/curatord --check-config --config "$conf" 2>&1)
    rc=$?
    say "+ the same, curatord --check-config  -> exit status $rc"
    say "$out"
    [ "$rc" -ne 0 ] && grep -q 'curatord refuses the root' <<<"$out" || fail "--check-config passed the root"
    pass 'a root on / bound onto itself by ReadWritePaths= is refused at start and by --check-config, naming trash: "recycle"'
}

# True once curatord runs again under another pid than $1.
restarted_from() {
    local now
    now=$(unit_value curatord.service MainPID)
    [ "$now" != "$1" ] && [ "$now" != 0 ] && [ "$(systemctl is-active curatord.service)" = active ]
}

check_watchdog() {
    local dropin=/etc/systemd/system/curatord.service.d/zz-test-watchdog.conf pid newpid restarts started
    mkdir -p "$(dirname "$dropin")"
    cat > "$dropin" <<'EOF'
# The test's: a short watchdog, a quick restart, and no core file of the aborted daemon.
[Service]
WatchdogSec=3s
RestartSec=1s
TimeoutAbortSec=5s
LimitCORE=0
EOF
    must systemctl daemon-reload
    must systemctl restart curatord.service
    pid=$(unit_value curatord.service MainPID)
    restarts=$(unit_value curatord.service NRestarts)
    say "curatord runs as pid $pid with WatchdogSec=3s; NRestarts=$restarts; kill -STOP $pid"
    started=$SECONDS
    must kill -STOP "$pid"
    if ! wait_until 40 restarted_from "$pid"; then
        kill -CONT "$pid" 2>/dev/null
        show systemctl status curatord
        rm -f "$dropin"
        systemctl daemon-reload
        fail "a stopped curatord was not restarted within 40 s"
    fi
    local took=$((SECONDS - started)) fired now_restarts
    newpid=$(unit_value curatord.service MainPID)
    now_restarts=$(unit_value curatord.service NRestarts)
    journalctl -u curatord --no-pager -o cat | grep -iE 'watchdog|restart|abort' | tail -n 6
    fired=$(journalctl -u curatord --no-pager -o cat | grep -c 'Watchdog timeout')
    rm -f "$dropin"
    must systemctl daemon-reload
    must systemctl restart curatord.service
    [ "$fired" -ge 1 ] || fail "restarted, but the journal has no \"Watchdog timeout\""
    [ "$now_restarts" -gt "$restarts" ] || fail "NRestarts is $now_restarts, was $restarts: not systemd's automatic restart"
    pass "kill -STOP $pid: the watchdog fired and systemd restarted curatord as pid $newpid within $took s (NRestarts $restarts -> $now_restarts)"
}

# ---------------------------------------------------------------- the web gateway

# docs/WEB.md, "The system service" and "HTTPS from the gateway itself", as an admin
# follows it: the user from sysusers, a certificate (self-signed, made here with
# openssl), the two drop-ins, web_gateway_user in curatord's configuration, the socket.
check_web_https_setup() {
    must systemd-sysusers
    id curatord-web | grep -q '(curatord)' || fail "systemd-sysusers made no curatord-web in the group curatord: $(id curatord-web 2>&1)"
    must openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
        -subj "/CN=${WEB_NAME%:*}" -addext "subjectAltName=DNS:${WEB_NAME%:*}" -keyout "$WEB_KEY" -out "$WEB_CERT"
    chmod 0600 "$WEB_KEY"
    mkdir -p /etc/systemd/system/curatord-web.socket.d /etc/systemd/system/curatord-web.service.d
    cat > /etc/systemd/system/curatord-web.socket.d/https.conf <<EOF
[Socket]
ListenStream=
ListenStream=${WEB_NAME#*:}
EOF
    cat > /etc/systemd/system/curatord-web.service.d/https.conf <<EOF
[Service]
LoadCredential=tls.crt:$WEB_CERT
LoadCredential=tls.key:$WEB_KEY
ExecStart=
ExecStart=/usr/local/bin/curatord-web --system --socket /run/curatord/curatord.sock --tls-cert %d/tls.crt --tls-key %d/tls.key --server-name $WEB_NAME
EOF
    show cat /etc/systemd/system/curatord-web.socket.d/https.conf /etc/systemd/system/curatord-web.service.d/https.conf
    python3 - "$CONFIG" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(text.replace("{\n", '{\n  web_gateway_user: "curatord-web",\n', 1))
EOF
    grep -q 'web_gateway_user: "curatord-web"' "$CONFIG" || fail "setup: web_gateway_user was not added to $CONFIG"
    show cat "$CONFIG"
    must_reload
    must systemctl daemon-reload
    must systemctl enable --now curatord-web.socket
    [ "$(systemctl is-active curatord-web.socket)" = active ] || fail "curatord-web.socket is $(systemctl is-active curatord-web.socket)"
    [ "$(systemctl is-active curatord-web.service)" = inactive ] || fail "curatord-web.service runs before anyone connected"
    show systemctl status --no-pager curatord-web.socket
    pass "curatord-web.socket listens on $(unit_value curatord-web.socket Listen | tr -d '\n'); the service waits for the first browser"
}

# web_client.py PATH [ARGS]: a request over HTTPS, the test's certificate verified.
web() { python3 "$HERE/web_client.py" --ca "$WEB_CERT" --name "$WEB_NAME" --connect "$WEB_CONNECT" "$@"; }

check_web_login_https() {
    local pw=bob-web-secret-1 out cookie
    say "+ (as bob) curatorctl web passwd --stdin"
    printf '%s\n' "$pw" | as bob curatorctl web passwd --stdin || fail "bob could not set his web password"
    out=$(web --post '{"user":"bob","password":"not-his"}' /api/v1/login 2>&1)
    say "+ login as bob, a wrong password"
    say "$out"
    grep -q '^HTTP 401' <<<"$out" && grep -q '"login_failed"' <<<"$out" || fail "a wrong password was not 401 login_failed: $(head -n 1 <<<"$out")"
    [ "$(systemctl is-active curatord-web.service)" = active ] || fail "the first connection did not start curatord-web.service"
    out=$(web --post "{\"user\":\"bob\",\"password\":\"$pw\"}" /api/v1/login 2>&1)
    say "+ login as bob, his password"
    sed 's/__Host-curator_session=[0-9a-fA-F]*/__Host-curator_session=<token>/' <<<"$out"
    grep -q '^HTTP 200' <<<"$out" || fail "bob's login was not 200: $(head -n 1 <<<"$out")"
    grep -q '^HTTP 200 .*(TLSv1\.[23])' <<<"$out" || fail "not TLS 1.2 or 1.3: $(head -n 1 <<<"$out")"
    cookie=$(sed -n 's/^Set-Cookie: \(__Host-curator_session=[^;]*\);.*/\1/Ip' <<<"$out")
    [ -n "$cookie" ] || fail "no __Host-curator_session cookie"
    grep -i '^Set-Cookie: __Host-curator_session=' <<<"$out" | grep -q '; *Secure' || fail "the session cookie over HTTPS is not Secure"
    printf '%s\n' "$cookie" > "$STATE/web-cookie"
    out=$(web --cookie "$cookie" --post '{}' /api/v1/status 2>&1)
    say "+ status, signed in"
    say "${out:0:800}"
    grep -q '^HTTP 200' <<<"$out" || fail "signed in, status was not 200: $(head -n 1 <<<"$out")"
    pass "bob set his web password with curatorctl and signed in over $(grep -o 'TLSv1\.[23]' <<<"$out" | head -n 1) (certificate verified); a wrong password was 401 login_failed"
}

# photo_id ROOT/FOLDER NAME: the id curatord gave the photo NAME there (asked as root).
photo_id() {
    curatorctl --json ls "$1" | python3 -c '
import json, sys
name = sys.argv[1]
def walk(v):
    if isinstance(v, dict):
        if isinstance(v.get("id"), int) and str(v.get("path", v.get("name", ""))).endswith(name):
            print(v["id"]); sys.exit(0)
        for x in v.values(): walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
for line in sys.stdin:
    if line.startswith("{"): walk(json.loads(line))
sys.exit(1)' "$2"
}

check_web_photo_allowed() {
    local id out body=$STATE/web-b1.jpg
    [ -s "$STATE/web-cookie" ] || fail "not signed in (web_login_https)"
    id=$(photo_id photos/bob/party b1.jpg) || fail "setup: no id for bob/party/b1.jpg"
    out=$(web --cookie "$(cat "$STATE/web-cookie")" --body "$body" "/photo/$id/original" 2>&1)
    say "+ GET /photo/$id/original (bob's b1.jpg), as bob"
    say "$out"
    grep -q '^HTTP 200' <<<"$out" || fail "bob's own photo was not 200: $(head -n 1 <<<"$out")"
    cmp "$body" "$PHOTOS/bob/party/b1.jpg" || fail "the bytes served are not b1.jpg's"
    pass "bob fetched his photo $id over HTTPS: 200, $(stat -c %s "$body") bytes equal to $PHOTOS/bob/party/b1.jpg"
}

# alice's private folder (bob_cannot_list_private): curatord reads it, bob may not.
check_web_photo_refused() {
    local id out never alice
    [ -s "$STATE/web-cookie" ] || fail "not signed in (web_login_https)"
    id=$(photo_id photos/alice/private secret-1.jpg) || fail "setup: no id for alice/private/secret-1.jpg"
    # The id is a real one that its owner is served: bob's 404 below is a refusal.
    printf '%s\n' alice-web-secret-1 | as alice curatorctl web passwd --stdin || fail "setup: alice could not set her web password"
    out=$(web --post '{"user":"alice","password":"alice-web-secret-1"}' /api/v1/login 2>&1)
    alice=$(sed -n 's/^Set-Cookie: \(__Host-curator_session=[^;]*\);.*/\1/Ip' <<<"$out")
    [ -n "$alice" ] || fail "setup: alice could not sign in: $(head -n 1 <<<"$out")"
    out=$(web --cookie "$alice" --body "$STATE/web-secret-1.jpg" "/photo/$id/original" 2>&1)
    say "+ GET /photo/$id/original, as alice: $(head -n 1 <<<"$out")"
    grep -q '^HTTP 200' <<<"$out" && cmp "$STATE/web-secret-1.jpg" "$PHOTOS/alice/private/secret-1.jpg" ||
        fail "setup: alice is not served her own private photo $id: $(head -n 1 <<<"$out")"
    out=$(web --cookie "$(cat "$STATE/web-cookie")" "/photo/$id/original" 2>&1)
    say "+ GET /photo/$id/original (alice's private secret-1.jpg), as bob"
    say "$out"
    grep -q 'secret-1' <<<"$out" && fail "the answer names alice's photo"
    grep -q '^HTTP 404' <<<"$out" && grep -q '"no_such_photo"' <<<"$out" ||
        fail "alice's private photo was not 404 no_such_photo for bob: $(head -n 1 <<<"$out")"
    never=999999
    out=$(web --cookie "$(cat "$STATE/web-cookie")" "/photo/$never/original" 2>&1)
    say "+ GET /photo/$never/original (an id never given)"
    say "$out"
    grep -q '^HTTP 404' <<<"$out" && grep -q '"no_such_photo"' <<<"$out" || fail "an id never given is not 404 no_such_photo"
    pass "alice is served her private photo $id; bob asking for it gets 404 no_such_photo, as for an id never given"
}

# The gateway's sandbox held while it served: verify is quiet, the exposure is low.
check_web_analyze() {
    local out level units=(/usr/local/lib/systemd/system/curatord-web.socket /usr/local/lib/systemd/system/curatord-web.service)
    [ "$(systemctl is-active curatord-web.service)" = active ] || fail "curatord-web.service is $(systemctl is-active curatord-web.service)"
    out=$(systemd-analyze verify --man=no "${units[@]}" 2>&1)
    say "+ systemd-analyze verify --man=no ${units[*]}"
    say "$out"
    [ -z "$out" ] || fail "systemd-analyze verify said: $(head -n 3 <<<"$out" | tr '\n' ' ')"
    out=$(systemd-analyze security --no-pager curatord-web.service 2>&1)
    grep -E 'Overall exposure level|✗' <<<"$out" | head -n 40
    level=$(sed -nE 's/.*Overall exposure level for curatord-web.service: ([0-9.]+).*/\1/p' <<<"$out")
    [ -n "$level" ] || fail "no exposure level in: $(tail -n 2 <<<"$out")"
    python3 -c "import sys; sys.exit(0 if float('$level') <= 2.0 else 1)" || fail "exposure $level is above 2.0"
    journalctl -u curatord-web --no-pager -o cat | tail -n 5
    pass "systemd-analyze verify is quiet for the web units; curatord-web.service (with the HTTPS drop-in) exposure $level"
}

# ---------------------------------------------------------------- the user service

as_alice_session() {
    runuser -u alice -- env -u CURATORD_SOCKET HOME=/home/alice XDG_RUNTIME_DIR=/run/user/1000 "$@"
}

check_user_readme_steps() {
    must loginctl enable-linger alice
    wait_until 30 test -S /run/user/1000/systemd/private || fail "alice's user manager did not start (linger)"
    show loginctl show-user alice -p Linger -p State
    cat > "$HERE/edit/user.json5" <<'EOF'
// alice's own photos.
{ roots: ["~/Pictures"] }
EOF
    say "The README's section \"As a user service\", verbatim, as alice:"
    (cd /home/alice && EDITOR=$HERE/editor as_alice_session bash -ex "$HERE/user-steps.sh") ||
        fail "a command of the README's user section failed (above)"
    [ "$(as_alice_session systemctl --user is-active curatord.service)" = active ] || fail "alice's curatord.service is not active"
    pass "every command of the README's user section ran as alice; her curatord.service is active"
}

user_idle() { as_alice_session curatorctl --json status | idle; }

check_user_trash() {
    wait_until 30 user_idle ||
        fail "alice's curatord is not answering or still scanning"
    local out
    out=$(as_alice_session curatorctl rm --yes --photo /home/alice/Pictures/p1.jpg 2>&1)
    say "$out"
    grep -q "1 photo moved to the trash" <<<"$out" || fail "alice's user service did not trash p1.jpg"
    show ls -la /home/alice/.local/share/Trash/files
    [ "$(stat -c %U /home/alice/.local/share/Trash/files/p1.jpg 2>/dev/null)" = alice ] ||
        fail "p1.jpg is not in ~/.local/share/Trash/files"
    out=$(as_alice_session trash-list 2>&1)
    say "+ (as alice) trash-list"
    say "$out"
    grep -qF /home/alice/Pictures/p1.jpg <<<"$out" || fail "alice's trash-list does not show p1.jpg"
    pass "alice's user service put p1.jpg in ~/.local/share/Trash, and her trash-list shows it"
}

check_user_reload_and_verify() {
    must as_alice_session systemctl --user reload curatord
    show as_alice_session systemctl --user status curatord
    as_alice_session systemctl --user status curatord | grep -q 'Status: "' || fail "no Status: line for alice's curatord"
    local out
    out=$(cd /home/alice && as_alice_session systemd-analyze verify --user --man=no \
        /usr/local/lib/systemd/user/curatord.socket /usr/local/lib/systemd/user/curatord.service 2>&1)
    say "+ systemd-analyze verify --user --man=no (the user units)"
    say "$out"
    [ -z "$out" ] || fail "systemd-analyze verify --user said: $(head -n 2 <<<"$out" | tr '\n' ' ')"
    pass "systemctl --user reload curatord works; verify --user prints nothing"
}

# ---------------------------------------------------------------- at the end

# Every photo made here is at its path or in a trash, byte for byte (except what a
# check emptied on purpose).
check_no_photo_lost() {
    local all missing=0
    all=$(find / /srv/disk -xdev \( -path /proc -o -path /sys -o -path /usr -o -path /var/lib/dpkg \) -prune -o \
        -type f -name '*.jpg' -print0 2>/dev/null | xargs -0 sha256sum | cut -d' ' -f1 | sort -u)
    while read -r sum path; do
        [ -n "$sum" ] || continue
        grep -q "^$sum " "$STATE/emptied" && continue
        grep -qx "$sum" <<<"$all" || { say "lost: $path"; missing=$((missing + 1)); }
    done < "$STATE/manifest"
    [ "$missing" -eq 0 ] || fail "$missing photo(s) are nowhere on disk"
    pass "all $(wc -l < "$STATE/manifest") photos made are in place or in a trash"
}

# ---------------------------------------------------------------- the runner

run_check() {
    local name=$1 limit=${2:-120} start=$SECONDS rc summary
    say "=== $name"
    timeout -k 5 "$limit" bash -c "set -uo pipefail; check_$name" > "$RESULTS/details/$name.log" 2>&1 < /dev/null
    rc=$?
    [ "$rc" -eq 124 ] && say "FAIL: timed out after $limit s" >> "$RESULTS/details/$name.log"
    summary=$(grep -E '^(PASS|FAIL): ' "$RESULTS/details/$name.log" | tail -n 1)
    [ -n "$summary" ] || summary="FAIL: ended without a verdict (exit status $rc): $(tail -n 1 "$RESULTS/details/$name.log")"
    printf '%s\t%s\t%s\t%s\n' "$name" "$([ "$rc" -eq 0 ] && echo PASS || echo FAIL)" "$((SECONDS - start))" \
        "${summary#*: }" >> "$RESULTS/results.tsv"
    say "$summary"
}

main() {
    mkdir -p "$RESULTS/details" "$HERE/edit" "$STATE"
    : > "$STATE/manifest"
    : > "$STATE/emptied"
    : > "$RESULTS/results.tsv"
    printf '%s\n' "${CHECKS[@]}" > "$RESULTS/checks.list"
    export -f $(declare -F | awk '{print $3}')
    for name in "${CHECKS[@]}"; do run_check "$name"; done
    journalctl -b --no-pager -o short-monotonic > "$RESULTS/journal.txt" 2>&1
    touch "$RESULTS/done"
}

main "$@"
