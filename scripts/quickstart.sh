#!/usr/bin/env bash
# Installs what is missing, builds, and starts curatord on a folder (a generated
# sample folder when none is given), then shows how to talk to it.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
echo "building (release)..." >&2
# The linker's note about mktemp comes from the toolchain's static FoundationEssentials,
# not from curatord (which never calls it): it is left out of what a newcomer reads.
swift build -c release --static-swift-stdlib 2>&1 | grep -v "the use of \`mktemp' is dangerous" | tail -n 3 >&2
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"

folder="${1:-}"
if [ -z "$folder" ]; then
  folder="${XDG_DATA_HOME:-$HOME/.local/share}/curatord-sample"
  if [ ! -d "$folder" ]; then
    echo "no folder given: generating sample photos in $folder" >&2
    python3 scripts/make-sample-photos.py "$folder" >&2
  fi
fi
folder="$(cd "$folder" && pwd)"

runtime="${XDG_RUNTIME_DIR:-/tmp/curatord-$(id -u)}"
mkdir -p "$runtime"
socket="$runtime/curatord.sock"
state="${XDG_STATE_HOME:-$HOME/.local/state}/curatord"
log="$state/curatord.log"
mkdir -p "$state"

if "$bin/curatorctl" --socket "$socket" status >/dev/null 2>&1; then
  echo "curatord is already running on $socket" >&2
else
  nohup "$bin/curatord" --root "$folder" --socket "$socket" --state-dir "$state" >>"$log" 2>&1 &
  for _ in $(seq 1 100); do
    "$bin/curatorctl" --socket "$socket" status >/dev/null 2>&1 && break
    sleep 0.1
  done
fi
"$bin/curatorctl" --socket "$socket" status

# The personal web gateway: its first line of output is the address with a
# one-time secret (docs/WEB.md).
web_out="$state/curatord-web.out"
: >"$web_out"
nohup "$bin/curatord-web" --socket "$socket" --web "$PWD/web" >"$web_out" 2>>"$state/curatord-web.log" &
web_pid=$!
for _ in $(seq 1 100); do
  [ -s "$web_out" ] && break
  sleep 0.1
done
url="$(head -n 1 "$web_out")"
cat <<EOT

curatord is watching $folder (log: $log).
Try:
  $bin/curatorctl --socket $socket ls
  $bin/curatorctl --socket $socket watch          # then add or rename a photo in $folder
  echo '{"id":1,"cmd":"status"}' | socat - UNIX-CONNECT:$socket
Stop it with: pkill -TERM -x curatord

In a browser on this computer, open (it works once; \`curatorctl web\` makes a new one):
  ${url:-(curatord-web did not start: see $state/curatord-web.log)}
Stop the web gateway with: kill $web_pid
EOT
