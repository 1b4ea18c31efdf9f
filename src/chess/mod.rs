//! The chess engine (core-only; compiled into kgames.ko and into the host crate kgames-chess).
