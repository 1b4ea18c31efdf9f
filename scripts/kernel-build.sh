#!/usr/bin/env bash
# Configures and builds the test kernel once; prints the build directory (KDIR).
# The build lives in the cache, keyed by the kernel package version and the hash of
# scripts/kernel.config, so a changed fragment or a new kernel gets a new build and an
# unchanged one is reused (make itself then finds nothing to do).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

src=$("$here/kernel-source.sh")
ver=$(basename "$(dirname "$src")")
frag=$here/kernel.config
key=$(cat "$frag" | sha256sum | cut -c1-12)
build=$KGAMES_CACHE/build/${ver//[~+:]/_}-$key
if [ "${1:-}" = --dir ]; then echo "$build"; exit 0; fi
mkdir -p "$build"
export PATH=/usr/lib/llvm-19/bin:$PATH
if [ -e "$build/.kgames-built" ] && [ "$build/.kgames-built" -nt "$frag" ] && [ -z "${KGAMES_FORCE_KBUILD:-}" ]; then
    echo "$build"; exit 0
fi
mk() { make -C "$src" O="$build" LLVM=-19 "$@"; }
if [ ! -e "$build/.kgames-configured" ]; then
    step "configuring Linux $ver in $build (tinyconfig + scripts/kernel.config)"
    mk -s rustavailable >&2
    mk -s tinyconfig >/dev/null
    (cd "$build" && "$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "$frag" >/dev/null)
    mk -s olddefconfig >/dev/null
    lost=0
    while IFS= read -r line; do
        case "$line" in CONFIG_*=*) grep -qxF "$line" "$build/.config" || { note "dropped by Kconfig: $line"; lost=1; } ;; esac
    done < "$frag"
    [ $lost = 0 ] || die "the kernel config fragment did not survive olddefconfig"
    touch "$build/.kgames-configured"
fi
step "building Linux $ver (first time 10-15 minutes on 2 cores; progress below)"
t0=$(date +%s)
if ! mk -j"$(nproc)" 2>&1 | awk '/^  (CC|RUSTC|LD|AR)/ { n++; if (n % 200 == 0) printf "    ... %d objects\n", n > "/dev/stderr"; next } { print > "/dev/stderr" }'; then
    die "kernel build failed"
fi
note "kernel build done in $(( $(date +%s) - t0 )) s"
touch "$build/.kgames-built"
echo "$build"
