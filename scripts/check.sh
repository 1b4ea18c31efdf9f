#!/usr/bin/env bash
# The one check runner. Each profile counts every check, prints each check's time and each
# phase's, and ends with "N passed, M failed" (non-zero exit status on any failure):
#   check.sh [quick]   `make check` (what CI runs): set-up and its idempotence; host lint and
#                      tests, the lab's smoke runs; the module built with the kernel's clippy and
#                      rustfmt, and for Debian's stock 7.3 kernel with its rustc 1.85.1; the build
#                      scripts given bad input; the whole in-VM suite on Debian's 7.3 (what
#                      people run), with the installed kselftest and the DKMS-built module in the
#                      same boot; on the test kernel what only it shows (lockdep, the atomic-sleep
#                      check, KUnit) over the device suites; kselftest through vng; `make run`
#                      in tmux; the detector's self-test
#   check.sh full      `make check-full`: quick, with the whole in-VM suite on the test kernel
#                      too and Debian's 7.2 kernel's suite (before a change to the glue is done)
#   check.sh kernels   `make check-kernels`: the in-VM suite on every supported kernel
#   check.sh debug     `make check-debug`: the debug kernel (KASAN, kmemleak, UBSAN, fault
#                      injection), its 64-process stress, and each report kind failing a run
#   check.sh features  `make check-features`: kgames.ko with KGAMES_TARGET_FEATURES in the VM
# Logs: out/check.log (quick), out/check-PROFILE.log (the others). See docs/testing.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
profile=${1:-quick}
case "$profile" in
    quick) log=out/check.log ;;
    full|kernels|debug|features) log=out/check-$profile.log ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check.sh: unknown profile '$profile' (quick, full, kernels, debug, features)" >&2; exit 2 ;;
esac
. "$here/tally.sh"
# The kernel each VM run boots is named explicitly below, whatever the caller's KERNEL.
unset KGAMES_KERNEL

# --- The parts, in the order the profiles run them.

