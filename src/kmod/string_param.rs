// SPDX-License-Identifier: GPL-2.0

//! `kxo_pairings`: the one module parameter that is a string.
//!
//! The 7.3 kernel crate's `module!` takes integer and `bool` parameters only. This file
//! declares a `charp` parameter the way `module!` declares its own (a `kernel_param` in the
//! `__param` section, named after the module's convention, not visible in sysfs: `perm` 0),
//! with the kernel's own `param_ops_charp` doing the parsing and the freeing at unload.
//!
//! Invariant: the kernel writes [`KXO_PAIRINGS`] only while it parses the load's arguments,
//! before `init` runs, and frees it only after `exit`; with `perm` 0 nothing writes it later.
//! [`kxo_pairings`] is called from `init` only.

use core::{cell::UnsafeCell, ptr};

use kernel::{
    bindings,
    ffi::c_char,
    module_param::KernelParam,
    prelude::*,
    str::{as_char_ptr_in_const_context, CStr},
};

/// The parameter's storage: a `char *` the kernel sets (null when not given).
pub(crate) struct Charp(UnsafeCell<*mut c_char>);

// SAFETY: written by the kernel's argument parser before `init`, read by `init` only (module
// invariant above): never accessed concurrently.
unsafe impl Sync for Charp {}

/// `kxo_pairings=...` at load.
pub(crate) static KXO_PAIRINGS: Charp = Charp(UnsafeCell::new(ptr::null_mut()));

#[link_section = "__param"]
#[used]
static KXO_PAIRINGS_PARAM: KernelParam = KernelParam::new(bindings::kernel_param {
    name: as_char_ptr_in_const_context(c"kxo_pairings"),
    // `__this_module` is made by the kernel at load and outlives the module's code, as in
    // the kernel crate's own parameters (only its address is taken here).
    mod_: &raw mut bindings::__this_module,
    // SAFETY: `param_ops_charp` is the kernel's static, immutable set of `charp` operations.
    ops: unsafe { ptr::from_ref(&bindings::param_ops_charp) },
    perm: 0,
    level: -1,
    flags: 0,
    __bindgen_anon_1: bindings::kernel_param__bindgen_ty_1 {
        arg: KXO_PAIRINGS.0.get().cast(),
    },
});

/// The `modinfo` description (`modinfo -p kgames.ko` lists it beside the others).
#[link_section = ".modinfo"]
#[used]
static KXO_PAIRINGS_INFO: [u8; 105] =
    *b"parm=kxo_pairings:Pairings of the kxo games, round-robin, e.g. mcts:nega,td:random (default: all random)\0";

/// The `modinfo` type line.
#[link_section = ".modinfo"]
#[used]
static KXO_PAIRINGS_TYPE: [u8; 28] = *b"parmtype=kxo_pairings:charp\0";

/// The value given at load, if any (bytes, without the NUL).
pub(crate) fn kxo_pairings() -> Option<&'static [u8]> {
    // SAFETY: read in `init`, when nothing writes the storage (module invariant).
    let p = unsafe { *KXO_PAIRINGS.0.get() };
    if p.is_null() {
        return None;
    }
    // SAFETY: the kernel's `param_set_charp` stored a NUL-terminated string that lives until
    // the module is unloaded.
    Some(unsafe { CStr::from_char_ptr(p) }.to_bytes())
}
