#!/usr/bin/env bash
# The whole test suite: dependencies, build (warnings are errors), unit and end-to-end tests.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The daemon's modules use FoundationEssentials only: all of Foundation would pull
# corelibs Foundation and ICU into the static daemon (docs/ARCHITECTURE.md).
if grep -rln '^import Foundation$' Sources --exclude-dir=curatorctl; then
    echo "test.sh: the files above import Foundation; the daemon's modules import FoundationEssentials" >&2
    exit 1
fi
# C functions Swift's Glibc hides are declared once, in CLinux (built with
# _GNU_SOURCE), never with @_silgen_name: that bypasses the C declaration and its type.
if grep -rn '@_silgen_name' Sources; then
    echo "test.sh: the lines above declare C functions with @_silgen_name; wrap them in Sources/CLinux" >&2
    exit 1
fi
# Work goes to a thread through a WorkerPool (docs/ARCHITECTURE.md, "Modules"): the one
# pthread_create is SystemThread's, which only the pool calls.
if grep -rn 'pthread_create(\|SystemThread\.detach' Sources \
        | grep -v '^Sources/CuratorSystem/SystemThread.swift:\|^Sources/CuratorSystem/WorkerPool.swift:'; then
    echo "test.sh: the lines above start threads by hand; submit a job to a WorkerPool instead" >&2
    exit 1
fi
# Tests too: a warning in a test is a warning.
swift build --build-tests -Xswiftc -warnings-as-errors 2>&1 | tail -n 20
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
swift test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# One plain closing line, so that the count is read right whatever else was printed.
total="$(sed -nE 's/.*Test run with ([0-9]+) tests? .*passed.*/\1/p' "$log" | tail -n 1)"
if [ "$status" -eq 0 ] && [ -n "$total" ]; then
  echo "tests: $total passed, 0 failed"
fi
exit "$status"
