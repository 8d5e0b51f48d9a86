//! The network engines checked against each other, for the closed and the open graph
//! alike: the fast O(E) update against the dense E×E oracle step by step, and attempts
//! run in the lanes of a batch against the same attempts run alone.

use knightnet::graph::KnightGraph;
use knightnet::network::dense::DenseNetwork;
use knightnet::network::{Dynamics, Network, NetworkParams, State, attempt_rng, batch};
use proptest::prelude::*;

/// Run `steps` steps of the fast engine and of the dense oracle from `state`: U, V and
/// the changed count agree after every step, held neurons stay on, and the counters the
/// fast engine keeps (squares off degree 2, active neurons) agree with a recount over
/// every vertex (the apex too, on the open graph).
pub fn fast_matches_dense(
    graph: &KnightGraph,
    params: NetworkParams,
    state: State,
    steps: usize,
) -> Result<(), TestCaseError> {
    let mut fast = Dynamics::new(graph, params, state.clone());
    let mut dense = DenseNetwork::new(graph, params, state).unwrap();
    for _ in 0..steps {
        let stats = fast.step();
        let changed = dense.step();
        prop_assert_eq!(&fast.state().u(), &dense.state().u());
        prop_assert_eq!(&fast.state().v(), &dense.state().v());
        prop_assert_eq!(stats.changed, changed);
        for &h in graph.held() {
            prop_assert_eq!(fast.state().v()[h as usize], 1);
        }
        let mut deg = vec![0u32; graph.vertices()];
        for (e, &v) in fast.state().v().iter().enumerate() {
            let (a, b) = graph.endpoints(e);
            deg[a as usize] += v as u32;
            deg[b as usize] += v as u32;
        }
        prop_assert_eq!(
            stats.off_two as usize,
            deg.iter().filter(|&&d| d != 2).count()
        );
        prop_assert_eq!(
            stats.active,
            fast.state().v().iter().map(|&v| v as u32).sum::<u32>()
        );
    }
    Ok(())
}

/// Attempts `0..attempts` of base seed `base`, run in the lanes of a batch with every
/// kernel set this CPU has, each equal to the same attempt run alone.
pub fn lanes_match_scalar(
    graph: &KnightGraph,
    params: NetworkParams,
    base: u64,
    attempts: u64,
) -> Result<(), TestCaseError> {
    let net = Network::new(graph, params).unwrap();
    for kernels in batch::Kernels::available() {
        let mut lanes = batch::Batch::new(graph, params)
            .unwrap()
            .with_kernels(kernels);
        let mut seen = 0;
        let mut mismatch = None;
        lanes.run(
            base,
            |i| i < attempts,
            |i, attempt| {
                seen += 1;
                let alone = net.attempt(&mut attempt_rng(base, i), None);
                if alone != attempt && mismatch.is_none() {
                    mismatch = Some((i, alone, attempt));
                }
            },
        );
        prop_assert_eq!(seen, attempts);
        prop_assert!(mismatch.is_none(), "{}: {:?}", kernels.name(), mismatch);
    }
    Ok(())
}

/// Any update order.
pub fn any_order() -> impl Strategy<Value = knightnet::network::UpdateOrder> {
    use knightnet::network::UpdateOrder;
    prop_oneof![
        Just(UpdateOrder::Synchronous),
        Just(UpdateOrder::Sequential),
        Just(UpdateOrder::RandomPermutation),
        Just(UpdateOrder::SquareSweep)
    ]
}
