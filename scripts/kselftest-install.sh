#!/usr/bin/env bash
# Installs kgames' kselftest target (tests/selftests/kgames) with the kernel's own install rule
# into a folder that needs nothing else: run_kselftest.sh, the kernel's runner, kgames' programs,
# their binaries and (with --ko) kgames.ko. Prints the folder. Idempotent.
#   kselftest-install.sh [--ko FILE] [DIR]     default DIR: out/kselftest
# Then, as root on the machine to test: DIR/run_kselftest.sh -c kgames
# The kernel's selftests Makefile finds its targets in folders below it: kgames is linked in
# (tools/testing/selftests/kgames -> tests/selftests/kgames), as a kernel developer would.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"

ko="" dest=$repo/out/kselftest
while [ $# -gt 0 ]; do
    case "$1" in
        --ko) ko=$(realpath "$2"); shift ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1" ;;
        *) dest=$(realpath -m "$1") ;;
    esac
    shift
done
ksrc=$("$here/kernel-source.sh")
sel=$ksrc/tools/testing/selftests
ln -sfn "$repo/tests/selftests/kgames" "$sel/kgames"
rm -rf "$dest"
# O=: the copies are made in out/kselftest-build, not in the checkout (the target's folder).
make -s -C "$sel" O="$repo/out/kselftest-build" TARGETS=kgames KSFT_INSTALL_PATH="$dest" KSRC="$ksrc" ${ko:+MODULE_FILE="$ko"} install >&2
[ -x "$dest/run_kselftest.sh" ] && [ -x "$dest/kgames/devices.sh" ] || die "the kselftest install is incomplete: $dest"
echo "$dest"
