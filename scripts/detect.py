#!/usr/bin/env python3
"""The kernel-log detector of scripts/vm-run.sh.

    detect.py FILE...      prints every report line found (at most 20); exit 1 if any
    detect.py --self-test  checks the detector on sample logs of each report kind

Reports: BUG/Oops/WARNING/panic, lockdep, soft lockups and hung tasks, KASAN, UBSAN, debug
objects (ODEBUG), kmemleak ("unreferenced object", "suspected memory leaks"), Rust panics,
and any stack trace. Injected faults are not reports: fault injection's "FAULT_INJECTION:
forcing a failure." and the allocator's "page allocation failure" / "vmalloc error" warnings
it causes are skipped together with the stack dump that follows them (the lines shaped like
a dump: CPU/Hardware/Call Trace/<TASK>/frames/registers); the first other line ends the skip.
Missing files are ignored; the files are read as one stream, in order.
"""

import os
import re
import sys

REPORT = re.compile(
    r"BUG:|Oops|WARNING:|possible recursive locking|circular locking|inconsistent lock state"
    r"|lock held when returning|soft lockup|hung task|blocked for more than|Kernel panic"
    r"|Call Trace:|KASAN|UBSAN:|ODEBUG:|unreferenced object|suspected memory leak|panicked at"
)
INJECTED = re.compile(r"FAULT_INJECTION: forcing a failure|page allocation failure:|vmalloc error:")
DUMP = re.compile(
    r"^(name [a-z_]+, interval|CPU: [0-9]+ |Tainted: |Hardware name: |Call Trace:|Workqueue: "
    r"| *</?TASK>| *</?IRQ>| *(\? )?[A-Za-z_.$][A-Za-z0-9_.$]*\+0x[0-9a-f]+/0x[0-9a-f]+"
    r"|R[A-Z0-9]{2}: |Code: |FS: |CS: |CR2: |DR[0-9]: |(RIP|RSP|RAX|RDX|RBP|R10|R13): "
    r"|warn_alloc_show_mem|Mem-Info:)"
)
STAMP = re.compile(r"^\[ *[0-9]+\.[0-9]+\] ")


def scan(lines):
    """The report lines of a kernel log (its lines in order), injected faults skipped."""
    found, skip = [], False
    for raw in lines:
        raw = raw.rstrip("\n")
        line = STAMP.sub("", raw, count=1).lstrip(" \t")
        if INJECTED.search(line):
            skip = True
            continue
        if skip and DUMP.search(line):
            continue
        skip = False
        if REPORT.search(line):
            found.append(raw)
    return found


def read(paths):
    """The lines of the files that exist, as one stream."""
    for p in paths:
        if os.path.isfile(p):
            with open(p, encoding="utf-8", errors="replace") as f:
                yield from f


# An injected fault's traces (dmesg's and the console's forms), an allocation-failure warning,
# then ordinary messages: no report.
INJECTED_SAMPLE = """\
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
"""

# Each report kind, one line each.
KINDS = [
    ('WARNING', '[   12.1] WARNING: CPU: 0 PID: 1 at src/kmod/mod.rs:186 init_module+0x10/0x20 [kgames]'),
    ('KASAN', '[   12.1] BUG: KASAN: slab-use-after-free in lkdtm_WRITE_AFTER_FREE+0x1a4/0x1d0'),
    ('UBSAN', '[   12.1] UBSAN: array-index-out-of-bounds in drivers/misc/lkdtm/bugs.c:653:16'),
    ('ODEBUG', '[   12.1] ODEBUG: free active (active state 0) object: ffff888004a8c1c0 object type: hrtimer hint: 0x0'),
    ('kmemleak object', 'unreferenced object 0xffff888005e4bd00 (size 128):'),
    ('kmemleak summary', '[   12.1] kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)'),
    ('Rust panic', '[   12.1] rust_kernel: panicked at src/ktest/report.rs:36:13:'),
    ('lockdep', '[   12.1] WARNING: possible circular locking dependency detected'),
    ('hung task', '[   12.1] INFO: task kworker/0:1:33 blocked for more than 122 seconds.'),
]


def self_test():
    """Prints ok/not ok for each sample; 0 when every one is judged right."""
    bad = 0
    found = scan(INJECTED_SAMPLE.splitlines())
    if found:
        print(f"not ok - an injected fault's stack trace was taken for a report: {found}")
        bad = 1
    else:
        print("ok - an injected fault's stack trace is not a report")
    injected = ["[    1.0] FAULT_INJECTION: forcing a failure.", "[    1.0] name failslab, interval 1, probability 0, space 0, times 1"]
    for kind, line in KINDS:
        if scan([line]):
            print(f"ok - {kind} caught")
        else:
            print(f"not ok - {kind} not caught")
            bad = 1
        if scan(injected + [line]):
            print(f"ok - {kind} caught right after an injected fault")
        else:
            print(f"not ok - {kind} right after an injected fault not caught")
            bad = 1
    return bad


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if argv[1:] and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    found = scan(read(argv[1:]))
    for line in found[:20]:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
