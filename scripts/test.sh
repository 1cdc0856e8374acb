#!/usr/bin/env bash
# The whole test suite: dependencies, build (warnings are errors), unit and end-to-end tests.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -Xswiftc -warnings-as-errors 2>&1 | tail -n 20
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
swift test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# One plain closing line, so that the count is read right whatever else was printed.
total="$(sed -nE 's/.*Test run with ([0-9]+) tests? .*passed.*/\1/p' "$log" | tail -n 1)"
if [ "$status" -eq 0 ] && [ -n "$total" ]; then
  echo "tests: $total passed, 0 failed"
fi
exit "$status"
