//! The kxo agents' fixed-point `ln` against `f64`: within one unit (1 / 65536) for every
//! argument the engine can pass (a sweep up to `u32::MAX / 2` and every value to 70,000).

use kgames_kxo::fixed::{ln_q16, ONE};

fn units(v: f64) -> f64 {
    v * f64::from(ONE)
}

#[test]
fn ln_is_within_one_unit_of_f64() {
    let mut worst = 0f64;
    let mut x = 1u32;
    while x < u32::MAX / 2 {
        for d in [0, 1, 2, 3] {
            let v = x + d;
            let err = (f64::from(ln_q16(v)) - units(f64::from(v).ln())).abs();
            worst = worst.max(err);
            assert!(
                err <= 1.0,
                "ln {v}: {} vs {}",
                ln_q16(v),
                units(f64::from(v).ln())
            );
        }
        x = x + x / 7 + 1;
    }
    for v in 1..=70_000u32 {
        let err = (f64::from(ln_q16(v)) - units(f64::from(v).ln())).abs();
        worst = worst.max(err);
        assert!(err <= 1.0, "ln {v}");
    }
    assert_eq!(ln_q16(1), 0);
    assert_eq!(ln_q16(0), 0);
    assert!(worst > 0.0);
}
