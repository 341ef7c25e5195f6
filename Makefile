# Build and install the keyward command.
#   make install                  release build, then $(PREFIX)/bin/keyward (PREFIX=/usr/local)
#   make install PREFIX=~/.local  anywhere else; DESTDIR is honoured for staged installs
#   make uninstall                removes what install put there (same PREFIX)
#   make package                  dist/keyward-VERSION-TRIPLE.tar.gz and dist/keyward.artifactbundle
# Scripts/release-build-flags.sh holds the release flags (on Linux the Swift runtime is linked in
# statically, so the installed binary runs without a Swift toolchain); `make install` and
# `make package` share one release build.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SWIFT ?= swift
BUILD_FLAGS := -c release --product keyward $(shell Scripts/release-build-flags.sh)

.PHONY: build install uninstall package clean-dist

build:
	$(SWIFT) build $(BUILD_FLAGS)

install: build
	install -d "$(DESTDIR)$(BINDIR)"
	install -m 0755 "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/keyward" "$(DESTDIR)$(BINDIR)/keyward"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/keyward"

package:
	SWIFT="$(SWIFT)" Scripts/package.sh

clean-dist:
	rm -rf dist
