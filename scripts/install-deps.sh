#!/usr/bin/env bash
# Installs the Debian packages curatord needs to build, test and run.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail
packages=(
  libinotifytools0-dev libsqlite3-dev libsystemd-dev libexif-dev libacl1-dev acl pkg-config
  trash-cli inotify-tools socat systemd util-linux e2fsprogs sqlite3
  make groff-base python3-fusepy sshfs openssh-server openssh-client
  libchafa-dev tmux
  # Ratings, flags and colour labels in XMP: exempi (the Adobe XMP Toolkit) to read
  # and write them; exiftool and exempi's own CLI as independent readers in tests
  # (exiftool is also the reference for capture times, sub-seconds and offsets).
  libexempi-dev exempi libimage-exiftool-perl
  # curatord-web: HTTP by libmicrohttpd; web passwords (Argon2id) and session
  # tokens by libsodium, in the daemon; openssl makes the tests' certificates; wrk
  # and nginx-light for its benchmark (bench/web_gateway.py).
  libmicrohttpd-dev libsodium-dev openssl wrk nginx-light
  # The page's tests in real browsers (Tests/web): headless Chromium and WebKitGTK
  # (Safari's engine) driven by WebDriver from Python; WebKitGTK's browser needs a
  # display, a virtual one (Xvfb). axe-core comes from PyPI (below).
  chromium chromium-driver webkit2gtk-driver python3-selenium python3-pip xvfb xauth
  debootstrap debian-archive-keyring systemd-container python3
  # Thumbnails: libvips and LibRaw (linked into curatord-thumbnailer only), zlib for
  # compressed PNG text, fonts for contact sheets (DejaVu, and Droid Sans Fallback
  # for names in Chinese, Japanese or Korean); the thumbnailers GNOME runs
  # (benchmark peers and interoperability tests), GLib's gio and PyGObject with
  # gnome-desktop's thumbnail factory (what Nautilus uses) for those tests.
  libvips-dev libraw-dev zlib1g-dev fonts-dejavu-core fonts-droid-fallback
  libvips-tools libgdk-pixbuf2.0-bin libglib2.0-bin python3-gi gir1.2-gnomedesktop-3.0
  # Exact duplicates: xxHash (XXH3-128); jdupes and rdfind, the peers they are
  # benchmarked against.
  libxxhash-dev jdupes rdfind
)
# axe-core, for the page's accessibility checks: PyPI's axe-selenium-python ships it
# (no Debian package does). Without its dependencies: selenium is Debian's.
install_axe() {
  /usr/bin/python3 -c 'import axe_selenium_python' 2>/dev/null && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "the page's tests need axe-selenium-python: run as root: /usr/bin/python3 -m pip install --break-system-packages --no-deps axe-selenium-python" >&2
    return 0
  fi
  /usr/bin/python3 -m pip install -q --break-system-packages --no-deps axe-selenium-python
}
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then install_axe; exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "curatord needs these Debian packages: ${missing[*]}" >&2
  echo "run as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_axe
