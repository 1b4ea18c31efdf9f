//! Replays the stored corpus (`corpus/<target>/*`) through every fuzz target, so `cargo test`
//! keeps each input the fuzzer found interesting passing.

use std::fs;
use std::path::Path;

#[test]
fn corpus_replays_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for target in kgames_fuzz::TARGETS {
        let dir = root.join(target);
        let mut n = 0;
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            let data = fs::read(&path).expect("a corpus file");
            assert!(kgames_fuzz::run(target, &data), "unknown target {target}");
            n += 1;
        }
        assert!(n > 0, "no corpus for {target}");
    }
}
