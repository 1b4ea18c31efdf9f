# kgames: see README.md. The two commands: `make run` and `make check`.
#
#   make [KERNEL=debian-7.3]  build kgames.ko for a kernel: debian-7.3 (default; Debian's stock
#                          7.3.4+deb13-amd64, module in out/debian-7.3/), debian-7.2, or test
#                          (the test kernel that scripts/kernel-build.sh builds; ./kgames.ko)
#   make KDIR=<dir>        build ./kgames.ko against a prepared Rust-enabled kernel build dir
#   make run [KERNEL=..] [CMD='...']  set up, build, boot the VM; a shell as nobody, or CMD
#   make check             host tests, lint, the in-VM suite on Debian's 7.3, the device suites
#                          under lockdep and KUnit on the test kernel, the DKMS flow, make run
#                          in tmux; ends with "N passed, M failed" (scripts/check.sh quick)
#   make check-full        make check with the whole in-VM suite on the test kernel too and
#                          Debian 7.2's suite: before a change to the glue is called done
#   make check-kernels     the in-VM suite on every supported kernel: Debian 7.2 and 7.3, test
#   make check-debug       the in-VM suite, fault injection and the 64-process stress on the
#                          debug kernel (KASAN, kmemleak, UBSAN, ...); not part of `make check`
#   make check-features    kgames.ko built with KGAMES_TARGET_FEATURES (popcnt, lzcnt, BMI1/2),
#                          its reversi and chess suites in the VM; not part of `make check`
#   make bench             engine benchmarks against peer crates (host; reversi built for
#                          x86-64 and for x86-64-v3); ZEBRA=/path/to/scrzebra adds FFO
#                          #40-#49 solved beside Zebra, ratio per position and in total
#   make bench-vm          FFO #40/#41 through /dev/reversi in the VM against the host, ratio
#   make fuzz [FUZZ_SECONDS=180]  coverage-guided fuzzing of the core code (host, libFuzzer)
#   make reversi-weights   regenerate the reversi pattern weights, compare with the shipped ones
#   make chess-net         regenerate the chess network (self-play data, training), compare
#                          with the shipped src/chess/nnue.bin (docs/engines/chess-nnue.md)
#   make stress            the 5-minute 64-process stress in the VM (suite stress64)
#   make clean

# LLVM_VERSION: scripts/toolchain.env, shared with the scripts.
include scripts/toolchain.env
LLVM ?= -$(LLVM_VERSION)
ifneq ($(wildcard /usr/lib/llvm-$(LLVM_VERSION)/bin),)
export PATH := /usr/lib/llvm-$(LLVM_VERSION)/bin:$(PATH)
endif

.PHONY: all modules setup kernel tools vm-ready vm-module run check check-full check-kernels check-debug check-features bench bench-vm fuzz reversi-weights chess-net stress clippy rustfmt clean

all: modules

# The kernel to build for and to boot (scripts/module-build.sh, scripts/vm-run.sh --kernel).
KERNEL ?= debian-7.3
# A kernel build directory given by the user: ./kgames.ko is built in place against it.
ifeq ($(origin KDIR),command line)
KERNEL := test
MODULE_IN_PLACE := 1
endif
export KGAMES_KERNEL := $(KERNEL)
# The test kernel: built once into the cache (scripts/kernel-build.sh prints its directory).
KDIR ?= $(shell bash scripts/kernel-build.sh --dir)

modules:
ifdef MODULE_IN_PLACE
	$(MAKE) -C $(KDIR) M=$(CURDIR) LLVM=$(LLVM) modules
else
	@bash scripts/module-build.sh $(KERNEL) >/dev/null
endif

# The kernel's clippy set on the module, warnings fatal (forces a rebuild of the crate).
clippy:
	@touch src/kgames_main.rs
	$(MAKE) -C $(KDIR) M=$(CURDIR) LLVM=$(LLVM) CLIPPY=1 KRUSTFLAGS=-Dwarnings modules

# The kernel's rustfmt configuration on the module's crate (rustfmt follows the `mod`s).
rustfmt:
	rustfmt --check --edition 2021 --config-path $(KDIR)/source/.rustfmt.toml src/kgames_main.rs

setup:
ifeq ($(KERNEL),test)
	bash scripts/setup-toolchain.sh --test-kernel
	bash scripts/kernel-build.sh >/dev/null
else
	bash scripts/setup-toolchain.sh
	bash scripts/debian-kernel.sh $(KERNEL) >/dev/null
endif

# The programs the guest runs (make run's shell, the in-VM tests), and nothing else: built with
# cargo's profile `tools` (release, without LTO: a fast compile) in cargo's folder in the cache,
# which outlives a fresh clone on the same machine, and copied to target/release.
KGAMES_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/kgames
CARGO_CACHE := $(KGAMES_CACHE)/cargo
GUEST_BINS := play xo-user kxo-cat reversi-client othello-link othello-match kgames-uci \
	kgames-vmtest round-trip play-tmux-test xo-user-tmux-test
tools:
	CARGO_TARGET_DIR=$(CARGO_CACHE) cargo build --profile tools -q $(addprefix --bin ,$(GUEST_BINS))
	@mkdir -p target/release
	cp -f $(addprefix $(CARGO_CACHE)/tools/,$(GUEST_BINS)) target/release/
	gcc -O2 -Wall -Wextra -Werror -o target/release/xo-select tests/vm/xo-select.c

# CMD reaches the recipe through the environment, so any quoting in it survives.
export CMD
# What a VM run needs: the kernel set up, then the module for it; the guest's tools meanwhile, in
# a second job (the downloads, the trixie root and the kernel's Rust metadata overlap cargo).
vm-ready:
	@$(MAKE) --no-print-directory -j2 vm-module tools
vm-module: setup
	@$(MAKE) --no-print-directory modules

run: vm-ready
	@if [ -n "$$CMD" ]; then bash scripts/vm-run.sh --kernel $(KERNEL) --cmd "$$CMD"; \
	else bash scripts/vm-run.sh --kernel $(KERNEL) --shell; fi

# The profiles of the one check runner (scripts/check.sh, docs/testing.md).
check:
	bash scripts/check.sh quick

check-full:
	bash scripts/check.sh full

check-kernels:
	bash scripts/check.sh kernels

check-debug:
	bash scripts/check.sh debug

check-features:
	bash scripts/check.sh features

# The lab's benches, matches and trainers (lab/README.md): they build in lab/, a workspace of
# its own; the product never depends on it.
LAB := cargo run --manifest-path lab/Cargo.toml --release -q
bench:
	bash lab/scripts/reversi-bench.sh
	$(LAB) -p chess-lab --bin chess_perft_bench
	$(LAB) -p chess-lab --bin chess_bench
	bash lab/scripts/chess-nnue-bench.sh

# FFO #40 and #41 through /dev/reversi in the VM and in-process on the host (same node budget).
bench-vm: vm-ready
	bash lab/scripts/reversi-vm-bench.sh

# 64 processes over 4 uids for 5 minutes on all devices (tests/vmtest/src/stress64.rs).
stress: vm-ready
	bash scripts/vm-run.sh --tests stress64

# Each target of tests/fuzz for FUZZ_SECONDS (default 180), niced; new inputs go to out/fuzz
# (FUZZ_SAVE=1: into the stored corpus tests/fuzz/corpus).
fuzz:
	bash scripts/fuzz.sh

# Self-play data and training from nothing (about 6 minutes); fails unless byte-identical.
reversi-weights:
	bash lab/scripts/reversi-weights.sh

chess-net:
	bash lab/scripts/chess-net.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) LLVM=$(LLVM) clean
	rm -rf out