# Set-up, then its idempotence: a second run must install and build nothing.
setup() {
    phase "set-up"
    run "setup: toolchain" bash scripts/setup-toolchain.sh --test-kernel
    run "setup: kernel source" bash scripts/kernel-source.sh
    run "setup: Debian trixie root (the compilers of Debian's kernels)" bash scripts/debian-root.sh
    run "setup: Debian's stock 7.3 kernel, its Rust metadata regenerated" bash scripts/debian-kernel.sh debian-7.3
    step "setup: test kernel (cached after the first build)"
    if kdir=$(bash scripts/kernel-build.sh 2> >(tee -a "$log" | grep -E '^(==>|    \.\.\.|error)' >&2)); then
        pass "setup: test kernel"
    else
        fail "setup: test kernel"; finish "check $profile"
    fi
    export KDIR=$kdir
    run "setup: a second run of the set-up scripts is a no-op" idem
    # Debian's 7.3 kernel as scripts/debian-kernel.sh names it: its release (7.3.4+deb13-amd64),
    # the upstream version (7.3.4), the package version, and the release as a regex.
    release73=$(bash scripts/debian-kernel.sh debian-7.3 --release)
    version73=${release73%%+*}
    pkgver73=$(bash scripts/debian-kernel.sh debian-7.3 --pkgver)
    re73=${release73//+/\\+}
}
idem() {
    local o
    o=$( { bash scripts/setup-toolchain.sh --test-kernel; bash scripts/kernel-source.sh; bash scripts/kernel-build.sh;
           bash scripts/debian-root.sh; bash scripts/debian-kernel.sh debian-7.3; } 2>&1 >/dev/null)
    echo "$o"
    ! grep -q '^==>' <<<"$o"
}

# Host crates: format, clippy, docs, tests; the lab's pipelines in small. Cargo works in a
# mirror of the workspace in the cache (KGAMES_CACHE/host-tree, updated by content: a file
# keeps its old time unless it changed) with its builds beside it (KGAMES_CACHE/cargo), so a
# fresh clone on the same machine compiles only what differs from the last run's tree
# (cargo decides by file times, and a clone's files are all new).
host() {
    phase "host: lint, docs, cargo test, smoke runs"
    export CARGO_TARGET_DIR=$KGAMES_CACHE/cargo
    local m=$KGAMES_CACHE/host-tree
    mkdir -p "$m"
    exec 8>"$m.lock"; flock 8
    run "host: the kernel-log detector tells injected faults from reports (scripts/detect.py --self-test)" python3 scripts/detect.py --self-test
    run "docs: the checker catches a broken link, a missing target, an outside citation, a file missing from the map" python3 scripts/docs-check.py --self-test
    run "docs: links resolve, named make targets exist, nothing cites a path outside the repository, the map lists every Rust file" python3 scripts/docs-check.py
    run "host: the workspace mirrored for cargo, by content (rsync --checksum)" \
        rsync -rlpD --checksum --delete --delete-excluded --filter=':- .gitignore' --exclude=/.git ./ "$m/"
    run "host: cargo fmt --check" in_tree "$m" cargo fmt --all -- --check
    run "host: cargo clippy -D warnings" in_tree "$m" cargo clippy --workspace --all-targets -q -- -D warnings
    run "host: cargo doc --workspace --no-deps, no warning" in_tree "$m" env RUSTDOCFLAGS=-Dwarnings cargo doc --workspace --no-deps -q
    cargo_tests host "$m" out/cargo-test.log
    # The lab (lab/README.md): a workspace of its own, built beside the product's in the cache.
    # It builds, its tests pass (the ladder's against the product's kgames-uci, just built by
    # the tests above), and its pipelines run in small.
    local lab=$KGAMES_CACHE/cargo-lab
    run "lab: cargo fmt --check" in_tree "$m/lab" cargo fmt --all -- --check
    run "lab: cargo clippy -D warnings" in_tree "$m/lab" env CARGO_TARGET_DIR="$lab" cargo clippy --workspace --all-targets -q -- -D warnings
    KGAMES_UCI=$CARGO_TARGET_DIR/debug/kgames-uci CARGO_TARGET_DIR=$lab \
        cargo_tests lab "$m/lab" out/cargo-test-lab.log
    # The reversi match tool's smoke run: 4 games at 2000 nodes per move (seconds).
    run "lab: reversi match smoke run" in_tree "$m/lab" env CARGO_TARGET_DIR="$lab" cargo run -q --profile test -p reversi-lab --bin reversi_match -- 4 N2000
    # The reversi data generator in small: 2 chunks of 2 games, then again (nothing to do).
    rm -rf out/datagen-smoke
    run "lab: reversi data generator smoke run (2 chunks, then resumed with none left)" in_tree "$m/lab" env CARGO_TARGET_DIR="$lab" \
        cargo run -q --profile test -p reversi-lab --bin reversi_datagen -- --dir "$repo/out/datagen-smoke" --games 4 --chunk-games 2 --nodes 2000 --exact 10
    run "lab: the data generator's chunks are there, 20 bytes a position" datagen_chunks
    # The least-squares fitter on those chunks: it lowers the training error, a prior that
    # outweighs the data gives back the start set byte for byte, and a heavy smoothing makes
    # neighbouring phases alike.
    run "lab: reversi_fit lowers the error on the smoke data, keeps the start set under a heavy prior, smooths phases" \
        fit_smoke "$m/lab" "$lab"
    # WTHOR games as opening lines: the first N plies of each long enough game, once each.
    run "lab: wthor-openings.py writes each game's first plies once, sorted, skips short games" \
        wthor_smoke
    # The chess network's pipeline in small: data, training, quantisation, a move with it.
    run "lab: chess network smoke run (make chess-net in small: data, training, a move)" bash lab/scripts/chess-net.sh --smoke
    exec 8>&-
    unset CARGO_TARGET_DIR
}
# The smoke run's two chunk files, each a whole number of 20-byte records.
datagen_chunks() {
    local f n=0
    for f in out/datagen-smoke/chunk-0000[01].bin; do
        [ -s "$f" ] && [ $(( $(stat -c %s "$f") % 20 )) = 0 ] && n=$((n + 1))
    done
    [ "$n" = 2 ]
}
# Four games in WTHOR's PGN form: two alike in their first four plies, one of three plies, one other.
wthor_smoke() {
    local out=$repo/out/wthor-smoke
    mkdir -p "$out"
    printf '%s\n' '[Event "a"]' '[Result "33-31"]' '1. F5 D6' '2. C3 D3' '3. C4 F4' \
        '[Event "b"]' '1. F5 D6' '2. C3 D3' '3. C4 B4' '[Event "c"]' '1. F5 F6' '2. E6' \
        '[Event "d"]' '1. C4 C3' '2. D3 C5' >"$out/games.pgn"
    python3 lab/scripts/wthor-openings.py 4 "$out/games.pgn" >"$out/lines" 2>/dev/null &&
        [ "$(tr '\n' ' ' <"$out/lines")" = "c4c3d3c5 f5d6c3d3 " ]
}
# fit_smoke LAB TARGET: reversi_fit (from the lab at LAB, built into TARGET) on the data
# generator's smoke chunks, from the shipped weights.
fit_smoke() {
    local out=$repo/out/fit-smoke first last fit=(in_tree "$1" env CARGO_TARGET_DIR="$2"
        cargo run -q --profile test -p reversi-lab --bin reversi_fit --)
    mkdir -p "$out"
    "${fit[@]}" --data "$repo/out/datagen-smoke" \
        --out "$out/w.bin" --start "$repo/src/reversi/weights.bin" --prior 0 --smooth 0 \
        --iterations 10 > "$out/log" || return 1
    first=$(sed -n 's/.*start: rms error train \([0-9.]*\).*/\1/p' "$out/log")
    last=$(sed -n 's/^iteration  10: rms error train \([0-9.]*\).*/\1/p' "$out/log")
    awk -v a="$first" -v b="$last" 'BEGIN { exit !(a != "" && b != "" && b < a / 2) }' || return 1
    "${fit[@]}" --data "$repo/out/datagen-smoke" \
        --out "$out/same.bin" --start "$repo/src/reversi/weights.bin" --prior 1e9 --smooth 0 \
        --iterations 10 > /dev/null || return 1
    cmp -s "$out/same.bin" "$repo/src/reversi/weights.bin" || return 1
    # A smoothing that outweighs the prior draws neighbouring phases together.
    "${fit[@]}" --data "$repo/out/datagen-smoke" \
        --out "$out/smooth.bin" --start "$repo/src/reversi/weights.bin" --prior 1000 \
        --smooth 1000000 --iterations 20 > /dev/null || return 1
    python3 - "$repo/src/reversi/weights.bin" "$out/smooth.bin" <<'PY'
import array, sys
def roughness(path):
    w = array.array("h", open(path, "rb").read()[8:])
    n = len(w) // 12
    return sum((w[i] - w[i + n]) ** 2 for i in range(len(w) - n))
sys.exit(0 if roughness(sys.argv[2]) * 4 < roughness(sys.argv[1]) else 1)
PY
}
# cargo_tests NAME DIR LOG: `cargo test --workspace` in DIR, each test counted.
cargo_tests() {
    local name=$1 dir=$2 out=$3 rc p f
    step "$name: cargo test"
    in_tree "$dir" cargo test --workspace -q > "$out" 2>&1; rc=$?
    cat "$out" >> "$log"
    p=$(grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' "$out" | awk '{s+=$4} END {print s+0}')
    f=$(grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' "$out" | awk '{s+=$6} END {print s+0}')
    passed=$((passed + p)); failed=$((failed + f))
    echo "$name: cargo test: $p passed, $f failed ($(took))"
    if [ $rc != 0 ] && [ "$f" = 0 ]; then fail "$name: cargo test (did not build or crashed)"; tail -n 30 "$out"; fi
}
# in_tree DIR CMD...: CMD in DIR.
in_tree() { (cd "$1" && shift && "$@"); }

# The module: the kernel's clippy set with warnings fatal, the kernel's rustfmt, the builds.
module() {
    phase "module: builds, symbols, bad input"
    rm -f kgames.ko
    run "module: build kgames.ko with no warning (rustc, objtool, modpost)" bash scripts/module-build.sh test
    run "module: the kernel's clippy set (CLIPPY=1), warnings fatal" make -s clippy KDIR="$kdir"
    run "module: rustfmt --check with the kernel's config" make -s rustfmt KDIR="$kdir"
    run "module: kgames.ko was built" test -f kgames.ko
    run "tools: build the user tools, the in-VM test binary and the C select client" make -s tools
    # The oldest compiler a supported kernel uses builds everything the module compiles.
    run "module: kgames.ko for Debian's stock $version73 kernel, built with its rustc 1.85.1 and gcc-14, no warning, every symbol exported, vermagic $release73" \
        bash scripts/module-build.sh debian-7.3
    run "module: a symbol missing from the kernel's Module.symvers stops the build, naming it, with no kgames.ko left" symvers_check
    run "module: kgames.ko for Debian 7.3 up to date after the symbol check" bash scripts/module-build.sh debian-7.3
    bad_input
}
# The symbol check itself: with misc_register taken out of Debian 7.3's export list
# (Module.symvers of its build directory, put back after; scripts/debian-kernel.sh also puts
# it back if this is cut short), the module build (scripts/lib.sh build_module, as
# scripts/module-build.sh runs it) must stop, naming the symbol, and leave no kgames.ko.
symvers_check() {
    local kdir o rc t=$repo/out/symvers-check
    kdir=$(bash scripts/debian-kernel.sh debian-7.3) || return 1
    module_tree "$t" || return 1
    cp -p "$kdir/Module.symvers" "$t/Module.symvers.kernel"
    grep -v "	misc_register	" "$t/Module.symvers.kernel" > "$kdir/Module.symvers"
    o=$(build_module "$kdir" "$t/tree" 2>&1)
    cp -p "$t/Module.symvers.kernel" "$kdir/Module.symvers"
    echo "$o"
    grep -q "error: kgames.ko needs the symbol misc_register, which Linux $release73 does not export" <<<"$o" &&
        [ ! -e "$t/tree/kgames.ko" ]; rc=$?
    rm -rf "$t"
    return $rc
}
# expect_msg REGEX CMD...: CMD fails and prints a line matching REGEX.
expect_msg() { local re=$1 o; shift; o=$("$@" 2>&1) && { echo "$o"; return 1; }; echo "$o"; grep -qE "$re" <<<"$o"; }
# Bad input: each case gets one message naming the kernel and what is missing, and leaves no
# build directory or module behind.
bad_input() {
    headers=$KGAMES_CACHE/debian/$release73/sys/usr/src/linux-headers-$release73
    src73=$(bash scripts/kernel-source.sh 7.3 "$pkgver73" 2>/dev/null)
    run "bad input: a kernel without CONFIG_RUST is named, nothing is built" no_rust
    run "bad input: headers with another kernel's source are refused, naming both versions" wrong_source
    run "bad input: a rustc other than the kernel's (the host's) is refused, naming both" wrong_rustc
    run "bad input: DKMS without the linux-source package says which one to install" no_source_pkg
    run "bad input: a module built for another kernel is refused before the boot, naming both" \
        expect_msg "kgames.ko is built for Linux $version73, not for the kernel to boot, Linux $re73" \
        bash scripts/vm-run.sh --kernel debian-7.3 --ko "$repo/kgames.ko" --cmd true --out "$repo/out/vm-wrong"
    # Headers that carry the Rust metadata, as Arch ships them (scripts/arch-headers.sh).
    run "module: built by scripts/dkms-build.sh against headers laid out as Arch ships them (the Rust metadata in the headers): nothing regenerated, vermagic $release73" arch_build
    run "bad input: headers carrying the Rust metadata refuse a rustc other than the kernel's, naming both" arch_wrong rustc \
        "Linux $re73 was built with 'rustc 1.85.1 .*'; this machine's rustc is 'rustc 1\\.[0-9]+"
    run "bad input: headers carrying the Rust metadata refuse a bindgen other than the kernel's, naming both" arch_wrong bindgen \
        "Linux $re73 was built with 'bindgen 0\\.0\\.1'; this machine's bindgen is 'bindgen 0\\.71\\.1'"
}
# arch_build: kgames.ko built in the trixie root (the kernel's rustc 1.85.1) by dkms-build.sh
# against the Arch-layout tree, with no cache folder to regenerate anything into.
arch_build() {
    local d=$repo/out/arch-build tree
    tree=$(bash scripts/arch-headers.sh debian-7.3 "$d/headers") && module_tree "$d" || return 1
    (cd "$d/tree" && bash "$repo/scripts/debian-root.sh" --run env KGAMES_DKMS_CACHE="$d/none" \
        bash "$repo/scripts/dkms-build.sh" "$release73" "$tree") || return 1
    [ ! -e "$d/none" ] && [ "$(modinfo -F vermagic "$d/tree/kgames.ko" | cut -d' ' -f1)" = "$release73" ]
}
# arch_wrong TOOL REGEX: headers carrying the metadata (their .config, an rmeta) given to
# dkms-build.sh with another rustc (the host's) or another bindgen (the .config names
# bindgen 0.0.1; the root has 0.71.1): refused with REGEX, no module built.
arch_wrong() {
    local d; d=$(mktemp -d -p "$repo/out")
    mkdir -p "$d/h/rust" && : > "$d/h/rust/libkernel.rmeta"
    sed 's/^CONFIG_BINDGEN_VERSION_TEXT=.*/CONFIG_BINDGEN_VERSION_TEXT="bindgen 0.0.1"/' "$headers/.config" > "$d/h/.config"
    if [ "$1" = rustc ]; then
        (cd "$d" && expect_msg "$2" bash "$repo/scripts/dkms-build.sh" "$release73" "$d/h")
    else
        (cd "$d" && expect_msg "$2" bash "$repo/scripts/debian-root.sh" --run bash "$repo/scripts/dkms-build.sh" "$release73" "$d/h")
    fi
    local rc=$?; [ ! -e "$d/kgames.ko" ] || rc=1; rm -rf "$d"; return $rc
}
no_rust() {
    local d; d=$(mktemp -d)
    mkdir "$d/h" && grep -v '^CONFIG_RUST=y' "$headers/.config" > "$d/h/.config" && cp "$headers/Module.symvers" "$d/h/"
    expect_msg "Linux $re73 is built without CONFIG_RUST" bash scripts/rust-metadata.sh "$d/h" "$src73" "$d/b" "$release73"
    local rc=$?; [ ! -e "$d/b" ] || rc=1; rm -rf "$d"; return $rc
}
wrong_source() {
    local d; d=$(mktemp -d)
    mkdir "$d/s" && printf 'kernelversion:\n\t@echo 7.2.12\n' > "$d/s/Makefile"
    expect_msg "the source at .* is Linux 7.2.12, the headers are of Linux $version73" bash scripts/rust-metadata.sh "$headers" "$d/s" "$d/b" "$release73"
    local rc=$?; [ ! -e "$d/b" ] || rc=1; rm -rf "$d"; return $rc
}
wrong_rustc() {
    local d; d=$(mktemp -d)
    expect_msg "Linux $re73 was built with 'rustc 1.85.1 .*'; this machine's rustc is 'rustc" \
        bash scripts/rust-metadata.sh "$headers" "$src73" "$d/b" "$release73"
    local rc=$?; [ ! -e "$d/b" ] || rc=1; rm -rf "$d"; return $rc
}
no_source_pkg() {
    local d; d=$(mktemp -d)
    (cd "$d" && expect_msg "Linux $re73's headers lack the Rust metadata and /usr/src/linux-source-7.3.tar.xz is missing \(Debian: apt install linux-source-7.3\)" \
        env KGAMES_DKMS_CACHE="$d/cache" bash "$repo/scripts/dkms-build.sh" "$release73" "$headers")
    local rc=$?; [ ! -e "$d/kgames.ko" ] || rc=1; rm -rf "$d"; return $rc
}

# DKMS in the trixie root (scripts/dkms-check.sh): install and build, then, after the VM run
# that loads its module, the removal.
dkms_build() {
    phase "dkms: install and build in the trixie root"
    step "dkms: install and build with Debian's dkms (scripts/dkms-check.sh --build)"
    # make check: DKMS finds the metadata debian-kernel.sh regenerated (the same script and
    # root); make check-full lets DKMS regenerate it.
    local seed=--seed
    [ "$profile" != full ] || seed=""
    bash scripts/dkms-check.sh --build $seed debian-7.3 2>> "$log" | count_lines
}
dkms_remove() {
    step "dkms: remove (scripts/dkms-check.sh --remove)"
    bash scripts/dkms-check.sh --remove debian-7.3 2>> "$log" | count_lines
}
# count_lines: the "ok - ..." / "not ok - ..." lines of a check script, each a check.
count_lines() {
    local line
    while IFS= read -r line; do
        case "$line" in
            "ok - "*) pass "${line#ok - }" ;;
            "not ok - "*) fail "${line#not ok - }" ;;
            *) echo "    $line" ;;
        esac
    done
}

