#!/usr/bin/env bash
# The kernel-log detector of scripts/vm-run.sh.
#   detect.sh FILE...     prints every report line found (at most 20) and exits 1 if any
#   detect.sh --self-test checks the detector on sample logs of each report kind
# Reports: BUG/Oops/WARNING/panic, lockdep, soft lockups and hung tasks, KASAN, UBSAN, debug
# objects (ODEBUG), kmemleak ("unreferenced object", "suspected memory leaks"), Rust panics,
# and any stack trace. Injected faults are not reports: fault injection's "FAULT_INJECTION:
# forcing a failure." and the allocator's "page allocation failure" / "vmalloc error" warnings
# it causes are skipped together with the stack dump that follows them (the lines shaped like
# a dump: CPU/Hardware/Call Trace/<TASK>/frames/registers); the first other line ends the skip.
set -uo pipefail

pat='BUG:|Oops|WARNING:|possible recursive locking|circular locking|inconsistent lock state|lock held when returning|soft lockup|hung task|blocked for more than|Kernel panic|Call Trace:|KASAN|UBSAN:|ODEBUG:|unreferenced object|suspected memory leak|panicked at'

scan() {
    awk -v pat="$pat" '
        { line = $0; sub(/^\[ *[0-9]+\.[0-9]+\] /, "", line); sub(/^[ \t]+/, "", line) }
        line ~ /FAULT_INJECTION: forcing a failure|page allocation failure:|vmalloc error:/ { skip = 1; next }
        skip && line ~ /^(name [a-z_]+, interval|CPU: [0-9]+ |Tainted: |Hardware name: |Call Trace:|Workqueue: | *<\/?TASK>| *<\/?IRQ>| *(\? )?[A-Za-z_.$][A-Za-z0-9_.$]*\+0x[0-9a-f]+\/0x[0-9a-f]+|R[A-Z0-9]{2}: |Code: |FS: |CS: |CR2: |DR[0-9]: |(RIP|RSP|RAX|RDX|RBP|R10|R13): |warn_alloc_show_mem|Mem-Info:)/ { next }
        { skip = 0 }
        line ~ pat { if (n++ < 20) print; found = 1 }
        END { exit found }' "$@"
}

self_test() {
    local dir; dir=$(mktemp -d); trap 'rm -rf "$dir"' RETURN
    local bad=0
    # Clean: injected faults with their stack traces (dmesg's and the console's forms), an
    # allocation-failure warning, then ordinary messages.
    cat > "$dir/injected" <<'LOG'
[   41.000000] FAULT_INJECTION: forcing a failure.
               name failslab, interval 1, probability 0, space 0, times 1
[   41.000001] CPU: 0 UID: 900001 PID: 95 Comm: kgames-vmtest Tainted: G           O        7.3.4 #1 PREEMPTLAZY
[   41.000002] Tainted: [O]=OOT_MODULE
[   41.000003] Call Trace:
[   41.000004]  <TASK>
[   41.000005]  dump_stack_lvl+0x67/0x90
[   41.000006]  </TASK>
[   41.100000] FAULT_INJECTION: forcing a failure.
[   41.100000] name failslab, interval 1, probability 0, space 0, times 1
[   41.100001] CPU: 1 UID: 0 PID: 812 Comm: kgames-vmtest Not tainted 7.3.4 #1 PREEMPT(none)
[   41.100002] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.3-debian-1.16.3-2 04/01/2014
[   41.100003] Call Trace:
[   41.100004]  <TASK>
[   41.100005]  dump_stack_lvl+0x8b/0xb0
[   41.100006]  should_fail_ex+0x3d9/0x4e0
[   41.100007]  ? _RNvMs_NtNtCs7b4_6kgames4kmod11game_deviceNtB4_4Cell7new_arc+0x4f/0x2a0 [kgames]
[   41.100008]  __kmalloc_noprof+0xda/0x4b0
[   41.100009]  </TASK>
[   41.200000] insmod: page allocation failure: order:0, mode:0xcc0(GFP_KERNEL), nodemask=(null)
[   41.200001] CPU: 0 UID: 0 PID: 813 Comm: insmod Not tainted 7.3.4 #1 PREEMPT(none)
[   41.200002] Call Trace:
[   41.200003]  <TASK>
[   41.200004]  warn_alloc+0x1a2/0x260
[   41.200005]  </TASK>
[   41.200006] Mem-Info:
[   41.300000] kgames: loaded
LOG
    if ! out=$(scan "$dir/injected"); then echo "not ok - an injected fault's stack trace was taken for a report: $out"; bad=1; else echo "ok - an injected fault's stack trace is not a report"; fi
    # Each report kind, alone or right after an injected fault, must be caught.
    local kind line
    while IFS='|' read -r kind line; do
        printf '%s\n' "$line" > "$dir/one"
        if scan "$dir/one" > /dev/null; then echo "not ok - $kind not caught"; bad=1; else echo "ok - $kind caught"; fi
        { printf '[    1.0] FAULT_INJECTION: forcing a failure.\n[    1.0] name failslab, interval 1, probability 0, space 0, times 1\n'; printf '%s\n' "$line"; } > "$dir/after"
        if scan "$dir/after" > /dev/null; then echo "not ok - $kind right after an injected fault not caught"; bad=1; else echo "ok - $kind caught right after an injected fault"; fi
    done <<'KINDS'
WARNING|[   12.1] WARNING: CPU: 0 PID: 1 at src/kmod/mod.rs:186 init_module+0x10/0x20 [kgames]
KASAN|[   12.1] BUG: KASAN: slab-use-after-free in lkdtm_WRITE_AFTER_FREE+0x1a4/0x1d0
UBSAN|[   12.1] UBSAN: array-index-out-of-bounds in drivers/misc/lkdtm/bugs.c:653:16
ODEBUG|[   12.1] ODEBUG: free active (active state 0) object: ffff888004a8c1c0 object type: hrtimer hint: 0x0
kmemleak object|unreferenced object 0xffff888005e4bd00 (size 128):
kmemleak summary|[   12.1] kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
Rust panic|[   12.1] rust_kernel: panicked at src/ktest/report.rs:36:13:
lockdep|[   12.1] WARNING: possible circular locking dependency detected
hung task|[   12.1] INFO: task kworker/0:1:33 blocked for more than 122 seconds.
KINDS
    return $bad
}

if [ "${1:-}" = --self-test ]; then self_test; exit $?; fi
files=()
for f in "$@"; do [ -f "$f" ] && files+=("$f"); done
[ ${#files[@]} -gt 0 ] || exit 0
scan "${files[@]}"
