//! The network trainer: a short training lowers the loss, and the float model and the integer
//! network the engine runs agree within the quantisation error on 10,000 held-out positions.

use chess_lab::nnue::{agreement, loss, train, Entry, Model, Train};
use chess_lab::selfplay::{play_game, Memory, Settings};
use kgames_chess::common::rng::Rng;
use kgames_chess::game::Game;
use kgames_chess::moves::MoveList;
use kgames_chess::nnue::{Activation, Network};
use kgames_chess::position::Position;

/// Positions of self-play games at a small node budget, with their search scores.
fn training_set() -> Vec<Entry> {
    let settings = Settings {
        nodes: 300,
        random_plies: 8,
        max_plies: 200,
        adjudicate_cp: 1000,
        net: None,
    };
    let mut mem = Memory::new(1 << 12);
    let mut out = Vec::new();
    for seed in 0..12 {
        for s in play_game(&mut Rng::new(seed), &settings, &mut mem) {
            let pos = Position::from_fen(s.fen.as_bytes()).unwrap();
            out.push(Entry::new(&pos, s.score.unwrap(), s.result));
        }
    }
    out
}

/// 10,000 positions of random games, none of them trained on.
fn held_out() -> Vec<Position> {
    let mut rng = Rng::new(99);
    let mut list = MoveList::new();
    let mut out = Vec::new();
    while out.len() < 10_000 {
        let mut game = Game::new();
        for _ in 0..60 {
            game.legal_moves(&mut list);
            let Some(m) = list.get(rng.below(list.len().max(1) as u32) as usize) else {
                break;
            };
            game.play(m);
            if game.is_over() {
                break;
            }
            out.push(*game.position());
        }
    }
    out.truncate(10_000);
    out
}

#[test]
fn float_and_integer_networks_agree() {
    let set = training_set();
    assert!(set.len() > 300, "{}", set.len());
    let held = held_out();
    for activation in [Activation::ClippedRelu, Activation::SquaredClippedRelu] {
        let mut model = Model::new(32, activation, 1);
        let before = loss(&model, &set, 0.75);
        let t = Train {
            epochs: 8,
            batch: 64,
            lr: 0.01,
            lambda: 0.75,
            threads: 2,
            seed: 1,
            mirror: false,
        };
        train(&mut model, &set, &t, |_, _, _| {});
        let after = loss(&model, &set, 0.75);
        assert!(
            after < before * 0.9,
            "{activation:?}: loss {before} -> {after}"
        );
        let bytes = model.quantise();
        let net = Network::parse(&bytes).expect("the quantised network is valid");
        let a = agreement(&model, &net, &held);
        assert!(a.positions > 9_000, "{activation:?}: {a:?}");
        assert_eq!(a.beyond_bound, 0, "{activation:?}: {a:?}");
        eprintln!("{activation:?}: loss {before:.4} -> {after:.4}, {a:?}");
    }
}

/// `Settings::net` makes the network the games' evaluation: from the same seed, the built-in
/// network's game scores its positions otherwise than the classic evaluation's game.
#[test]
fn self_play_with_the_network_uses_it() {
    let mut settings = Settings {
        nodes: 300,
        random_plies: 8,
        max_plies: 40,
        adjudicate_cp: 1000,
        net: None,
    };
    let mut mem = Memory::new(1 << 12);
    let classic = play_game(&mut Rng::new(7), &settings, &mut mem);
    settings.net = Network::embedded();
    assert!(settings.net.is_some());
    let network = play_game(&mut Rng::new(7), &settings, &mut mem);
    let scores = |g: &[chess_lab::data::Sample]| g.iter().map(|s| s.score).collect::<Vec<_>>();
    assert!(!classic.is_empty() && !network.is_empty());
    assert_ne!(scores(&classic), scores(&network));
}

/// `Train::mirror` makes the mirror images as the batches are made: the same network as
/// training on the set with its mirror images appended (what the trainer did before it kept
/// one copy of each position in memory).
#[test]
fn mirror_images_made_in_batches_train_as_if_stored() {
    let set = training_set();
    let mut t = Train {
        epochs: 2,
        batch: 64,
        lr: 0.01,
        lambda: 0.75,
        threads: 2,
        seed: 1,
        mirror: true,
    };
    let mut made = Model::new(16, Activation::ClippedRelu, 1);
    train(&mut made, &set, &t, |_, _, _| {});
    let mut stored_set = set.clone();
    stored_set.extend(set.iter().map(Entry::mirrored));
    t.mirror = false;
    let mut stored = Model::new(16, Activation::ClippedRelu, 1);
    train(&mut stored, &stored_set, &t, |_, _, _| {});
    assert!(made.quantise() == stored.quantise());
    let mut unmirrored = Model::new(16, Activation::ClippedRelu, 1);
    train(&mut unmirrored, &set, &t, |_, _, _| {});
    assert!(made.quantise() != unmirrored.quantise());
}

/// Training can start from the shipped network: its float model quantises back to the same
/// bytes, and a truncated file is refused.
#[test]
fn shipped_network_dequantises_to_itself() {
    let bytes = include_bytes!("../../../src/chess/nnue.bin");
    let model = Model::dequantise(bytes).expect("the shipped network reads back");
    assert_eq!(model.quantise(), bytes.to_vec());
    assert!(Model::dequantise(&bytes[..bytes.len() - 1]).is_err());
}
