//! Chosen pairings on `/dev/kxo` (`KXO_IOC_SET_PAIRING`, docs/protocol.md, "ioctls").

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use kgames_uapi::ioctl::KXO_IOC_RESTART;
use kgames_uapi::pairing::{KxoPairing, ALL_SLOTS, RANDOM};
use kgames_uapi::user::{kxo_set_pairing, kxo_state};

use crate::kxo::{ioctl, open, read_records};
use crate::{ensure, Outcome, Test};

/// The pairing part of the `kxo` suite.
pub fn tests() -> Vec<Test> {
    vec![
        Test { suite: "kxo", name: "pairing: non-root gets EPERM, nothing changes", uid: 2312, run: non_root },
        Test { suite: "kxo", name: "control ioctls check CAP_SYS_ADMIN at the call: root's descriptor after setuid gets EPERM", uid: 0, run: cap_at_call },
        Test { suite: "kxo", name: "pairing: a bad slot or agent is EINVAL, nothing changes; a set pairing plays from the next round", uid: 0, run: chosen },
    ]
}

fn set(f: &std::fs::File, slot: u16, o: u8, x: u8) -> Result<(), i32> {
    kxo_set_pairing(
        f,
        KxoPairing {
            slot,
            o_agent: o,
            x_agent: x,
        },
    )
    .map_err(|e| e.raw_os_error().unwrap_or(0))
}

fn policies(f: &std::fs::File) -> Result<Vec<[u8; 2]>, String> {
    let s = kxo_state(f).map_err(|e| format!("state: {e}"))?;
    Ok(s.pairings[..s.games as usize].to_vec())
}

fn non_root(_: u32) -> Outcome {
    let f = open(false)?;
    let before = policies(&f)?;
    ensure!(
        set(&f, ALL_SLOTS, 2, 0) == Err(libc::EPERM),
        "non-root set a pairing"
    );
    ensure!(policies(&f)? == before, "the policies changed");
    Ok(())
}

fn cap_at_call(_: u32) -> Outcome {
    let f = open(false)?;
    ensure!(
        set(&f, ALL_SLOTS, RANDOM, RANDOM).is_ok(),
        "root could not set"
    );
    // SAFETY: plain syscall; this test runs in its own forked child.
    let r = unsafe { libc::setresuid(2313, 2313, 2313) };
    ensure!(r == 0, "setresuid: {}", std::io::Error::last_os_error());
    ensure!(
        set(&f, ALL_SLOTS, RANDOM, RANDOM) == Err(libc::EPERM),
        "root's descriptor kept its privilege after setuid"
    );
    ensure!(
        ioctl(&f, kgames_uapi::ioctl::KXO_IOC_PAUSE) == Err(libc::EPERM),
        "pause after setuid"
    );
    Ok(())
}

/// Sets every slot back to the random draw, whatever happened.
struct Reset(std::fs::File);

impl Drop for Reset {
    fn drop(&mut self) {
        let _ = set(&self.0, ALL_SLOTS, RANDOM, RANDOM);
    }
}

fn chosen(_: u32) -> Outcome {
    let c = Reset(open(false)?);
    let f = &c.0;
    let games = kxo_state(f).map_err(|e| e.to_string())?.games;
    let all_random = vec![[RANDOM; 2]; games as usize];
    ensure!(policies(f)? == all_random, "not all random at the start");
    for (slot, o, x) in [
        (games as u16, 2, 0),
        (0, 5, 0),
        (0, 2, 0xfe),
        (ALL_SLOTS, 9, RANDOM),
    ] {
        ensure!(
            set(f, slot, o, x) == Err(libc::EINVAL),
            "slot {slot} {o}:{x} accepted"
        );
    }
    ensure!(
        policies(f)? == all_random,
        "a rejected pairing changed something"
    );
    // One slot, then all.
    set(f, 1, 3, RANDOM).map_err(|e| format!("slot 1: {e}"))?;
    let p = policies(f)?;
    ensure!(
        p[1] == [3, RANDOM] && p[0] == [RANDOM; 2],
        "after slot 1: {p:?}"
    );
    set(f, ALL_SLOTS, 2, 0).map_err(|e| format!("all: {e}"))?;
    ensure!(policies(f)? == vec![[2, 0]; games as usize], "after all");
    // The next rounds (a restart starts one everywhere) are MCTS (O) against negamax (X).
    let mut w = open(false)?;
    let snap = read_records(&mut w, 64).map_err(|e| e.to_string())?;
    let rounds: HashMap<u16, u32> = snap.iter().map(|r| (r.game, r.round)).collect();
    ioctl(f, KXO_IOC_RESTART).map_err(|e| format!("restart: {e}"))?;
    let t0 = std::time::Instant::now();
    let mut seen = BTreeSet::new();
    while t0.elapsed() < Duration::from_secs(3) {
        for r in read_records(&mut w, 16).map_err(|e| e.to_string())? {
            if rounds.get(&r.game).is_some_and(|&old| r.round > old) {
                ensure!(
                    (r.o_agent, r.x_agent) == (2, 0),
                    "game {} round {} plays {}:{}",
                    r.game,
                    r.round,
                    r.o_agent,
                    r.x_agent
                );
                seen.insert(r.game);
            }
        }
    }
    ensure!(seen.len() == games as usize, "new rounds seen in {seen:?}");
    Ok(())
}
