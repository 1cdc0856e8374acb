#!/usr/bin/env bash
# Installs the Debian packages curatord needs to build, test and run.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail
packages=(
  libinotifytools0-dev libsqlite3-dev libsystemd-dev libexif-dev pkg-config
  trash-cli inotify-tools socat systemd util-linux e2fsprogs sqlite3
  make groff-base python3-fusepy sshfs openssh-server openssh-client
  debootstrap debian-archive-keyring systemd-container python3
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "curatord needs these Debian packages: ${missing[*]}" >&2
  echo "run as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