# In the VM, Debian's stock 7.3 kernel: the whole kselftest target (what people run), then in
# the same guest the target as the kernel's install rule installs it, run by run_kselftest.sh
# with the checkout hidden (suite base), and the module DKMS built, loaded in its place.
vm_debian() {
    phase "vm: Debian 7.3, the whole suite; kselftest installed; the DKMS module"
    run "kselftest: installed by the kernel's install rule (scripts/kselftest-install.sh)" \
        bash scripts/kselftest-install.sh --ko "$repo/out/debian-7.3/kgames.ko" "$repo/out/kselftest"
    local dkms_ko
    dkms_ko=$(ls "$repo"/out/dkms/kgames.ko* 2>/dev/null | head -n 1)
    vm_suite debian-7.3 --then "$(then_debian "$dkms_ko")"
    local t=$repo/out/vm-debian-7.3/then.txt
    step "kselftest: run_kselftest.sh -s -t kgames:devices.sh with no checkout in the guest"
    if grep -q '^ok 1 selftests: kgames: devices.sh$' "$t" 2>/dev/null && grep -qE '^# ok [0-9]+ - base: ' "$t"; then
        pass "kselftest: installed, run_kselftest.sh -s -t kgames:devices.sh with no checkout in the guest"
    else
        fail "kselftest: installed, run_kselftest.sh -s -t kgames:devices.sh with no checkout in the guest"
        sed -n '/^=== ksft/,/^=== dkms/p' "$t" 2>/dev/null | tail -n 20
    fi
    step "dkms: the DKMS-built module loads into the stock kernel"
    if [ -n "$dkms_ko" ] && [ "$(sed -n '/^=== dkms/,$p' "$t" | tail -n 3 | tr '\n' ' ')" = "$release73 666 root:root OK " ]; then
        pass "dkms: the DKMS-built module loads into the stock $release73 kernel; /dev/reversi is 0666 and answers OK"
    else
        fail "dkms: the DKMS-built module loads into the stock $release73 kernel; /dev/reversi is 0666 and answers OK"
        sed -n '/^=== dkms/,$p' "$t" 2>/dev/null | tail -n 20
    fi
}
# then_debian DKMS_KO: the guest's commands after the Debian suite (vm-run.sh --then).
then_debian() {
    cat <<EOF
echo '=== ksft'
cp -a out/kselftest /tmp/ksft
# The checkout is hidden: the installed folder is all the tests see. The runner's summary
# mode (-s) keeps each program's own TAP in output.log: without it the runner appends that
# TAP to /dev/stdout, which here (a file of the shared folder, with the guest's other ports
# open beside it) loses it.
unshare -m sh -c 'mount -t tmpfs none "\$1" && cd / && test ! -e "\$1/Makefile" &&
    KGAMES_KO= KSELFTEST_DEVICES_SH_ARGS=base /tmp/ksft/run_kselftest.sh -s -t kgames:devices.sh' sh "\$PWD" 2>&1
cat /tmp/ksft/output.log
echo '=== dkms'
EOF
    [ -n "$1" ] || { echo "echo 'no DKMS-built module'"; return; }
    cat <<EOF
rmmod kgames && insmod '$1' && udevadm settle -t 60
uname -r; stat -c "%a %U:%G" /dev/reversi
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo "00 X" > /dev/reversi; cat /dev/reversi'
EOF
}

