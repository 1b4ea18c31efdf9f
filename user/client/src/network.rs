//! A chess network file (chess-nnue's format) read for a whole run, for the tools that take
//! `--net FILE` (kgames-uci, chess-datagen).

use kgames_chess::nnue::{Avx2, FpuSection, Network};
use std::path::Path;

/// The network in the file at `path`, kept for the rest of the process (its bytes are
/// leaked), or a message that names the file.
pub fn load_network(path: &Path) -> Result<Network<'static>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    Network::parse(bytes).map_err(|e| format!("{}: not a network ({e})", path.display()))
}

/// `net` with its loops in AVX2 where the CPU has it (as `/dev/chess` runs them on such a
/// CPU), else `net` as it is: the same integers either way, only the speed differs.
pub fn with_host_avx2(net: Network<'static>) -> Network<'static> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (and the system enabled it: the macro checks both), and
        // user space may always use the vector registers.
        return net.with_avx2(unsafe { Avx2::new(FpuSection::NONE) });
    }
    net
}
