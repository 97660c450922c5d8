# The commands of the README, the benchmark, and the upkeep of the files copied or drawn from
# elsewhere; `make help` lists them. Each installs what it misses first.
#
# Build folders. SwiftPM rebuilds a whole folder when its compiler flags change, so each set of
# flags has its own, and these five are all there is (.build-debian13 is not one: it holds the
# Debian 13 root of make debian13, with its own .build inside; nor is .build-deb: the fresh
# Debian 12 and 13 roots of scripts/deb-root.sh, copied for piuparts, autopkgtest and
# scripts/check-deb.sh to install the package in):
#   .build        plain debug and release: make check, make run, make bench's attestation-bench,
#                 make screenshots, make stress's release server, and swift build / swift test by
#                 hand
#   .build-asan   the address sanitizer: make test (the Swift suites, then the browser tests,
#                 the fuzz corpus and the stress smoke against its programs)
#   .build-tsan   the thread sanitizer: make stress
#   .build-fuzz   libFuzzer's coverage instrumentation, the address sanitizer and -DFUZZING, for
#                 attestation-fuzz alone: scripts/stress/fuzz.sh (make stress; make test replays
#                 the corpus through .build-asan's attestation-fuzz instead)
#   .build-image  the Dockerfile's BUILD_FLAGS (release, --static-swift-stdlib), the release build
#                 that ships: make deb's package, make test's release server (the systemd sandbox,
#                 the browser tests' clock-shifted servers, the Debian 12 package) and its
#                 attestation-bench (the render-cost stage's instruction counts),
#                 scripts/stress/check-image-deps.py (make stress), Tests/Deploy/rehearse_guide.sh,
#                 and make bench's server: measured as the container and the package ship it
# Scripts and the Python tests find the binaries through the test harness (scripts/harness):
# $ATTESTATION_BIN, else the latest of .build/release and .build/debug (benchmarks: release).
SWIFT ?= swift
# Tests run under the address sanitizer, in a build folder of their own; LeakSanitizer's
# suppressions name the leaks of the toolchain's own libraries.
ASAN_BUILD ?= .build-asan
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/scripts/lsan-suppressions.txt:print_suppressions=0
# Ten frames of each allocation's stack, not the sanitizer's 30: recording them was the largest
# cost of a sanitized attestation-admin (perf: StackDepot Put and UnwindFast on top); a render
# took 1.33 s of CPU instead of 1.59 (medians of 8), and the suppressions above match within ten
# frames. An error's own stack is whole; ASAN_OPTIONS=malloc_context_size=30 for longer ones.
export ASAN_OPTIONS ?= malloc_context_size=10
OUT ?= out

# A fictitious person for the sample link.
SAMPLE = --first-name Camille --last-name Dupont --birth-date 01/01/1970 --birth-place Lyon \
         --address "999 avenue de France" --zip 75001 --city Paris --reason travail
ADMIN = .build/release/attestation-admin

.PHONY: run check test bench deps build clean screenshots stress stress-smoke debian13 deb check-webkit help \
        form-pictures draft-reference-form generate-font-metrics render-icons update-licences update-vendor-js

# The browser tests' and screenshots' Python: Debian's, with axe-selenium-python (scripts/browser-env.py).
BROWSER_PYTHON = .venv-browser/bin/python

SERVER = .build/release/attestation-server

# A local configuration and key on first use, a sample link for a fictitious person, then the
# server on 127.0.0.1:8080 until Ctrl-C.
run: deps ## a sample link for a fictitious person, then the release server on 127.0.0.1:8080 (make alone)
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
check: ## the everyday loop: the Swift suites on a debug build (FILTER=Suite), the harness's tests
	scripts/install-deps.sh --test
	$(SWIFT) test --disable-xctest $(if $(FILTER),--filter '$(FILTER)')
	ATTESTATION_BIN=.build/debug python3 -m unittest discover -s scripts/harness
	python3 -m unittest discover -s Tests/Docs
	python3 -m unittest discover -s Tests/Layout

# What CI runs (.ci/run), in stages that run side by side where they can (scripts/run-stages.py
# --list shows them and what each needs; the table of their times ends the run): swift format
# lint; the documentation's and layout's checks; every Swift suite under the address sanitizer;
# the test harness's own tests; the fuzz corpus replayed; the pages in headless Chromium; the
# deployment files (proxies and TLS against the sanitized server, the systemd sandbox against the
# release one); every built-in version's instructions per PDF under callgrind, none over 3× the
# cheapest (Benchmarks/callgrind-per-render); the Kubernetes manifests; hostile clients, floods and replicas at small scale;
# the Debian 13 root (its release build with the tests, its Swift suite and a served PDF); and the Debian
# package of each release, made from its release build and proved in copies of a fresh root of
# its release by Debian's piuparts (install, upgrade, remove, purge) and autopkgtest
# (debian/tests: the server, a link's PDF, a revoked link), and scripts/check-deb.sh (what the
# tools do not check). Two builds here (address sanitizer with the tests; release with
# the Swift runtime linked in, which the package ships), two in the Debian 13 root (release with
# the tests; the two programs with the Swift runtime linked in, for its package).
test: ## what CI runs: lint, Swift suites (ASan), harness, fuzz corpus, browser, deployment, stress smoke, Debian 13, packages
	scripts/install-deps.sh --test --browser --stress --debian13 --deb
	scripts/run-stages.py