# In the VM, the test kernel: lockdep, the atomic-sleep check and KUnit over devices.sh's
# device suites (quick), or over the whole target (full).
vm_test() {
    phase "vm: the test kernel (lockdep, atomic sleep, KUnit)"
    if [ "$1" = whole ]; then
        vm_suite test
    else
        vm_suite test --progs devices.sh base reversi chess kxo hostile fairness --then "$(then_test)"
        then_tally test "$repo/out/vm-test/then.txt"
    fi
    kunit_tally test "$repo/out/vm-test/dmesg.txt"
}
# then_test: after the test kernel's suites, in the same guest, the suite limits with the
# parameters module.sh gives it (module.sh itself runs on this kernel in make check-full).
then_test() {
    cat <<EOF
rmmod kgames && insmod "\$KGAMES_KO" max_user_games=2 test_idle_evict_ms=5000 test_alloc_delay_ms=1000 && nodes_ready
timeout 200 '$repo/target/release/kgames-vmtest' limits
rmmod kgames && insmod "\$KGAMES_KO" && nodes_ready
EOF
}
# then_tally LABEL FILE: the TAP of a --then run's test binary, each test a check.
then_tally() {
    local label=$1 t=$2 p f
    p=$(grep -cE '^ok ' "$t" 2>/dev/null); f=$(grep -cE '^not ok ' "$t" 2>/dev/null)
    grep -B12 -E '^not ok ' "$t" 2>/dev/null | sed "s/^/[$label then] /"
    passed=$((passed + p)); failed=$((failed + f))
    echo "vm ($label, after the suites): $p passed, $f failed"
    [ $((p + f)) -gt 0 ] || { fail "vm ($label): the suite limits reported its tests"; tail -n 20 "$t" 2>/dev/null; }
}

