# The two commands (README.md): `make demo` runs the console, `make test` runs every test.
# Both install the Debian packages they need first (scripts/install-deps.sh, idempotent).

SWIFT ?= swift
RELEASE_BIN := .build/release/onair
DEBUG_BIN := .build/debug/onair

.PHONY: demo test build release bench fuzz fuzz-themes deps-run deps-test deps-bench clean

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

# libFuzzer on the theme parser (a package of its own under Fuzz/, never part of the main build).
FUZZ_SECONDS ?= 60
fuzz: fuzz-themes

fuzz-themes:
	cd Fuzz/ThemeParser && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library --product FuzzThemeParser
	mkdir -p Fuzz/ThemeParser/corpus && cp Themes/*.theme Fuzz/ThemeParser/corpus/
	Fuzz/ThemeParser/.build/release/FuzzThemeParser -max_total_time=$(FUZZ_SECONDS) -max_len=4096 Fuzz/ThemeParser/corpus

clean:
	rm -rf .build
