// SPDX-License-Identifier: GPL-2.0

//! Every difference between the kernel releases kgames builds for (7.2 and 7.3), in one
//! place. `Kbuild` derives the cfg from the kernel's version and sets it for the crate:
//! `kgames_linux_7_2` on a 7.2 kernel, nothing on 7.3. The rest of the module uses these
//! names and never tests a version itself.
//!
//! - Module parameters: 7.2's `module!` has no `bool` type, so the on/off parameters are `u32`
//!   0 or 1 on every kernel (docs/module-parameters.md); nothing here.
//! - `hrtimer_restart`: a plain integer type with prefixed constants in 7.2's bindings, a
//!   new-type enum in 7.3's.
//! - A parameter's `value()`: a reference in 7.2, a copy in 7.3.
//! - `THIS_MODULE`: a static at the crate root in 7.2, a `ModuleMetadata` constant in 7.3.

use kernel::bindings;

/// The value an hrtimer callback returns to stay stopped.
#[cfg(kgames_linux_7_2)]
pub(crate) const HRTIMER_NORESTART: bindings::hrtimer_restart =
    bindings::hrtimer_restart_HRTIMER_NORESTART;

/// The value an hrtimer callback returns to stay stopped.
#[cfg(not(kgames_linux_7_2))]
pub(crate) const HRTIMER_NORESTART: bindings::hrtimer_restart =
    bindings::hrtimer_restart::HRTIMER_NORESTART;

/// A `u32` module parameter's value (7.2's `value` returns a reference, 7.3's a copy).
pub(crate) fn param(p: &kernel::module_param::ModuleParamAccess<u32>) -> u32 {
    #[cfg(kgames_linux_7_2)]
    {
        *p.value()
    }
    #[cfg(not(kgames_linux_7_2))]
    {
        p.value()
    }
}

/// This module's `struct module` (`THIS_MODULE`): a crate-root static in 7.2, a constant of the
/// module type's `ModuleMetadata` in 7.3.
pub(crate) fn this_module() -> *mut bindings::module {
    #[cfg(kgames_linux_7_2)]
    {
        crate::THIS_MODULE.as_ptr()
    }
    #[cfg(not(kgames_linux_7_2))]
    {
        <super::KGames as kernel::ModuleMetadata>::THIS_MODULE.as_ptr()
    }
}
