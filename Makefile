# The commands of the README, and the benchmark. Each installs what it misses first.
#
# Build folders. SwiftPM rebuilds a whole folder when its compiler flags change, so each set of
# flags has its own, and these five are all there is (.build-debian13 is not one: it holds the
# Debian 13 root of make debian13, with its own .build inside):
#   .build        plain debug and release: make check, make run, make bench's attestation-bench,
#                 make screenshots, make stress's release server, and swift build / swift test
#                 by hand
#   .build-asan   the address sanitizer: make test (the Swift suites, then the browser tests and
#                 make stress-smoke against its attestation-server and attestation-admin)
#   .build-tsan   the thread sanitizer: make stress
#   .build-fuzz   libFuzzer's coverage instrumentation, the address sanitizer and -DFUZZING, for
#                 attestation-fuzz alone: scripts/fuzz (make test briefly, make stress at length)
#   .build-image  the Dockerfile's BUILD_FLAGS (release, --static-swift-stdlib):
#                 scripts/check-image-deps (make stress), Tests/Deploy/rehearse_guide.sh, and
#                 make bench's server: measured as the container ships it
# Scripts and the Python tests find the binaries through the test harness (scripts/harness):
# $ATTESTATION_BIN, else the latest of .build/release and .build/debug (benchmarks: release).
SWIFT ?= swift
# Tests run under the address sanitizer, in a build folder of their own; LeakSanitizer's
# suppressions name the leaks of the toolchain's own libraries.
ASAN_BUILD ?= .build-asan
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/scripts/lsan-suppressions.txt:print_suppressions=0
OUT ?= out

# A fictitious person for the sample link.
SAMPLE = --first-name Camille --last-name Dupont --birth-date 01/01/1970 --birth-place Lyon \
         --address "999 avenue de France" --zip 75001 --city Paris --reason travail
ADMIN = .build/release/attestation-admin

.PHONY: run check test bench deps build clean screenshots stress stress-smoke debian13

# The browser tests' and screenshots' Python: Debian's, with axe-selenium-python (scripts/browser-env).
BROWSER_PYTHON = .venv-browser/bin/python

SERVER = .build/release/attestation-server

# A local configuration and key on first use, a sample link for a fictitious person, then the
# server on 127.0.0.1:8080 until Ctrl-C.
run: deps
	$(SWIFT) build -c release --product attestation-admin
	$(SWIFT) build -c release --product attestation-server
	@[ -f config.json ] || $(ADMIN) init
	@mkdir -p $(OUT)
	@$(ADMIN) mint $(SAMPLE) > $(OUT)/lien-exemple.txt
	@echo
	@echo "Sample link (Camille Dupont, a fictitious person):"
	@cat $(OUT)/lien-exemple.txt
	@echo "Left 20 minutes ago: add &offset=-20. Its QR code alone: /attestation.png instead of /attestation.pdf."
	@echo "Her page (reasons, exit time, works offline): $$(sed 's|/attestation.pdf?t=|/?t=|' $(OUT)/lien-exemple.txt)"
	@echo "More links: $(ADMIN) mint --help"
	@echo
	exec $(SERVER) --config config.json

# The fast loop of everyday work: the Swift suites on a plain debug build, no sanitizer, no
# browser, no smoke, then the test harness's own tests; FILTER selects suites or tests (make
# check FILTER=ServerTests). make test stays what CI runs.
FILTER ?=
check:
	scripts/install-deps --test
	$(SWIFT) test --disable-xctest $(if $(FILTER),--filter '$(FILTER)')
	ATTESTATION_BIN=.build/debug python3 -m unittest discover -s scripts/harness
	python3 -m unittest discover -s Tests/Docs

# What CI runs (.ci/run): every Swift suite under the address sanitizer, then the test harness's
# own tests and the pages in headless Chromium (Tests/Browser, Python unittest) against the same
# address-sanitizer build of the server and admin CLI, then make stress-smoke, then make debian13:
# the same sources on the other supported Debian release.
test:
	scripts/install-deps --test --browser
	$(SWIFT) format lint --recursive --strict Sources Tests Benchmarks Package.swift
	$(SWIFT) test --disable-xctest --sanitize=address --scratch-path $(ASAN_BUILD)
	@for product in attestation-server attestation-admin; do \
	  [ -x $(ASAN_BUILD)/debug/$$product ] || $(SWIFT) build --sanitize=address --scratch-path $(ASAN_BUILD) --product $$product || exit; \
	done
	ATTESTATION_BIN=$(ASAN_BUILD)/debug python3 -m unittest discover -s scripts/harness
	python3 -m unittest discover -s Tests/Docs
	scripts/browser-env
	ATTESTATION_BIN=$(ASAN_BUILD)/debug $(BROWSER_PYTHON) -m unittest discover -s Tests/Browser -t Tests/Browser -v
	$(MAKE) stress-smoke
	$(MAKE) debian13