# The kselftest target through vng's one command, on the test kernel (suite base).
ksft_vng() {
    phase "vm: kselftest through vng"
    run "kselftest: vng --run KERNEL --exec 'insmod kgames.ko && make -C tests/selftests/kgames run_tests' on the test kernel" ksft_vng_run
}
ksft_vng_run() {
    local o attempt
    # The guest sees the checkout read-only: the target is built on the host first.
    make -s -C tests/selftests/kgames all || return 1
    # A guest that died before the target started (no TAP: a boot failure under TCG, see
    # docs/testing.md) is booted once more, as vm-run.sh does.
    for attempt in 1 2; do
        o=$(timeout 900 vng --run "$(bash scripts/kernel-build.sh)" --disable-kvm --force-9p --cpus 2 --memory 1G \
            --append kunit.enable=0 --user root \
            --exec "insmod kgames.ko && KSELFTEST_DEVICES_SH_ARGS=base make -s -C tests/selftests/kgames run_tests TEST_PROGS=devices.sh; rmmod kgames" 2>&1)
        echo "$o"
        grep -q '^TAP version 13$' <<<"$o" && break
        echo "kselftest through vng: no TAP from attempt $attempt (the guest died before the target ran)"
    done
    grep -q '^ok 1 selftests: kgames: devices.sh$' <<<"$o" && grep -qE '^# ok [0-9]+ - base: ' <<<"$o"
}

