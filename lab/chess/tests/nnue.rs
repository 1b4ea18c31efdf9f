//! The network trainer: a short training lowers the loss, and the float model and the integer
//! network the engine runs agree within the quantisation error on 10,000 held-out positions.

use chess_lab::nnue::{
    agreement, loss, train, train_from, Entry, Model, Progress, Schedule, Train,
};
use chess_lab::selfplay::{play_game, random_positions, GameSearch, Memory, Settings};
use kgames_chess::common::rng::Rng;
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
        search: GameSearch::Plain,
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
    random_positions(99, 10_000, 60)
}

/// The settings of the short runs below: batches of 64 at a high rate on 2 threads.
fn short_run(epochs: u32, mirror: bool) -> Train {
    Train {
        epochs,
        batch: 64,
        lr: 0.01,
        schedule: Schedule::Step,
        lambda: 0.75,
        threads: 2,
        seed: 1,
        mirror,
    }
}

/// Step decay keeps the rate, then a tenth of it for the last quarter of the epochs; the
/// cosine falls step by step from the rate to a hundredth of it.
#[test]
fn learning_rate_schedules() {
    let step = |e| Schedule::Step.lr(0.01, e, 8, 0, 100);
    assert_eq!((step(1), step(6)), (0.01, 0.01));
    assert_eq!((step(7), step(8)), (0.01 / 10.0, 0.01 / 10.0));
    assert_eq!(Schedule::Step.lr(0.01, 1, 1, 0, 1), 0.01);
    let cos = |s| Schedule::Cosine.lr(0.01, 1, 8, s, 1000);
    assert_eq!(cos(0), 0.01);
    assert!((cos(500) - 0.00505).abs() < 1e-6, "{}", cos(500));
    assert!((cos(1000) - 0.0001).abs() < 1e-7, "{}", cos(1000));
    assert!((1..=1000).all(|s| cos(s) < cos(s - 1)));
    // A cosine run learns, and not the step run's weights.
    let set = training_set();
    let fresh = Model::new(16, Activation::SquaredClippedRelu, 1);
    let mut stepped = fresh.clone();
    train(&mut stepped, &set, &short_run(4, false), |_, _, _| {});
    let mut cosine = fresh.clone();
    let t = Train {
        schedule: Schedule::Cosine,
        ..short_run(4, false)
    };
    train(&mut cosine, &set, &t, |_, _, _| {});
    assert!(loss(&cosine, &set, 0.75) < loss(&fresh, &set, 0.75));
    assert!(cosine.quantise() != stepped.quantise());
}

