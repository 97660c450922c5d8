# The two commands of the README, and the benchmark. Each installs what it misses first.
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

.PHONY: run test bench deps build clean

# Until the server exists: a local configuration and key on first use, a sample link, and the
# attestation it gives, rendered exactly as the server will.
run: deps
	$(SWIFT) build -c release --product attestation-admin
	@[ -f config.json ] || $(ADMIN) init
	@mkdir -p $(OUT)
	$(ADMIN) mint $(SAMPLE) > $(OUT)/lien-exemple.txt
	$(ADMIN) render "$$(cat $(OUT)/lien-exemple.txt)" --offset -20 -o $(OUT)/attestation-exemple.pdf
	$(ADMIN) render "$$(cat $(OUT)/lien-exemple.txt)" -o $(OUT)/attestation-exemple.png
	@echo
	@echo "Sample link (Camille Dupont, a fictitious person):"
	@cat $(OUT)/lien-exemple.txt
	@echo "Its attestation, left 20 minutes ago: $(CURDIR)/$(OUT)/attestation-exemple.pdf"
	@echo "Its QR code: $(CURDIR)/$(OUT)/attestation-exemple.png"
	@echo "More: $(ADMIN) --help"

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