# `make run` as a person meets it, in tmux (scripts/run-terminal-check.sh).
terminal() {
    phase "make run in a terminal (tmux)"
    step "make run in a real terminal (tmux, scripts/run-terminal-check.sh)"
    bash scripts/run-terminal-check.sh debian-7.3 2>> "$log" | count_lines
}

# The detector itself: a deliberate WARNING at load must fail the runner.
detector() {
    phase "vm: the detector's self-test"
    step "vm: detector self-test (module loaded with test_report=1 (a WARNING) must fail the run)"
    local rc
    bash scripts/vm-run.sh --kernel test --cmd true --insmod-args test_report=1 --append kunit.enable=0 \
        --out "$repo/out/vm-warn" >> "$log" 2>&1; rc=$?
    if [ $rc = 90 ]; then pass "vm: a kernel WARNING in the guest fails the run"; else fail "vm: a kernel WARNING in the guest fails the run (runner exit $rc)"; fi
}

# Debian's 7.2 kernel: prepared, the module built with its compilers, its suite.
debian72() {
    phase "vm: Debian 7.2, the whole suite"
    run "setup: Debian's stock kernel debian-7.2, its Rust metadata regenerated" bash scripts/debian-kernel.sh debian-7.2
    if run "module: kgames.ko for debian-7.2 (rustc 1.85.1, gcc-14, no warning)" bash scripts/module-build.sh debian-7.2; then
        vm_suite debian-7.2
    fi
}

