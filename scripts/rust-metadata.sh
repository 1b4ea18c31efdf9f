#!/usr/bin/env bash
# Regenerates the Rust metadata that a distribution's headers package lacks (rust/*.rmeta,
# libmacros.so, scripts/module.lds, ...) so that an out-of-tree Rust module can be built against
# that kernel:
#   rust-metadata.sh HEADERS SOURCE BUILD RELEASE
# HEADERS: the kernel's headers (its .config and Module.symvers); SOURCE: the matching kernel
# source tree; BUILD: the O= directory to fill; RELEASE: the kernel's release string (so the
# module's vermagic matches). Runs with the tools of the environment it is started in, which
# must be the kernel's own: the rustc whose version text the .config records (checked), gcc-14,
# pahole. Used in the trixie root (scripts/debian-kernel.sh) and by DKMS (scripts/dkms-build.sh).
# Stops, leaving no BUILD behind, when the config that olddefconfig gives differs from the
# headers' .config in anything but the module-signing lines. Idempotent: a prepared BUILD whose
# .config is the same is kept.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ $# = 4 ] || die "usage: rust-metadata.sh HEADERS SOURCE BUILD RELEASE"
headers=$1 src=$2 build=$3 release=$4

[ -f "$headers/.config" ] || die "$headers has no .config: not the headers of a kernel"
grep -q '^CONFIG_RUST=y' "$headers/.config" || die "Linux $release is built without CONFIG_RUST: no Rust module can load into it"
[ -f "$headers/Module.symvers" ] || die "$headers has no Module.symvers"
[ -f "$src/Makefile" ] || die "no kernel source at $src (for Debian: install linux-source-${release%%.*}.$(cut -d. -f2 <<<"$release"))"
want_ver=$(sed -n 's/^# Linux\/[a-z0-9_]* \([0-9][0-9.]*\) Kernel Configuration$/\1/p' "$headers/.config" | head -n 1)
have_ver=$(make -s -C "$src" kernelversion 2>/dev/null || true)
[ -z "$want_ver" ] || [ "$want_ver" = "$have_ver" ] || die "the source at $src is Linux $have_ver, the headers are of Linux $want_ver"
want=$(sed -n 's/^CONFIG_RUSTC_VERSION_TEXT="\(.*\)"$/\1/p' "$headers/.config")
have=$(rustc --version 2>/dev/null || echo "no rustc")
[ "$want" = "$have" ] || die "Linux $release was built with '$want'; this machine's rustc is '$have': the symbol names would not match"

if [ -e "$build/.kgames-prepared" ] && cmp -s "$headers/Module.symvers" "$build/Module.symvers"; then
    exit 0
fi
step "regenerating the Rust metadata of Linux $release in $build (about 3 minutes)"
rm -rf "$build" && mkdir -p "$build"
# The three options that name the distribution's key files (not shipped) are cleared.
sed -e 's/^CONFIG_MODULE_SIG_KEY=.*/CONFIG_MODULE_SIG_KEY=""/' \
    -e 's/^CONFIG_SYSTEM_TRUSTED_KEYS=.*/CONFIG_SYSTEM_TRUSTED_KEYS=""/' \
    -e 's/^CONFIG_SYSTEM_REVOCATION_KEYS=.*/CONFIG_SYSTEM_REVOCATION_KEYS=""/' \
    "$headers/.config" > "$build/.config"
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$headers/.config")
mk=(make -C "$src" O="$build" CC="${cc:-gcc}" KERNELRELEASE="$release")
"${mk[@]}" -s olddefconfig >&2 || { rm -rf "$build"; die "olddefconfig of Linux $release failed"; }
# Only the module-signing lines may differ (the keys above, the key types, and ML-DSA support,
# which follows the OpenSSL of the build machine).
signing='^[+-](# )?(CONFIG_MODULE_SIG_KEY(_TYPE_[A-Z0-9_]+)?|CONFIG_SYSTEM_TRUSTED_KEYS|CONFIG_SYSTEM_REVOCATION_KEYS|CONFIG_OPENSSL_SUPPORTS_ML_DSA)[= ]'
d=$(diff -U0 "$headers/.config" "$build/.config" | grep -E '^[+-][^+-]' | grep -vE "$signing" || true)
if [ -n "$d" ]; then
    echo "$d" >&2
    rm -rf "$build"
    die "the regenerated config of Linux $release differs from the headers' .config (above): stopped"
fi
"${mk[@]}" -j"$(nproc)" -s modules_prepare >&2 || { rm -rf "$build"; die "modules_prepare of Linux $release failed"; }
cp "$headers/Module.symvers" "$build/Module.symvers"
touch "$build/.kgames-prepared"
