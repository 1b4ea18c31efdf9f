#!/usr/bin/env bash
# `make check-features`: kgames.ko built with KGAMES_TARGET_FEATURES (default
# +popcnt,+lzcnt,+bmi1,+bmi2: see Kbuild) from a copy of the sources (out/features/kgames.ko),
# then on the test kernel in the VM: the guest CPU has the features, the module's code uses
# them (the default build has no popcnt/lzcnt/tzcnt instruction, this one has), and the
# reversi and chess suites pass with it. Ends with "N passed, M failed". Not part of
# `make check` (the default module must run on any x86-64 CPU).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
log=out/check-features.log
. "$here/tally.sh"
features=${KGAMES_TARGET_FEATURES:-+popcnt,+lzcnt,+bmi1,+bmi2}
mkdir -p out/features

kdir=$(bash scripts/kernel-build.sh)
# The features build is of the test kernel: boot that one whatever KERNEL says.
export KGAMES_KERNEL=test
run "module: kgames.ko with KGAMES_TARGET_FEATURES=$features, no warning" \
    build_module_copy "$kdir" "$repo/out/features" KGAMES_TARGET_FEATURES="$features"
run "tools: build the in-VM test binary" make -s tools
# The instructions the features allow, counted in each module's disassembly.
count() { llvm-objdump -d "$1" | grep -cwE 'popcnt[lq]?|lzcnt[lq]?|tzcnt[lq]?' || true; }
base=$(count kgames.ko) with=$(count out/features/kgames.ko)
echo "popcnt/lzcnt/tzcnt instructions: default module $base, with the features $with"
if [ "$base" = 0 ] && [ "$with" -gt 0 ]; then
    pass "module: the features are used (default 0, with them $with instructions)"
else
    fail "module: the features are used (default $base, with them $with instructions)"
fi
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
finish check-features
