#!/usr/bin/env bash
# Installs the host toolchain for the VM runner, the user tools and the Debian trixie root
# (mmdebstrap; the kernel's compilers live in that root, scripts/debian-root.sh).
#   setup-toolchain.sh [--test-kernel]   also what building the test kernel needs (clang/LLVM 19,
#                                        bindgen-cli, rust-src)
# Idempotent: every step checks first and does nothing when its piece is already there.
# Debian packages come from the machine's own apt sources; nothing here names a registry host.
# g++ compiles libFuzzer for `make fuzz` (libfuzzer-sys builds it from source).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

BINDGEN_VERSION=0.73.2
VIRTME_NG_VERSION=1.42
test_kernel=""
for a in "$@"; do
    case "$a" in --test-kernel) test_kernel=1 ;; *) die "unknown option $a" ;; esac
done
DEBS=(kmod mmdebstrap qemu-system-x86 busybox-static udev make gcc g++ libc6-dev python3 python3-pip tmux stockfish rsync)
v=$LLVM_VERSION
[ -z "$test_kernel" ] || DEBS+=(clang-$v lld-$v llvm-$v libclang-$v-dev bc bison flex libelf-dev libssl-dev cpio)

missing=()
for p in "${DEBS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    step "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    note "Debian packages: all present"
fi

if [ -z "$test_kernel" ]; then
    :
elif ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    step "adding rustup component rust-src"
    rustup component add rust-src
else
    note "rust-src: present"
fi

if [ -z "$test_kernel" ]; then
    :
elif ! command -v bindgen >/dev/null 2>&1 || [ "$(bindgen --version 2>/dev/null | awk '{print $2}')" != "$BINDGEN_VERSION" ]; then
    step "installing bindgen-cli $BINDGEN_VERSION (about a minute)"
    cargo install --locked bindgen-cli --version "$BINDGEN_VERSION"
else
    note "bindgen $BINDGEN_VERSION: present"
fi

if ! command -v vng >/dev/null 2>&1 || [ "$(vng --version 2>/dev/null | awk '{print $NF}')" != "$VIRTME_NG_VERSION" ]; then
    step "installing virtme-ng $VIRTME_NG_VERSION"
    python3 -m pip install -q "virtme-ng==$VIRTME_NG_VERSION"
else
    note "virtme-ng $VIRTME_NG_VERSION: present"
fi
note "toolchain ready"
