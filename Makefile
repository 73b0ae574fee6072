# The two commands (README.md): `make demo` runs the console, `make test` runs every test.
# Both install the Debian packages they need first (scripts/install-deps.sh, idempotent).

SWIFT ?= swift
RELEASE_BIN := .build/release/onair
DEBUG_BIN := .build/debug/onair

.PHONY: demo test build release bench fuzz deps-run deps-test deps-bench clean

demo: deps-run release
	$(RELEASE_BIN) demo $(ARGS)

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

build: deps-run
	$(SWIFT) build

release: deps-run
	$(SWIFT) build -c release --product onair

bench: deps-bench release
	scripts/bench.sh

deps-run:
	@scripts/install-deps.sh run

deps-test:
	@scripts/install-deps.sh test

deps-bench:
	@scripts/install-deps.sh bench

clean:
	rm -rf .build
