#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kgames selftest: the module and its three devices. The checks of the loaded module and its
# nodes, then kgames-vmtest's suites (its default ones, or those named as arguments:
# KSELFTEST_DEVICES_SH_ARGS="reversi chess"), each of its tests one line here.
. "$(dirname "$0")/ksft.sh"
require_module
bin=$(tool kgames-vmtest)
[ -x "$bin" ] || skip_all "$bin is not built (make tools)"

check "module: kgames is loaded" grep -q '^kgames ' /proc/modules
if [ -n "$ko" ]; then
    check "module: its vermagic names the running kernel, $(uname -r)" \
        test "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$(uname -r)"
else
    skip "module: its vermagic names the running kernel" "no kgames.ko file found"
fi
# The mode comes from the udev rule a real installation has (scripts/60-kgames.rules).
for d in reversi chess kxo; do
    name="udev: /dev/$d is a character device, mode 0666, owner root:root (scripts/60-kgames.rules)"
    if [ -n "${KGAMES_DEBUG:-}" ]; then
        skip "$name" "udev runs minutes behind on the debug kernel"
    elif [ -z "$rule" ]; then
        skip "$name" "the udev rule 60-kgames.rules is not installed"
    else
        check "$name" test "$(stat -c '%F %a %U:%G' /dev/$d)" = "character special file 666 root:root"
    fi
done

# The debug kernel (KASAN, lockdep, TCG) runs the binary several times slower: its insmod
# fault sweep alone loads the module some 500 times at about 2 s each.
limit=$((1400 * slow))
relay < <(timeout "$limit" "$bin" "$@" 2>&1)
# The suite faults reloads the module: its nodes are new. A binary stopped by its time limit
# in the middle of that sweep leaves the module unloaded: load it again (and say so).
if ! grep -q '^kgames ' /proc/modules; then
    notok "vmtest: the test binary left kgames unloaded (stopped after $limit s?)"
    [ -n "$ko" ] && insmod "$ko"
fi
nodes_ready
finish
