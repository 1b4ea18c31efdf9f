// SPDX-License-Identifier: GPL-2.0

//! Test code that kgames.ko carries, kept out of the device glue (`src/kmod`): the engines'
//! KUnit suites ([`kunit`], compiled only with `CONFIG_KUNIT=y`) and the deliberate kernel
//! reports of `test_report` ([`report`]), which prove that the test runner's detector sees
//! each kind. Nothing here is reachable by a user of the devices: KUnit runs at insmod, and
//! only root loads modules.

#[cfg(CONFIG_KUNIT = "y")]
mod kunit;
pub(crate) mod report;
