//! Where a CPU search keeps its memory.
//!
//! The session layer never allocates. A game names the memory its search needs as
//! [`Game::Scratch`](super::game::Game::Scratch), generic over an [`Alloc`]; the device makes
//! one scratch per search context with its own allocator when it loads (the kernel with
//! `KVVec` and `KBox`, a host program with `Vec` and `Box`: [`crate::HeapAlloc`] in the host
//! crate) and lends it to one search at a time.

use core::ops::DerefMut;

/// How a device allocates search memory.
pub trait Alloc {
    /// A slice on the heap.
    type Slice<T: Clone + Send>: DerefMut<Target = [T]> + Send;
    /// A value on the heap.
    type Boxed<T: Send>: DerefMut<Target = T> + Send;
    /// `n` clones of `fill`, or `None` when memory is short.
    fn slice<T: Clone + Send>(n: usize, fill: T) -> Option<Self::Slice<T>>;
    /// `value` on the heap, or `None` when memory is short.
    fn boxed<T: Send>(value: T) -> Option<Self::Boxed<T>>;
}
