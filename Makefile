# SPDX-License-Identifier: GPL-2.0-or-later
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/curatord
# systemd searches $(PREFIX)/lib/... for PREFIX=/usr/local and /usr alike.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
# The page curatord-web serves: it looks in ../share/curatord/web from its own binary.
WEBDIR ?= $(PREFIX)/share/curatord/web
# The page's files, relative to web/ (HTML, CSS, JavaScript modules, the icon).
WEBFILES := $(patsubst web/%,%,$(sort $(wildcard web/*.html web/*.css web/*.svg web/js/*.js)))
# Where `make release` leaves the binaries.
BUILDDIR ?= .build/release
INSTALL ?= install

# Every file `make install` writes, relative to $(DESTDIR); `make uninstall` removes exactly these.
INSTALLED = \
	$(BINDIR)/curatord \
	$(BINDIR)/curatorctl \
	$(BINDIR)/curatord-thumbnailer \
	$(BINDIR)/curatord-web \
	$(SYSTEMDUNITDIR)/curatord.service \
	$(SYSTEMDUNITDIR)/curatord.socket \
	$(SYSTEMDUNITDIR)/curatord-web.service \
	$(SYSTEMDUNITDIR)/curatord-web.socket \
	$(SYSTEMDUSERUNITDIR)/curatord.service \
	$(SYSTEMDUSERUNITDIR)/curatord.socket \
	$(SYSUSERSDIR)/curatord.conf \
	$(SYSUSERSDIR)/curatord-web.conf \
	$(MANDIR)/man8/curatord.8 \
	$(MANDIR)/man1/curatorctl.1 \
	$(DOCDIR)/curatord.json5 \
	$(DOCDIR)/README.md \
	$(addprefix $(WEBDIR)/,$(WEBFILES))

.PHONY: all build release test run clean install uninstall

all: build

build:
	swift build

# The Swift runtime and Foundation linked in statically: only the code we use is
# resident (about 6 MB less RSS than the shared libraries), and the binaries need
# no Swift toolchain where they are installed.
release:
	swift build -c release --static-swift-stdlib

test:
	scripts/test.sh

run:
	scripts/quickstart.sh $(ROOT)

clean:
	rm -rf .build

# The units name /usr/local/bin/curatord and curatorctl; another PREFIX or BINDIR is written into them here.
UNITPATHS = -e 's|/usr/local/bin/curatord|$(BINDIR)/curatord|g' -e 's|/usr/local/bin/curatorctl|$(BINDIR)/curatorctl|g'

install: release
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSTEMDUSERUNITDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 0755 $(BUILDDIR)/curatord $(DESTDIR)$(BINDIR)/curatord
	$(INSTALL) -m 0755 $(BUILDDIR)/curatorctl $(DESTDIR)$(BINDIR)/curatorctl
	# The thumbnail worker: curatord starts it from beside itself, curatorctl sheet too.
	$(INSTALL) -m 0755 $(BUILDDIR)/curatord-thumbnailer $(DESTDIR)$(BINDIR)/curatord-thumbnailer
	$(INSTALL) -m 0755 $(BUILDDIR)/curatord-web $(DESTDIR)$(BINDIR)/curatord-web
	$(INSTALL) -d $(DESTDIR)$(WEBDIR)/js
	for file in $(WEBFILES); do $(INSTALL) -m 0644 web/$$file $(DESTDIR)$(WEBDIR)/$$file || exit 1; done
	for unit in curatord.service curatord.socket; do \
		sed $(UNITPATHS) systemd/$$unit > $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit && \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit && \
		sed $(UNITPATHS) systemd/user/$$unit > $(DESTDIR)$(SYSTEMDUSERUNITDIR)/$$unit && \
		chmod 0644 $(DESTDIR)$(SYSTEMDUSERUNITDIR)/$$unit || exit 1; \
	done
	for unit in curatord-web.service curatord-web.socket; do \
		sed $(UNITPATHS) systemd/$$unit > $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit && \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit || exit 1; \
	done
	$(INSTALL) -m 0644 systemd/curatord.sysusers $(DESTDIR)$(SYSUSERSDIR)/curatord.conf
	$(INSTALL) -m 0644 systemd/curatord-web.sysusers $(DESTDIR)$(SYSUSERSDIR)/curatord-web.conf
	$(INSTALL) -m 0644 docs/man/curatord.8 $(DESTDIR)$(MANDIR)/man8/curatord.8
	$(INSTALL) -m 0644 docs/man/curatorctl.1 $(DESTDIR)$(MANDIR)/man1/curatorctl.1
	$(INSTALL) -m 0644 config/curatord.json5 $(DESTDIR)$(DOCDIR)/curatord.json5
	$(INSTALL) -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	@echo
	@echo "Installed. /etc is left alone; for the system service, as root:"
	@echo "  systemd-sysusers && systemctl daemon-reload"
	@echo "  install -D -m 0644 $(DOCDIR)/curatord.json5 /etc/curatord/curatord.json5   # then edit its roots"
	@echo "  systemctl enable --now curatord.socket curatord.service"
	@echo "The web gateway (docs/WEB.md): web_gateway_user: \"curatord-web\" in curatord.json5, then"
	@echo "  systemctl enable --now curatord-web.socket"
	@echo "For yourself: cp $(DOCDIR)/curatord.json5 ~/.config/curatord/ && systemctl --user enable --now curatord"

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(WEBDIR)/js $(DESTDIR)$(WEBDIR) $(DESTDIR)$(PREFIX)/share/curatord 2>/dev/null || true

# curatord under a real systemd: a cached Debian bookworm minbase tree booted with
# systemd-nspawn, the README's shared-folder setup followed word for word, and the
# checks of Tests/systemd/checks.sh (docs/SYSTEMD.md, "The test under a real systemd"). Root.
.PHONY: test-systemd
test-systemd:
	scripts/test-systemd.sh

# Hundreds of crashes: random kills of the daemon mid-batch and mid-undo, each
# followed by a restart, the on-disk invariants and an undo (issue 4).
CRASHES ?= 300
.PHONY: crash-soak
crash-soak:
	swift build
	CURATORD_CRASH_SOAK=$(CRASHES) swift test --filter 'CrashRandomTests|CrashMatrixTests'

# Benchmarks (issues 6 and 14, docs/BENCHMARKS.md). Root is needed to loop-mount the scratch ext4 image.
# bench: the full run, N = 10 000 and 100 000, rewriting the doc's results table.
# bench-1m: N = 1 000 000 photos, 100 a folder, on a loop ext4 made with 1 500 000 inodes; not run
# by CI (about 8 GB written into a sparse image, the harness checks the free space first, and
# most of an hour); results in bench/results/, the doc is left alone. BENCH_1M_ARGS="... --perf cold"
# adds a profile of the cold starts.
# bench-quick: the harness's self-test, then N = 1000, one repetition, on the debug build the tests
# already made; CI runs it so the harness cannot rot (it fails only when a workload breaks twice in
# a row, never on a timing).
BENCH_ARGS ?= --n 10000,100000 --reps 5 --trash-reps 2
BENCH_1M_ARGS ?= --n 1000000 --per-folder 100 --reps 3 --trash-reps 2
.PHONY: bench bench-1m bench-quick
bench: release
	python3 bench/run.py $(BENCH_ARGS) --write-doc

bench-1m: release
	python3 bench/run.py $(BENCH_1M_ARGS)

bench-quick:
	swift build
	python3 bench/selftest.py
	python3 bench/run.py --quick --binary .build/debug/curatord