# --- The profiles.

quick_or_full() {
    setup
    host
    module
    dkms_build
    vm_debian
    dkms_remove
    if [ "$profile" = full ]; then vm_test whole; else vm_test devices; fi
    ksft_vng
    terminal
    detector
    [ "$profile" != full ] || debian72
    finish "check $profile"
}

kernels() {
    phase "set-up"
    run "setup: toolchain" bash scripts/setup-toolchain.sh --test-kernel
    run "tools: the user tools and the in-VM test binary" make -s tools
    local k
    for k in debian-7.2 debian-7.3; do
        phase "vm: $k"
        run "setup: Debian's stock kernel $k, its Rust metadata regenerated" bash scripts/debian-kernel.sh "$k"
        if run "module: kgames.ko for $k (rustc 1.85.1, gcc-14, no warning)" bash scripts/module-build.sh "$k"; then
            vm_suite "$k"
        fi
    done
    phase "vm: test"
    if run "module: kgames.ko for the test kernel" env KRUSTFLAGS=-Dwarnings bash scripts/module-build.sh test; then
        vm_suite test
    fi
    finish "check kernels"
}

# The debug kernel: the whole suite, the fault-injection sweeps and the stress, with a
# kmemleak scan after the run; each report kind made on purpose fails a run; an injected
# fault's stack trace does not.
debug() {
    mkdir -p out/debug
    phase "set-up"
    run "setup: toolchain" bash scripts/setup-toolchain.sh --test-kernel
    step "setup: debug kernel (cached after the first build)"
    if dkdir=$(bash scripts/kernel-build.sh --debug 2> >(tee -a "$log" | grep -E '^(==>|    |error)' >&2)); then
        pass "setup: debug kernel"
    else
        fail "setup: debug kernel"; finish "check debug"
    fi
    run "module: kgames.ko for the debug kernel, no warning" build_module_copy "$dkdir" "$repo/out/debug"
    run "tools: build the in-VM test binary" make -s tools
    phase "vm (debug): the suite, faults, stress64"
    step "vm (debug): the in-VM suite + faults + stress64 (35 to 60 minutes)"
    local rc o
    bash scripts/vm-run.sh --debug --tests base reversi chess kxo othello stress fairness faults stress64 \
        --out "$repo/out/vm-debug" > out/vm-debug.log 2>&1; rc=$?
    cat out/vm-debug.log >> "$log"
    grep -h '^kmemleak:' out/vm-debug.log || true
    vm_tally debug "$repo/out/vm-debug" out/vm-debug.log $rc
    phase "vm (debug): the detector"
    caught warning 'WARNING:' --cmd true --insmod-args test_report=1
    caught kasan 'BUG: KASAN' --root --cmd 'echo WRITE_AFTER_FREE > /sys/kernel/debug/provoke-crash/DIRECT'
    caught ubsan 'UBSAN: array-index-out-of-bounds' --root --cmd 'echo ARRAY_BOUNDS > /sys/kernel/debug/provoke-crash/DIRECT'
    caught kmemleak 'unreferenced object' --cmd true --insmod-args test_report=2
    caught odebug 'ODEBUG: free active' --cmd true --insmod-args test_report=3
    caught rust-debug-assert 'panicked at' --cmd true --insmod-args test_report=4
    # An injected fault with its full stack trace is not a report: the `faults_trace` test
    # fails one allocation of the module with fault injection's verbose=2 message.
    step "detector (debug): an injected fault's stack trace"
    o="$repo/out/vm-debug-injected"
    bash scripts/vm-run.sh --debug --root --out "$o" --cmd 'target/release/kgames-vmtest faults_trace' > "$o.log" 2>&1; rc=$?
    cat "$o.log" >> "$log"
    if [ $rc = 0 ] && grep -q 'FAULT_INJECTION: forcing a failure' "$o/console.log" && grep -q 'Call Trace:' "$o/console.log"; then
        pass "detector (debug): an injected fault's stack trace does not fail the run"
    else
        fail "detector (debug): an injected fault's stack trace does not fail the run (runner exit $rc)"; tail -n 20 "$o.log" | sed 's/^/    | /'
    fi
    finish "check debug"
}
# caught NAME PATTERN VM-RUN-ARGS...: the debug run must end with exit 90 and PATTERN in its log.
caught() {
    local name=$1 want=$2; shift 2
    step "detector (debug): $name"
    local o="$repo/out/vm-debug-$name" rc
    bash scripts/vm-run.sh --debug "$@" --out "$o" > "$o.log" 2>&1; rc=$?
    cat "$o.log" >> "$log"
    if [ $rc = 90 ] && grep -qE "$want" "$o.log"; then
        pass "detector (debug): $name fails the run"
    else
        fail "detector (debug): $name fails the run (runner exit $rc)"; tail -n 20 "$o.log" | sed 's/^/    | /'
    fi
}