#[test]
fn float_and_integer_networks_agree() {
    let set = training_set();
    assert!(set.len() > 300, "{}", set.len());
    let held = held_out();
    for (activation, buckets, outputs) in [
        (Activation::ClippedRelu, 1, 1),
        (Activation::SquaredClippedRelu, 1, 1),
        (Activation::SquaredClippedRelu, 4, 1),
        (Activation::ClippedRelu, 8, 1),
        (Activation::SquaredClippedRelu, 1, 8),
    ] {
        let mut model = Model::shaped(32, activation, buckets, outputs, 1);
        let before = loss(&model, &set, 0.75);
        let t = short_run(8, false);
        train(&mut model, &set, &t, |_, _, _| {});
        let after = loss(&model, &set, 0.75);
        assert!(
            after < before * 0.9,
            "{activation:?}: loss {before} -> {after}"
        );
        let bytes = model.quantise();
        let net = Network::parse(&bytes).expect("the quantised network is valid");
        assert_eq!((net.buckets(), net.outputs()), (buckets, outputs));
        assert!(Model::dequantise(&bytes).unwrap().quantise() == bytes);
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
        search: GameSearch::Plain,
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

/// `Settings::search`: the product's search plays other games than the plain one from the
/// same seed, and a game replays to the same samples after other games used the memory (the
/// kept table is cleared at each game's start).
#[test]
fn self_play_with_the_products_search() {
    let mut settings = Settings {
        nodes: 300,
        random_plies: 8,
        max_plies: 60,
        adjudicate_cp: 1000,
        net: Network::embedded(),
        search: GameSearch::Plain,
    };
    let mut mem = Memory::new(1 << 12);
    let plain = play_game(&mut Rng::new(11), &settings, &mut mem);
    settings.search = GameSearch::Product;
    let product = play_game(&mut Rng::new(11), &settings, &mut mem);
    let samples = |g: &[chess_lab::data::Sample]| {
        g.iter()
            .map(|s| (s.fen.clone(), s.score))
            .collect::<Vec<_>>()
    };
    assert!(!plain.is_empty() && !product.is_empty());
    assert_ne!(samples(&plain), samples(&product));
    play_game(&mut Rng::new(12), &settings, &mut mem);
    let again = play_game(&mut Rng::new(11), &settings, &mut mem);
    assert_eq!(samples(&again), samples(&product));
}

/// `Train::mirror` makes the mirror images as the batches are made: the same network as
/// training on the set with its mirror images appended (what the trainer did before it kept
/// one copy of each position in memory).
#[test]
fn mirror_images_made_in_batches_train_as_if_stored() {
    let set = training_set();
    let mut t = short_run(2, true);
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

/// A run stopped after an epoch and continued from its checkpoint writes the network of a run
/// that did not stop; a checkpoint of other settings or data is refused.
#[test]
fn a_run_continued_from_its_checkpoint_ends_as_an_unstopped_one() {
    let set = training_set();
    let t = short_run(4, true);
    let mut whole = Model::new(16, Activation::SquaredClippedRelu, 1);
    train(&mut whole, &set, &t, |_, _, _| {});
    // The same run, stopped after its second epoch.
    let mut stopped = Model::new(16, Activation::SquaredClippedRelu, 1);
    let mut checkpoint = Vec::new();
    let mut progress = Progress::new(&stopped);
    train_from(&mut stopped, &mut progress, &set, &t, |epoch, _, m, p| {
        if epoch == 2 {
            checkpoint = p.checkpoint(m, &t, set.len());
        }
    });
    assert!(!checkpoint.is_empty());
    // Continued in a new model (other weights until the checkpoint's are read).
    let mut continued = Model::new(16, Activation::SquaredClippedRelu, 9);
    let mut p = Progress::resume(&checkpoint, &mut continued, &t, set.len()).expect("resumes");
    assert_eq!(p.epoch, 2);
    let mut epochs = Vec::new();
    train_from(&mut continued, &mut p, &set, &t, |e, _, _, _| {
        epochs.push(e)
    });
    assert_eq!(epochs, [3, 4]);
    assert!(continued.quantise() == whole.quantise());
    // Another run's checkpoint: other data, other settings, another shape, damaged.
    let mut m = Model::new(16, Activation::SquaredClippedRelu, 1);
    assert!(Progress::resume(&checkpoint, &mut m, &t, set.len() - 1).is_err());
    let other = Train {
        lr: 0.001,
        ..t.clone()
    };
    assert!(Progress::resume(&checkpoint, &mut m, &other, set.len()).is_err());
    let cosine = Train {
        schedule: Schedule::Cosine,
        ..t.clone()
    };
    assert!(Progress::resume(&checkpoint, &mut m, &cosine, set.len()).is_err());
    let mut wider = Model::new(32, Activation::SquaredClippedRelu, 1);
    assert!(Progress::resume(&checkpoint, &mut wider, &t, set.len()).is_err());
    let cut = &checkpoint[..checkpoint.len() - 4];
    assert!(Progress::resume(cut, &mut m, &t, set.len()).is_err());
    let mut longer = checkpoint.clone();
    longer.extend_from_slice(&[0; 4]);
    assert!(Progress::resume(&longer, &mut m, &t, set.len()).is_err());
    let mut foreign = checkpoint.clone();
    foreign[0] ^= 1;
    assert!(Progress::resume(&foreign, &mut m, &t, set.len()).is_err());
    let mut crelu = Model::new(16, Activation::ClippedRelu, 1);
    assert!(Progress::resume(&checkpoint, &mut crelu, &t, set.len()).is_err());
    let mut bucketed = Model::with_buckets(16, Activation::SquaredClippedRelu, 4, 1);
    assert!(Progress::resume(&checkpoint, &mut bucketed, &t, set.len()).is_err());
    let mut outputs = Model::shaped(16, Activation::SquaredClippedRelu, 1, 8, 1);
    assert!(Progress::resume(&checkpoint, &mut outputs, &t, set.len()).is_err());
    // With output buckets: the checkpoint holds them, a run without refuses it.
    let mut stopped8 = Model::shaped(16, Activation::SquaredClippedRelu, 1, 8, 1);
    let mut whole8 = stopped8.clone();
    train(&mut whole8, &set, &t, |_, _, _| {});
    let mut p8 = Progress::new(&stopped8);
    let mut checkpoint8 = Vec::new();
    train_from(&mut stopped8, &mut p8, &set, &t, |epoch, _, m, p| {
        if epoch == 3 {
            checkpoint8 = p.checkpoint(m, &t, set.len());
        }
    });
    let mut continued8 = Model::shaped(16, Activation::SquaredClippedRelu, 1, 8, 5);
    let mut p = Progress::resume(&checkpoint8, &mut continued8, &t, set.len()).expect("resumes");
    train_from(&mut continued8, &mut p, &set, &t, |_, _, _, _| {});
    assert!(continued8.quantise() == whole8.quantise());
    assert!(Progress::resume(&checkpoint8, &mut m, &t, set.len()).is_err());
    // A checkpoint beyond its run's last epoch.
    let mut beyond = Progress::new(&m);
    beyond.epoch = t.epochs + 1;
    let late = beyond.checkpoint(&m, &t, set.len());
    let refusal = Progress::resume(&late, &mut m, &t, set.len()).map(|p| p.epoch);
    assert_eq!(
        refusal,
        Err(format!(
            "damaged (it has {} epochs done, this run has {})",
            t.epochs + 1,
            t.epochs
        ))
    );
    let mut last = Progress::new(&m);
    last.epoch = t.epochs;
    let done = last.checkpoint(&m, &t, set.len());
    assert_eq!(
        Progress::resume(&done, &mut m, &t, set.len()).map(|p| p.epoch),
        Ok(t.epochs)
    );
}

/// A network copied into king buckets or output buckets evaluates as before, float and
/// integer alike, and reads back with its buckets.
#[test]
fn a_network_spread_into_buckets_evaluates_alike() {
    let bytes = include_bytes!("../../../src/chess/nnue.bin");
    let model = Model::dequantise(bytes).expect("the shipped network reads back");
    let spread = model.spread(4).expect("no buckets yet");
    assert!(spread.spread(8).is_none());
    let (net, spread_bytes) = (Network::parse(bytes).unwrap(), spread.quantise());
    let spread_net = Network::parse(&spread_bytes).expect("valid");
    assert_eq!(spread_net.buckets(), 4);
    assert_eq!(Model::dequantise(&spread_bytes).unwrap().buckets, 4);
    // And into output buckets: the shipped network's first output alone (a network with one
    // output), copied into 8.
    assert!(model.spread_outputs().is_none());
    let h = model.hidden;
    let one = Model {
        outputs: 1,
        w2: model.w2[..2 * h].to_vec(),
        b2: model.b2[..1].to_vec(),
        ..model.clone()
    };
    let (one_bytes, outs) = (one.quantise(), one.spread_outputs().expect("one output"));
    let one_net = Network::parse(&one_bytes).expect("valid");
    assert_eq!(one_net.outputs(), 1);
    assert!(outs.spread_outputs().is_none());
    let outs_bytes = outs.quantise();
    let outs_net = Network::parse(&outs_bytes).expect("valid");
    assert_eq!((outs_net.outputs(), outs.outputs), (8, 8));
    assert!(Model::dequantise(&outs_bytes).unwrap().quantise() == outs_bytes);
    for pos in random_positions(3, 2_000, 100) {
        let e = Entry::new(&pos, 0, chess_lab::data::Result3::Draw);
        assert_eq!(model.centipawns(&e), spread.centipawns(&e));
        assert_eq!(one.centipawns(&e), outs.centipawns(&e));
        assert_eq!(
            net.evaluate_position(&pos),
            spread_net.evaluate_position(&pos)
        );
        assert_eq!(
            one_net.evaluate_position(&pos),
            outs_net.evaluate_position(&pos)
        );
    }
}
