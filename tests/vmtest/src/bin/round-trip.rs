//! `round-trip [DEVICE] [N]`: the time of one `01` command (write, then read the reply) on
//! DEVICE (default /dev/reversi), the median of 5 runs of N (default 10,000) round trips.
//! Prints `01 round trip: <ns> ns`. For comparing module builds in the VM.

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--help") {
        println!("usage: round-trip [DEVICE] [N]");
        return;
    }
    let dev = args.first().map_or("/dev/reversi", String::as_str);
    let n: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let mut f = match OpenOptions::new().read(true).write(true).open(dev) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("round-trip: {dev}: {e}");
            std::process::exit(1);
        }
    };
    let mut buf = [0u8; 256];
    let mut cmd = |f: &mut std::fs::File, c: &[u8]| {
        f.write_all(c).expect("write");
        f.read(&mut buf).expect("read")
    };
    cmd(&mut f, b"00 X\n");
    let mut runs: Vec<u128> = (0..5)
        .map(|_| {
            let t0 = Instant::now();
            for _ in 0..n {
                cmd(&mut f, b"01\n");
            }
            t0.elapsed().as_nanos() / u128::from(n)
        })
        .collect();
    runs.sort_unstable();
    println!("01 round trip: {} ns", runs[2]);
}