# kgames.ko built with KGAMES_TARGET_FEATURES (default +popcnt,+lzcnt,+bmi1,+bmi2: see Kbuild)
# from a copy of the sources (out/features/kgames.ko), then on the test kernel: the guest CPU
# has the features, the module's code uses them (the default build has no popcnt/lzcnt/tzcnt
# instruction, this one has), and the reversi and chess suites pass with it. Not part of
# `make check`: the default module must run on any x86-64 CPU.
features() {
    local features=${KGAMES_TARGET_FEATURES:-+popcnt,+lzcnt,+bmi1,+bmi2} base with flags missing f rc
    mkdir -p out/features
    phase "module: the features build"
    kdir=$(bash scripts/kernel-build.sh)
    # The features build is of the test kernel: boot that one whatever KERNEL says.
    export KGAMES_KERNEL=test
    run "module: kgames.ko with KGAMES_TARGET_FEATURES=$features, no warning" \
        build_module_copy "$kdir" "$repo/out/features" KGAMES_TARGET_FEATURES="$features"
    run "tools: build the in-VM test binary" make -s tools
    [ -f kgames.ko ] || bash scripts/module-build.sh test >> "$log" 2>&1
    # The instructions the features allow, counted in each module's disassembly.
    count() { llvm-objdump -d "$1" | grep -cwE 'popcnt[lq]?|lzcnt[lq]?|tzcnt[lq]?' || true; }
    base=$(count kgames.ko) with=$(count out/features/kgames.ko)
    step "module: the features are used"
    echo "popcnt/lzcnt/tzcnt instructions: default module $base, with the features $with"
    if [ "$base" = 0 ] && [ "$with" -gt 0 ]; then
        pass "module: the features are used (default 0, with them $with instructions)"
    else
        fail "module: the features are used (default $base, with them $with instructions)"
    fi
    phase "vm: the feature module"
    step "vm: the guest CPU's flags"
    flags=$(bash scripts/vm-run.sh --ko "$repo/out/features/kgames.ko" --out "$repo/out/vm-features" \
        --cmd "grep -m1 '^flags' /proc/cpuinfo" 2>>"$log")
    missing=""
    for f in ${features//,/ }; do
        f=${f#+}
        # /proc/cpuinfo names LZCNT by its CPUID bit, abm.
        [ "$f" = lzcnt ] && f=abm
        grep -qw -- "$f" <<<"$flags" || missing="$missing $f"
    done
    if [ -z "$missing" ]; then pass "vm: the guest CPU has $features"; else fail "vm: the guest CPU lacks$missing"; fi
    step "vm: the reversi and chess suites with the feature module"
    bash scripts/vm-run.sh --ko "$repo/out/features/kgames.ko" --out "$repo/out/vm-features" \
        --tests reversi chess > out/vm-features.log 2>&1; rc=$?
    vm_tally features "$repo/out/vm-features" out/vm-features.log $rc
    finish "check features"
}

case "$profile" in
    quick|full) quick_or_full ;;
    kernels) kernels ;;
    debug) debug ;;
    features) features ;;
esac
