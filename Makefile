# Everything starts here: `make demo` bounces a bundled preset, `make test`
# runs every test. Both install missing Debian packages first.
SWIFT ?= swift
export RTSAN_OPTIONS ?= halt_on_error=true

.PHONY: deps build release demo test bench clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product fxhost

demo: release
	scripts/demo.sh

test: deps
	$(SWIFT) build --build-tests
	scripts/clear-stale-jack.sh
	$(SWIFT) test --skip-build --disable-swift-testing

bench: deps
	$(SWIFT) build -c release
	scripts/bench.sh

clean:
	rm -rf .build demo bench-out
