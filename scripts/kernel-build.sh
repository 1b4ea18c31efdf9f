#!/usr/bin/env bash
# Configures and builds the test kernel once; prints the build directory (KDIR).
# The build lives in the cache, keyed by the kernel package version and the hash of the
# config fragments, so a changed fragment or a new kernel gets a new build and an unchanged
# one is reused (make itself then finds nothing to do).
#   kernel-build.sh [--debug] [--dir]
# --debug: the debug variant (scripts/kernel-debug.config merged after scripts/kernel.config:
#          KASAN, kmemleak, UBSAN, debug objects, fault injection, ORC, Rust debug assertions).
# --dir:   print the build directory without building.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

frags=("$here/kernel.config") dir_only=""
for a in "$@"; do
    case "$a" in
        --debug) frags+=("$here/kernel-debug.config") ;;
        --dir) dir_only=1 ;;
        *) die "unknown option $a" ;;
    esac
done
src=$("$here/kernel-source.sh")
ver=$(basename "$(dirname "$src")")
key=$(cat "${frags[@]}" | sha256sum | cut -c1-12)
build=$KGAMES_CACHE/build/${ver//[~+:]/_}-$key
if [ -n "$dir_only" ]; then echo "$build"; exit 0; fi
newest=$(ls -t "${frags[@]}" | head -n 1)
mkdir -p "$build"
export PATH=$LLVM_BIN:$PATH
if [ -e "$build/.kgames-built" ] && [ "$build/.kgames-built" -nt "$newest" ] && [ -z "${KGAMES_FORCE_KBUILD:-}" ]; then
    echo "$build"; exit 0
fi
mk() { make -C "$src" O="$build" LLVM=-"$LLVM_VERSION" "$@"; }
if [ ! -e "$build/.kgames-configured" ]; then
    step "configuring Linux $ver in $build (tinyconfig + ${frags[*]##*/})"
    mk -s rustavailable >&2
    mk -s tinyconfig >/dev/null
    (cd "$build" && "$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "${frags[@]}" >/dev/null)
    mk -s olddefconfig >/dev/null
    lost=0
    while IFS= read -r line; do
        case "$line" in CONFIG_*=*) grep -qxF "$line" "$build/.config" || { note "dropped by Kconfig: $line"; lost=1; } ;; esac
    done < <(cat "${frags[@]}" | awk -F= '/^CONFIG_/ { last[$1] = $0; order[n++] = $1 } END { for (i = 0; i < n; i++) if (!seen[order[i]]++) print last[order[i]] }')
    for off in $(cat "${frags[@]}" | sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p'); do
        ! grep -q "^$off=" "$build/.config" || { note "Kconfig kept $off on"; lost=1; }
    done
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
