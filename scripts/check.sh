#!/usr/bin/env bash
# `make check`: set-up (and its idempotence), host lint and tests, the module build with the
# kernel's clippy and rustfmt, the module built with rustc 1.85.1 for Debian's stock 7.3 kernel,
# the in-VM TAP tests on that kernel and on the test kernel, the DKMS flow and the detector
# self-test. Every check counts; the last line is "N passed, M failed"; the exit status is
# non-zero on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
log=out/check.log
. "$here/tally.sh"

# 1. Set-up, then its idempotence: a second run must install and build nothing.
# The kernel each VM run boots is named explicitly below, whatever the caller's KERNEL.
unset KGAMES_KERNEL
run "setup: toolchain" bash scripts/setup-toolchain.sh --test-kernel
run "setup: kernel source" bash scripts/kernel-source.sh
run "setup: Debian trixie root (the compilers of Debian's kernels)" bash scripts/debian-root.sh
run "setup: Debian's stock 7.3 kernel, its Rust metadata regenerated" bash scripts/debian-kernel.sh debian-7.3
step "setup: test kernel (cached after the first build)"
if kdir=$(bash scripts/kernel-build.sh 2> >(tee -a "$log" | grep -E '^(==>|    \.\.\.|error)' >&2)); then
    pass "setup: test kernel"
else
    fail "setup: test kernel"; finish
