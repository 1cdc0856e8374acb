#!/usr/bin/env bash
# The whole test suite: dependencies, build (warnings are errors), unit and end-to-end tests.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -Xswiftc -warnings-as-errors 2>&1 | tail -n 20
swift test 2>&1