# Debian 13 (trixie) beside this machine's Debian 12 (scripts/check-debian13): a debootstrap root
# in .build-debian13 with the README's packages, this machine's Swift toolchain bound in, the Swift
# suite and the release binaries built there, then init, mint, the server and a PDF checked with
# pdftotext and zbarimg. The root is kept for the next run; make clean unmounts and deletes it.
debian13:
	scripts/install-deps --debian13
	scripts/check-debian13

# The hardening suite's short smoke, run by make test (so by CI) against the same ASan builds:
# each fuzzer briefly, the deployment files, hostile clients, a good client's share under idle
# connections and floods (timing not asserted at this scale), two replicas behind nginx, the
# Kubernetes manifests. The deployment files are checked with a plain build too: the systemd
# unit's sandbox (seccomp) cannot hold a sanitizer's runtime, and a system call the server starts
# making (libdispatch's setpriority did) must fail here, not in production.
SMOKE_BIN = $(ASAN_BUILD)/debug
stress-smoke:
	scripts/install-deps --test --stress
	scripts/fuzz --seconds 10
	ATTESTATION_BIN=$(SMOKE_BIN) scripts/check-deploy
	$(SWIFT) build --product attestation-server
	$(SWIFT) build --product attestation-admin
	ATTESTATION_BIN=.build/debug scripts/check-deploy
	ATTESTATION_BIN=$(SMOKE_BIN) scripts/check-kubernetes
	ATTESTATION_BIN=$(SMOKE_BIN) STRESS_HOSTILE_SCALE=small scripts/stress-hostile
	ATTESTATION_BIN=$(SMOKE_BIN) STRESS_FAIRNESS_SCALE=small scripts/stress-fairness
	ATTESTATION_BIN=$(SMOKE_BIN) STRESS_SCALEOUT_SECONDS=5 scripts/stress-scaleout

# The whole hardening suite, an hour or so: every fuzzer for STRESS_FUZZ_SECONDS, the test suite
# under the address then the thread sanitizer, a million-request soak, hostile clients, a good
# client's share under idle connections and floods (its latency targets asserted) and replicas
# against the release server, and the container image's runtime stage rebuilt.
STRESS_FUZZ_SECONDS ?= 300
TSAN_BUILD ?= .build-tsan
stress: deps
	scripts/install-deps --test --bench --stress
	scripts/fuzz --seconds $(STRESS_FUZZ_SECONDS)
	$(SWIFT) test --disable-xctest --sanitize=address --scratch-path $(ASAN_BUILD)
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --disable-xctest --sanitize=thread --scratch-path $(TSAN_BUILD)
	$(SWIFT) build -c release --product attestation-server
	$(SWIFT) build -c release --product attestation-admin
	ATTESTATION_BIN=.build/release scripts/stress-soak
	ATTESTATION_BIN=.build/release scripts/stress-hostile
	ATTESTATION_BIN=.build/release scripts/stress-fairness
	ATTESTATION_BIN=.build/release scripts/stress-scaleout
	ATTESTATION_BIN=.build/release scripts/check-deploy
	scripts/check-image-deps --rootfs

bench: deps
	scripts/install-deps --bench
	$(SWIFT) build -c release --product attestation-bench
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-image --product attestation-server
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-image --product attestation-admin
	.build/release/attestation-bench
	ATTESTATION_BIN=.build-image/release scripts/bench-server

# The pages at phone size (390 x 844), light and dark, into docs/screenshots/: fictitious people,
# a temporary configuration, the release server on a free port, headless Chromium.
screenshots: deps
	scripts/install-deps --browser
	scripts/browser-env
	$(SWIFT) build -c release --product attestation-admin
	$(SWIFT) build -c release --product attestation-server
	ATTESTATION_BIN=.build/release $(BROWSER_PYTHON) scripts/screenshots docs/screenshots

deps:
	scripts/install-deps

build: deps
	$(SWIFT) build

clean:
	@if [ -d .build-debian13 ]; then scripts/check-debian13 --remove; fi
	rm -rf .build $(ASAN_BUILD) $(TSAN_BUILD) .build-fuzz .build-image $(OUT) .venv-browser
