# Everything starts here: `make demo` bounces a bundled preset, `make test`
# runs every test. Both install missing Debian packages first.
SWIFT ?= swift
export RTSAN_OPTIONS ?= halt_on_error=true

# Where `make install` puts things: $(DESTDIR)$(PREFIX)/bin/fxhost, a man
# page per command in share/man/man1, and bash, zsh and fish completions.
PREFIX ?= /usr/local
DESTDIR ?=
# What the install-* steps copy: the release binary, and the man pages that
# swift-argument-parser's generate-manual plugin writes (`make man`). Set
# FXHOST to install another build of the tool's binary and completions.
FXHOST ?= .build/release/fxhost
MANUAL ?= .build/plugins/GenerateManual/outputs/fxhost
# fxhost's subcommands, as Sources/fxhost/Fxhost.swift lists them: one man
# page each besides fxhost.1, and one for ArgumentParser's own `help` (the
# install test checks this list against the commands the tool reports).
COMMANDS := plugins info check graph render run help
MANPAGES := fxhost.1 $(COMMANDS:%=fxhost.%.1)

# `make test` ends by fuzzing what parses (scripts/fuzz.sh, docs/testing.md):
# each target a minute in CI, ten seconds otherwise, two at a time.
FUZZ_SECONDS ?= $(if $(filter true,$(CI)),60,10)
FUZZ_JOBS ?= 2
# Before that, two minutes of the soak (scripts/soak.sh, docs/testing.md):
# the debug build under random commands, failing on a leak or a refused
# valid command.
SOAK_SECONDS ?= 120

bindir := $(DESTDIR)$(PREFIX)/bin
man1dir := $(DESTDIR)$(PREFIX)/share/man/man1
bashdir := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
zshdir := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
fishdir := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: deps build release man demo test bench clean install install-binary install-man install-completions uninstall

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product fxhost

# A man page per command, from the release build (the plugin builds it).
man: deps
	$(SWIFT) package generate-manual --multi-page

demo: release
	scripts/demo.sh

test: deps
	$(SWIFT) build --build-tests
	scripts/clear-stale-jack.sh
	$(SWIFT) test --skip-build --disable-swift-testing
	FXHOST=.build/debug/fxhost scripts/soak.sh $(SOAK_SECONDS)
	FUZZ_JOBS=$(FUZZ_JOBS) scripts/fuzz.sh all $(FUZZ_SECONDS)

bench: deps
	$(SWIFT) build -c release
	scripts/bench.sh

clean:
	rm -rf .build demo bench-out

# Builds the release binary and the man pages, then copies them. Only the
# copying steps below touch $(DESTDIR)$(PREFIX).
install: release man
	@$(MAKE) --no-print-directory install-binary install-man install-completions

install-binary:
	install -d $(bindir)
	install -m 755 $(FXHOST) $(bindir)/fxhost

install-man:
	install -d $(man1dir)
	install -m 644 $(MANPAGES:%=$(MANUAL)/%) $(man1dir)/

# Each script is made by the binary being installed.
install-completions:
	install -d $(bashdir) $(zshdir) $(fishdir)
	$(FXHOST) --generate-completion-script bash > $(bashdir)/fxhost
	$(FXHOST) --generate-completion-script zsh > $(zshdir)/_fxhost
	$(FXHOST) --generate-completion-script fish > $(fishdir)/fxhost.fish

# Removes exactly what install puts there, and no folder.
uninstall:
	rm -f $(bindir)/fxhost $(MANPAGES:%=$(man1dir)/%) $(bashdir)/fxhost $(zshdir)/_fxhost $(fishdir)/fxhost.fish
