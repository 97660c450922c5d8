# The two commands of the README, and the benchmark. Each installs what it misses first.
SWIFT ?= swift
# Tests run under the address sanitizer, in a build folder of their own; LeakSanitizer's
# suppressions name the leaks of the toolchain's own libraries.
ASAN_BUILD ?= .build-asan
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/scripts/lsan-suppressions.txt:print_suppressions=0
OUT ?= out

# A fictitious person for the sample attestation.
SAMPLE = --first-name Camille --last-name Dupont --birth-date 01/01/1970 --birth-place Lyon \
         --address "999 avenue de France" --zip 75001 --city Paris --reason travail --offset -20

.PHONY: run test bench deps build clean

run: deps
	$(SWIFT) build -c release --product attestation-admin
	@mkdir -p $(OUT)
	.build/release/attestation-admin render $(SAMPLE) -o $(OUT)/attestation-exemple.pdf
	.build/release/attestation-admin render $(SAMPLE) -o $(OUT)/attestation-exemple.png
	@echo
	@echo "Sample attestation (Camille Dupont, left 20 minutes ago):"
	@echo "  PDF: $(CURDIR)/$(OUT)/attestation-exemple.pdf"
	@echo "  PNG of its QR code: $(CURDIR)/$(OUT)/attestation-exemple.png"
	@echo "Render your own: .build/release/attestation-admin render --help"

test:
	scripts/install-deps --test
	$(SWIFT) test --disable-xctest --sanitize=address --scratch-path $(ASAN_BUILD)

bench: deps
	$(SWIFT) build -c release --product attestation-bench
	.build/release/attestation-bench

deps:
	scripts/install-deps

build: deps
	$(SWIFT) build

clean:
	rm -rf .build $(ASAN_BUILD) $(OUT)
