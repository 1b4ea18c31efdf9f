//! `xo-user`: the terminal UI that watches `/dev/kxo` (see `main.rs` and docs/tools/xo-user.md).
//!
//! - [`msg`]: what a stream source gives; [`device`] (live) and [`replay`] are the sources.
//! - [`decode`], [`recfile`]: the wire bytes and the `--record` file format.
//! - [`model`]: what the viewer knows; [`control`]: keys and the pause/quit state machine.
//! - [`render`]: one frame; [`cells`]: board cells and their names.
//! - [`app`]: the one-thread `poll(2)` loop that ties them; [`signals`]: the signals it
//!   polls; [`history`]: the moves printed at exit; [`synth`]: a synthetic stream for tests
//!   and demos.

pub mod app;
pub mod args;
pub mod cells;
pub mod control;
pub mod decode;
pub mod device;
pub mod history;
pub mod model;
pub mod msg;
pub mod recfile;
pub mod render;
pub mod replay;
pub mod signals;
pub mod synth;