fi
export KDIR=$kdir
idem() {
    local o
    o=$( { bash scripts/setup-toolchain.sh --test-kernel; bash scripts/kernel-source.sh; bash scripts/kernel-build.sh;
           bash scripts/debian-root.sh; bash scripts/debian-kernel.sh debian-7.3; } 2>&1 >/dev/null)
    echo "$o"
    ! grep -q '^==>' <<<"$o"
}
run "setup: a second run of the set-up scripts is a no-op" idem
# Debian's 7.3 kernel as scripts/debian-kernel.sh names it: its release (7.3.4+deb13-amd64),
# the upstream version (7.3.4), the package version, and the release as a regex.
release73=$(bash scripts/debian-kernel.sh debian-7.3 --release)
version73=${release73%%+*}
pkgver73=$(bash scripts/debian-kernel.sh debian-7.3 --pkgver)
re73=${release73//+/\\+}

# 2. Host crates: format, clippy, tests.
run "host: the kernel-log detector tells injected faults from reports (scripts/detect.sh --self-test)" bash scripts/detect.sh --self-test
run "docs: the checker catches a broken link, a missing target, an outside citation" bash scripts/docs-check.sh --self-test
run "docs: links resolve, named make targets exist, nothing cites a path outside the repository" bash scripts/docs-check.sh
run "host: cargo fmt --check" cargo fmt --all -- --check
run "host: cargo clippy -D warnings" cargo clippy --workspace --all-targets -q -- -D warnings
run "host: cargo doc --workspace --no-deps, no warning" env RUSTDOCFLAGS=-Dwarnings cargo doc --workspace --no-deps -q
step "host: cargo test"
cargo test --workspace -q > out/cargo-test.log 2>&1; rc=$?
cat out/cargo-test.log >> "$log"
p=$(grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' out/cargo-test.log | awk '{s+=$4} END {print s+0}')
f=$(grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' out/cargo-test.log | awk '{s+=$6} END {print s+0}')
passed=$((passed + p)); failed=$((failed + f))
echo "host: cargo test: $p passed, $f failed"
if [ $rc != 0 ] && [ "$f" = 0 ]; then fail "host: cargo test (did not build or crashed)"; tail -n 30 out/cargo-test.log; fi
# The reversi match tool's smoke run: 4 games at 2000 nodes per move (seconds).
run "host: reversi match smoke run" cargo run -q --profile test -p kgames-reversi --bin reversi_match -- 4 N2000
# The chess network's pipeline in small: data, training, quantisation, a move with it.
run "host: chess network smoke run (make chess-net in small: data, training, a move)" bash scripts/chess-net.sh --smoke

# 3. The module: kernel clippy set with warnings fatal, the kernel's rustfmt, the build.
rm -f kgames.ko
run "module: build kgames.ko with no warning (rustc, objtool, modpost)" bash scripts/module-build.sh test
run "module: the kernel's clippy set (CLIPPY=1), warnings fatal" make -s clippy KDIR="$kdir"
run "module: rustfmt --check with the kernel's config" make -s rustfmt KDIR="$kdir"
run "module: kgames.ko was built" test -f kgames.ko
run "tools: build the user tools, the in-VM test binary and the C select client" make -s tools
# The oldest compiler a supported kernel uses builds everything the module compiles.
run "module: kgames.ko for Debian's stock $version73 kernel, built with its rustc 1.85.1 and gcc-14, no warning, every symbol exported, vermagic $release73" \
    bash scripts/module-build.sh debian-7.3
# The symbol check itself: with misc_register taken out of Debian 7.3's export list
# (Module.symvers of its build directory, put back after; scripts/debian-kernel.sh also puts
# it back if this is cut short), the module build (scripts/lib.sh build_module, as
# scripts/module-build.sh runs it) must stop, naming the symbol, and leave no kgames.ko.
symvers_check() {
    local kdir o rc t=$repo/out/symvers-check
    kdir=$(bash scripts/debian-kernel.sh debian-7.3) || return 1
    module_tree "$t" || return 1
    cp "$kdir/Module.symvers" "$t/Module.symvers.kernel"
    grep -v "	misc_register	" "$t/Module.symvers.kernel" > "$kdir/Module.symvers"
    o=$(build_module "$kdir" "$t/tree" 2>&1)
    cp "$t/Module.symvers.kernel" "$kdir/Module.symvers"
    echo "$o"
    grep -q "error: kgames.ko needs the symbol misc_register, which Linux $release73 does not export" <<<"$o" &&
        [ ! -e "$t/tree/kgames.ko" ]; rc=$?
    rm -rf "$t"
    return $rc
}
run "module: a symbol missing from the kernel's Module.symvers stops the build, naming it, with no kgames.ko left" symvers_check
run "module: kgames.ko for Debian 7.3 up to date after the symbol check" bash scripts/module-build.sh debian-7.3
# Bad input: each case gets one message naming the kernel and what is missing, and leaves no
# build directory or module behind.
headers=$KGAMES_CACHE/debian/$release73/sys/usr/src/linux-headers-$release73
src73=$(bash scripts/kernel-source.sh 7.3 "$pkgver73" 2>/dev/null)
# expect_msg REGEX CMD...: CMD fails and prints a line matching REGEX.
expect_msg() { local re=$1 o; shift; o=$("$@" 2>&1) && { echo "$o"; return 1; }; echo "$o"; grep -qE "$re" <<<"$o"; }
no_rust() {
    local d; d=$(mktemp -d)
    mkdir "$d/h" && grep -v '^CONFIG_RUST=y' "$headers/.config" > "$d/h/.config" && cp "$headers/Module.symvers" "$d/h/"
    expect_msg "Linux $re73 is built without CONFIG_RUST" bash scripts/rust-metadata.sh "$d/h" "$src73" "$d/b" "$release73"
    local rc=$?; [ ! -e "$d/b" ] || rc=1; rm -rf "$d"; return $rc
}
run "bad input: a kernel without CONFIG_RUST is named, nothing is built" no_rust
wrong_source() {
    local d; d=$(mktemp -d)
    mkdir "$d/s" && printf 'kernelversion:\n\t@echo 7.2.12\n' > "$d/s/Makefile"
    expect_msg "the source at .* is Linux 7.2.12, the headers are of Linux $version73" bash scripts/rust-metadata.sh "$headers" "$d/s" "$d/b" "$release73"
    local rc=$?; [ ! -e "$d/b" ] || rc=1; rm -rf "$d"; return $rc
}
run "bad input: headers with another kernel's source are refused, naming both versions" wrong_source
wrong_rustc() {
    local d; d=$(mktemp -d)
    expect_msg "Linux $re73 was built with 'rustc 1.85.1 .*'; this machine's rustc is 'rustc" \
        bash scripts/rust-metadata.sh "$headers" "$src73" "$d/b" "$release73"
    local rc=$?; [ ! -e "$d/b" ] || rc=1; rm -rf "$d"; return $rc
}
run "bad input: a rustc other than the kernel's (the host's) is refused, naming both" wrong_rustc
no_source_pkg() {
    local d; d=$(mktemp -d)
    (cd "$d" && expect_msg "Linux $re73's headers lack the Rust metadata and /usr/src/linux-source-7.3.tar.xz is missing \(Debian: apt install linux-source-7.3\)" \
        env KGAMES_DKMS_CACHE="$d/cache" bash "$repo/scripts/dkms-build.sh" "$release73" "$headers")
    local rc=$?; [ ! -e "$d/kgames.ko" ] || rc=1; rm -rf "$d"; return $rc
}
run "bad input: DKMS without the linux-source package says which one to install" no_source_pkg
run "bad input: a module built for another kernel is refused before the boot, naming both" \
    expect_msg "kgames.ko is built for Linux $version73, not for the kernel to boot, Linux $re73" \
    bash scripts/vm-run.sh --kernel debian-7.3 --ko "$repo/kgames.ko" --cmd true --out "$repo/out/vm-wrong"

# 4. In the VM: Debian's stock kernel (what people run) and the test kernel (lockdep,
# atomic-sleep checks, the runner's defaults).
vm_suite debian-7.3
vm_suite test
kunit_tally test "$repo/out/vm-test/dmesg.txt"
# The kselftest target's other two ways (its first, make -C tests/selftests/kgames run_tests,
# is the runs above): installed by the kernel's install rule and run by run_kselftest.sh in a
# guest that sees no checkout (Debian's kernel), and vng's one command (the test kernel). Both
# with the quick suite base of devices.sh.
ksft_installed() {
    local o
    bash scripts/kselftest-install.sh --ko "$repo/out/debian-7.3/kgames.ko" "$repo/out/kselftest" || return 1
    o=$(bash scripts/vm-run.sh --kernel debian-7.3 --root --out "$repo/out/vm-ksft" --cmd '
        cp -a out/kselftest /tmp/ksft
        # The checkout is hidden: the installed folder is all the tests see.
        unshare -m sh -c '"'"'mount -t tmpfs none "$1" && cd / && test ! -e "$1/Makefile" &&
            KGAMES_KO= KSELFTEST_DEVICES_SH_ARGS=base /tmp/ksft/run_kselftest.sh -t kgames:devices.sh'"'"' sh "$PWD"')
    echo "$o"
    grep -q '^ok 1 selftests: kgames: devices.sh$' <<<"$o" && grep -qE '^# ok [0-9]+ - base: ' <<<"$o"
}
run "kselftest: installed by the kernel's install rule, run_kselftest.sh -t kgames:devices.sh with no checkout in the guest" ksft_installed
ksft_vng() {
    local o
    # The guest sees the checkout read-only: the target is built on the host first.
    make -s -C tests/selftests/kgames all || return 1
    o=$(timeout 900 vng --run "$(bash scripts/kernel-build.sh)" --disable-kvm --force-9p --cpus 2 --memory 1G \
        --user root --exec "insmod kgames.ko && KSELFTEST_DEVICES_SH_ARGS=base make -s -C tests/selftests/kgames run_tests TEST_PROGS=devices.sh; rmmod kgames" 2>&1)
    echo "$o"
    grep -q '^ok 1 selftests: kgames: devices.sh$' <<<"$o" && grep -qE '^# ok [0-9]+ - base: ' <<<"$o"
}
run "kselftest: vng --run KERNEL --exec 'insmod kgames.ko && make -C tests/selftests/kgames run_tests' on the test kernel" ksft_vng
run "dkms: install, build, load on Debian's 7.3 kernel, remove (scripts/dkms-check.sh)" bash scripts/dkms-check.sh debian-7.3
run "make run in a real terminal (tmux): tty, size and resize, job control, play, Ctrl-C, xo-user, exit 0, the size through a pipe (scripts/run-terminal-check.sh)" \
    bash scripts/run-terminal-check.sh debian-7.3

# 5. The detector itself: a deliberate WARNING at load must fail the runner.
step "vm: detector self-test (module loaded with test_report=1 (a WARNING) must fail the run)"
bash scripts/vm-run.sh --kernel test --cmd true --insmod-args test_report=1 --out "$repo/out/vm-warn" >> "$log" 2>&1; rc=$?
if [ $rc = 90 ]; then pass "vm: a kernel WARNING in the guest fails the run"; else fail "vm: a kernel WARNING in the guest fails the run (runner exit $rc)"; fi

finish