# Debian 13 (trixie) beside this machine's Debian 12 (scripts/check-debian13.sh): a debootstrap root
# in .build-debian13 with the README's packages, this machine's Swift toolchain bound in, one
# debug build with the tests there, the two programs in release with the Swift runtime linked in
# and the Debian 13 package made from them (out/deb/debian13/), the Swift suite, then init,
# mint, the release server and a PDF checked with pdftotext and zbarimg. The root is kept for the next run; make clean unmounts and
# deletes it. make test runs the same steps as stages of its own.
debian13: ## the Swift suite, the release package and a served PDF in a Debian 13 root (root needed)
	scripts/install-deps.sh --debian13
	scripts/check-debian13.sh

# The Debian package, attestation-links_VERSION_ARCH.deb in the repository's root, for the Debian
# release this runs on (scripts/build-deb.sh: debhelper, dependencies by dpkg-shlibdeps, the units
# of debian/ installed by dh_installsystemd, manual pages from --help, lintian), from the
# release build with the Swift runtime linked in. Then, as root: apt install ./attestation-links_*.deb
# (docs/deployment.md). make test proves it in fresh Debian 12 and 13 roots (piuparts,
# autopkgtest, scripts/check-deb.sh).
deb: deps ## attestation-links_VERSION_amd64.deb for this Debian release (static release build, lintian)
	scripts/install-deps.sh --deb
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-image --product attestation-server
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-image --product attestation-admin
	scripts/build-deb.sh

# make test's stages that try the server as an attacker or an operator would, with the builds
# they need (scripts/run-stages.py --only): the fuzz corpus replayed under the address sanitizer,
# the deployment files (proxies against the sanitized server; the systemd unit's sandbox against
# the release one, as its seccomp filter cannot hold a sanitizer's runtime, and a system
# call the server starts making, as libdispatch's setpriority did, must fail here, not in
# production), the Kubernetes manifests, hostile clients, a good client's share under idle
# connections and floods (timing not asserted at this scale), two replicas behind nginx.
stress-smoke: ## make test's hardening stages alone: fuzz corpus, deployment files, hostile clients, replicas
	scripts/install-deps.sh --test --stress
	scripts/run-stages.py --only fuzz-replay deploy-proxies deploy-sandbox kubernetes stress-hostile stress-fairness stress-scaleout

# The whole hardening suite, an hour or so: every fuzzer for STRESS_FUZZ_SECONDS, the test suite
# under the address then the thread sanitizer, a million-request soak, hostile clients, a good
# client's share under idle connections and floods (its latency targets asserted) and replicas
# against the release server, and the container image's runtime stage rebuilt.
STRESS_FUZZ_SECONDS ?= 300
TSAN_BUILD ?= .build-tsan
stress: deps ## the whole hardening suite, an hour or so
	scripts/install-deps.sh --test --bench --stress
	scripts/stress/fuzz.sh --seconds $(STRESS_FUZZ_SECONDS)
	$(SWIFT) test --disable-xctest --sanitize=address --scratch-path $(ASAN_BUILD)
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --disable-xctest --sanitize=thread --scratch-path $(TSAN_BUILD)
	$(SWIFT) build -c release --product attestation-server
	$(SWIFT) build -c release --product attestation-admin
	ATTESTATION_BIN=.build/release scripts/stress/stress-soak.sh
	ATTESTATION_BIN=.build/release scripts/stress/stress-hostile.py
	ATTESTATION_BIN=.build/release scripts/stress/stress-fairness.py
	ATTESTATION_BIN=.build/release scripts/stress/stress-scaleout.sh
	ATTESTATION_BIN=.build/release scripts/check-deploy.sh
	scripts/stress/check-image-deps.py --rootfs

# The medians of each render (a row per built-in version), their instructions under callgrind (a
# row per version's PDF), the server under wrk with the links users get (following the calendar)
# and pinned ones, then the server's instructions per request under callgrind, for each route a
# link opens (BENCH_CALLGRIND_REQUESTS requests after one; docs/performance.md).
BENCH_CALLGRIND_REQUESTS ?= 3
bench: deps ## rendering and server benchmarks: times and instruction counts (release; the server as the image ships it)
	scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product attestation-bench
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-image --product attestation-server
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-image --product attestation-admin
	.build/release/attestation-bench
	Benchmarks/callgrind-per-render
	ATTESTATION_BIN=.build-image/release scripts/stress/bench-server.sh
	ATTESTATION_BIN=.build-image/release Benchmarks/callgrind-server $(BENCH_CALLGRIND_REQUESTS)

