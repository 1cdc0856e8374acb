# SPDX-License-Identifier: GPL-2.0-or-later
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all build release test run clean

all: build

build:
	swift build

release:
	swift build -c release

test:
	scripts/test.sh

run:
	scripts/quickstart.sh $(ROOT)

clean:
	rm -rf .build