# The pages at phone size (390 x 844), light and dark, into docs/screenshots/: fictitious people,
# a temporary configuration, the release server on a free port, headless Chromium.
screenshots: deps ## the pages at phone size, light and dark, into docs/screenshots/
	scripts/install-deps.sh --browser
	scripts/browser-env.py
	$(SWIFT) build -c release --product attestation-admin
	$(SWIFT) build -c release --product attestation-server
	ATTESTATION_BIN=.build/release $(BROWSER_PYTHON) scripts/upkeep/screenshots.py docs/screenshots

# « Montrer à l’agent » in WebKit, the engine of every iPhone browser (the browser tests run in
# Chromium only): WebKitGTK's MiniBrowser at phone size under a virtual X server, the debug server
# on a free port, the officer view online and offline read back with zbarimg; a JSON report, the
# screenshots in a temporary folder it names. Not part of make test.
check-webkit: deps ## the officer view online and offline in WebKit (WebKitGTK), a JSON report
	scripts/install-deps.sh --webkit
	$(SWIFT) build --product attestation-admin
	$(SWIFT) build --product attestation-server
	ATTESTATION_BIN=.build/debug scripts/stress/check-webkit.py

# The files the repository keeps copied or drawn from elsewhere, each made again by hand when its
# source changes (the tests that compare say which to run); review the diff before committing.

# docs/forms/'s pictures: page 1 of each Ministry blank, the form as the server draws it, and the
# two laid over each other. FORM_BLANKS holds the blanks, a folder per form.
FORM_BLANKS ?= ../shared/reference/forms
form-pictures: deps ## docs/forms/'s pictures: each Ministry blank beside the form as drawn (FORM_BLANKS=dir)
	scripts/install-deps.sh --forms
	$(SWIFT) build --product attestation-admin
	ATTESTATION_BIN=.build/debug scripts/upkeep/form-pictures.sh $(FORM_BLANKS)

# A built-in form's first draft, from one folder of the reference forms (two folders: the two
# contexts of one blank), written to DRAFT and finished by hand.
REFERENCE_FORM ?=
DRAFT ?= $(OUT)/draft-form.json
draft-reference-form: deps ## a form's JSON drafted into DRAFT from REFERENCE_FORM=../shared/reference/forms/ID
	@[ -n "$(REFERENCE_FORM)" ] || { echo "usage: make draft-reference-form REFERENCE_FORM=../shared/reference/forms/ID [DRAFT=file]" >&2; exit 64; }
	scripts/install-deps.sh --forms
	@mkdir -p $(dir $(DRAFT))
	scripts/upkeep/draft-reference-form.py $(if $(word 2,$(REFERENCE_FORM)),--contexts) $(REFERENCE_FORM) > $(DRAFT)
	@echo "Draft: $(DRAFT)"

generate-font-metrics: deps ## Sources/FormSchema/Fonts/standard-fonts.json from Debian's URW fonts
	scripts/install-deps.sh --forms
	scripts/upkeep/generate-font-metrics.py

render-icons: deps ## Public/icones/ drawn from Public/icone.svg by headless Chromium
	scripts/install-deps.sh --browser
	scripts/upkeep/render-icons.sh

# The Swift packages' licences are read from .build/checkouts, which resolving makes.
update-licences: deps ## Sources/Licenses/Texts/ copied from this machine's licence files
	$(SWIFT) package resolve
	scripts/upkeep/update-licences.py

update-vendor-js: deps ## Public/vendor/ copied from Debian's node-qrcode-generator
	scripts/install-deps.sh --test
	scripts/upkeep/update-vendor-js.sh

deps: ## the Debian packages a build needs
	scripts/install-deps.sh

build: deps ## swift build (debug)
	$(SWIFT) build

clean: ## every build folder, the Debian 13 root, the package's check roots, out/ and .venv-browser
	@if [ -d .build-debian13 ]; then scripts/check-debian13.sh --remove; fi
	@for release in 12 13; do if [ -d .build-deb/$$release ]; then scripts/deb-root.sh --release $$release --remove; fi; done
	rm -rf .build $(ASAN_BUILD) $(TSAN_BUILD) .build-fuzz .build-image $(OUT) .venv-browser

# Each target with its line: the ## comment on its rule.
help: ## this list
	@awk -F ':[^#]*## ' '/^[a-z0-9-]+:[^#]*## / { printf "  make %-22s %s\n", $$1, $$2 }' $(firstword $(MAKEFILE_LIST))
