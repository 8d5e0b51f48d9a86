//! One step of the network: synchronous (every neuron reads the previous outputs) or
//! sequential (neurons in turn, each reading the current outputs).
//!
//! The neighbour sum of neuron `e = {a, b}` is `deg[a] + deg[b] − 2·V(e)`, where `deg`
//! counts active moves per square, so
//! `ΔU(e) = C − deg[a] − deg[b] + (2 − S)·V(e)`. A synchronous step is one gather (ΔU
//! from `deg`) and one scatter-add (`deg` from the new V); a sequential step updates
//! `deg` in O(1) whenever an output flips. No E×E mask and no per-neuron lists.
//!
//! The loops are generic over a rule's hooks ([`StepHook`]): ΔU and the output function
//! of every update go through them, compiled for each rule ([`super::rules`]); the plain
//! rule's hooks are the identity.
//!
//! Held neurons ([`KnightGraph::held`]) are never visited: their outputs stay on and
//! count in `deg` like any other active neuron's.

use std::borrow::Borrow;

use ndarray::{Array1, Zip};

use super::outcome::StepStats;
use super::params::{NetworkParams, UpdateOrder};
use super::rules::{Neurons, Plain, RuleState, StepHook};
use super::state::State;
use crate::graph::KnightGraph;

/// The evolving network: the state plus per-square active degrees.
#[derive(Debug, Clone)]
pub struct Dynamics<'g> {
    graph: &'g KnightGraph,
    params: NetworkParams,
    pub(super) state: State,
    /// Active edges per vertex (16 bits: the open graph's apex has one edge per square).
    pub(super) deg: Array1<u16>,
    /// The neurons of a sweep when some are held (the usual order without them).
    visits: Option<Vec<u32>>,
    /// Number of squares whose `deg` is not 2.
    off_two: u32,
    active: u32,
    /// The attempt of the rule (`params.rule`).
    rule: RuleState,
}

/// A [`Dynamics`] without its borrow of the graph, so that an owner of the graph can keep
/// it between steps ([`super::steps::RunSteps`]); [`Dynamics::attach`] puts it back on
/// the graph it was detached from, at no cost (nothing is recounted).
#[derive(Debug, Clone)]
pub(super) struct Detached {
    params: NetworkParams,
    pub(super) state: State,
    pub(super) deg: Array1<u16>,
    visits: Option<Vec<u32>>,
    pub(super) off_two: u32,
    active: u32,
    rule: RuleState,
}

/// A [`Dynamics`] that holds its graph (owned, shared as `Arc<KnightGraph>`, or
/// borrowed), so that a front end can keep one network alive between steps (the Python
/// `Network` does): the degrees and counters are kept, not recounted, between steps.
#[derive(Debug, Clone)]
pub struct OwnedDynamics<G: Borrow<KnightGraph>> {
    graph: G,
    dynamics: Option<Detached>,
}

impl<G: Borrow<KnightGraph>> OwnedDynamics<G> {
    /// The network on `graph` from `state` ([`Dynamics::new`]).
    pub fn new(graph: G, params: NetworkParams, state: State) -> OwnedDynamics<G> {
        let dynamics = Dynamics::new(graph.borrow(), params, state).detach();
        OwnedDynamics {
            graph,
            dynamics: Some(dynamics),
        }
    }

    fn held(&self) -> &Detached {
        self.dynamics.as_ref().expect("a network between steps")
    }

    /// One step ([`Dynamics::step`]).
    pub fn step(&mut self) -> StepStats {
        let held = self.dynamics.take().expect("a network between steps");
        let mut d = Dynamics::attach(self.graph.borrow(), held);
        let stats = d.step();
        self.dynamics = Some(d.detach());
        stats
    }

    /// The graph.
    pub fn graph(&self) -> &KnightGraph {
        self.graph.borrow()
    }

    /// The parameters.
    pub fn params(&self) -> &NetworkParams {
        &self.held().params
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.held().state
    }

    /// Active moves per vertex ([`Dynamics::deg`]).
    pub fn deg(&self) -> &Array1<u16> {
        &self.held().deg
    }

    /// Squares whose number of active moves is not 2.
    pub fn off_two(&self) -> u32 {
        self.held().off_two
    }

    /// Number of active neurons.
    pub fn active(&self) -> u32 {
        self.held().active
    }
}

/// The engine as the rules see it.
impl Neurons for Dynamics<'_> {
    fn graph(&self) -> &KnightGraph {
        self.graph
    }

    fn set_neuron(&mut self, e: usize, u: i32, v: u8) {
        Dynamics::set_neuron(self, e, u, v)
    }

    #[inline(always)]
    fn step_with<H: StepHook>(&mut self, hook: &mut H) -> (u32, u32) {
        Dynamics::step_with(self, hook)
    }
}

impl<'g> Dynamics<'g> {
    /// Keep the state, the degrees and the counters without the graph.
    pub(super) fn detach(self) -> Detached {
        Detached {
            params: self.params,
            state: self.state,
            deg: self.deg,
            visits: self.visits,
            off_two: self.off_two,
            active: self.active,
            rule: self.rule,
        }
    }

    /// Continue `d` on `graph`, which must be the graph it was detached from.
    pub(super) fn attach(graph: &'g KnightGraph, d: Detached) -> Dynamics<'g> {
        debug_assert_eq!(d.deg.len(), graph.vertices());
        Dynamics {
            graph,
            params: d.params,
            state: d.state,
            deg: d.deg,
            visits: d.visits,
            off_two: d.off_two,
            active: d.active,
            rule: d.rule,
        }
    }

    /// The network from `state`; the rule's attempt starts with seed 0 (see
    /// [`Dynamics::with_rule`]). Panics if `state` does not have one neuron per edge of
    /// `graph`.
    pub fn new(graph: &'g KnightGraph, params: NetworkParams, state: State) -> Dynamics<'g> {
        let rule = params.rule.start(0);
        Dynamics::with_rule(graph, params, state, rule)
    }

    /// The network from `state`, with the rule's attempt `rule` (started from
    /// `params.rule`).
    pub fn with_rule(
        graph: &'g KnightGraph,
        params: NetworkParams,
        state: State,
        rule: RuleState,
    ) -> Dynamics<'g> {
        assert_eq!(
            state.neurons(),
            graph.edges(),
            "a state of {} neurons on a graph of {} edges",
            state.neurons(),
            graph.edges()
        );
        let visits = (!graph.held().is_empty()).then(|| {
            let all: Vec<u32> = match (&state.order, params.order) {
                (Some(order), _) => order.clone(),
                (None, UpdateOrder::SquareSweep) => graph.incident_all().to_vec(),
                (None, _) => (0..graph.edges() as u32).collect(),
            };
            all.into_iter()
                .filter(|e| graph.held().binary_search(e).is_err())
                .collect()
        });
        let mut d = Dynamics {
            graph,
            params,
            state,
            deg: Array1::zeros(graph.vertices()),
            visits,
            off_two: 0,
            active: 0,
            rule,
        };
        d.recount();
        d
    }

    /// Recompute `deg` from V by one scatter-add, and the counters from `deg`.
    fn recount(&mut self) {
        self.deg.fill(0);
        let deg = self.deg.as_slice_mut().expect("contiguous");
        Zip::from(&self.state.v)
            .and(&self.graph.a)
            .and(&self.graph.b)
            .for_each(|&v, &a, &b| {
                deg[a as usize] += v as u16;
                deg[b as usize] += v as u16;
            });
        self.off_two = self.deg.iter().filter(|&&d| d != 2).count() as u32;
        self.active = self.state.v.iter().map(|&v| v as u32).sum();
    }

    /// The current state (U, V and the visiting order).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The state, leaving the network.
    pub fn into_state(self) -> State {
        self.state
    }

    /// Active moves per vertex (the open graph's apex included), kept in step with V.
    pub fn deg(&self) -> &Array1<u16> {
        &self.deg
    }

    /// Squares whose number of active moves is not 2.
    pub fn off_two(&self) -> u32 {
        self.off_two
    }

    /// Number of active neurons.
    pub fn active(&self) -> u32 {
        self.active
    }

    /// The graph the network runs on.
    pub fn graph(&self) -> &'g KnightGraph {
        self.graph
    }

    /// The parameters.
    pub fn params(&self) -> &NetworkParams {
        &self.params
    }

    /// The rule's attempt.
    pub fn rule(&self) -> &RuleState {
        &self.rule
    }

    /// What the rule has recorded so far ([`super::rules::Rule::events`]).
    pub fn rule_events(&self) -> u32 {
        self.rule.events(&self.params.rule)
    }

    /// Set neuron `e`'s state and output, keeping the degrees and counters in step.
    pub(crate) fn set_neuron(&mut self, e: usize, u: i32, v: u8) {
        self.state.u[e] = u;
        let old = self.state.v[e];
        if old == v {
            return;
        }
        self.state.v[e] = v;
        let (a, b) = self.graph.endpoints(e);
        for x in [a as usize, b as usize] {
            self.off_two -= (self.deg[x] != 2) as u32;
            if v == 1 {
                self.deg[x] += 1;
            } else {
                self.deg[x] -= 1;
            }
            self.off_two += (self.deg[x] != 2) as u32;
        }
        if v == 1 {
            self.active += 1;
        } else {
            self.active -= 1;
        }
    }

    /// The stop rule has fired on a cover of several cycles: the rule may change the
    /// network and go on (true), or end the attempt (false).
    pub(super) fn on_cycles(&mut self, cycles: &[Vec<u32>]) -> bool {
        let mut rule = std::mem::take(&mut self.rule);
        let kind = self.params.rule;
        let go_on = rule.on_cycles(&kind, self, cycles);
        self.rule = rule;
        go_on
    }

    /// One step (a sweep for sequential orders).
    pub fn step(&mut self) -> StepStats {
        // The plain rule (every preset) steps here directly, so its loops compile as
        // they did before rules had hooks; the other rules go through their dispatch.
        let (changed, flips) = match self.rule {
            RuleState::TakefujiLee => self.step_with(&mut Plain),
            _ => self.step_rule(),
        };
        StepStats {
            changed,
            flips,
            active: self.active,
            off_two: self.off_two,
        }
    }

    /// One step of a rule other than the plain one, through [`RuleState::step`].
    #[inline(never)]
    fn step_rule(&mut self) -> (u32, u32) {
        let mut rule = std::mem::take(&mut self.rule);
        let kind = self.params.rule;
        let stepped = rule.step(&kind, self);
        self.rule = rule;
        stepped
    }

    /// One step with the rule's hooks `hook` (called by [`RuleState::step`]).
    #[inline(always)]
    pub(crate) fn step_with<H: StepHook>(&mut self, hook: &mut H) -> (u32, u32) {
        match self.params.order {
            UpdateOrder::Synchronous => self.step_synchronous(hook),
            UpdateOrder::Sequential | UpdateOrder::RandomPermutation | UpdateOrder::SquareSweep => {
                self.step_sequential(hook)
            }
        }
    }

    #[inline(always)]
    fn step_synchronous<H: StepHook>(&mut self, hook: &mut H) -> (u32, u32) {
        let NetworkParams {
            c,
            s,
            upper,
            lower,
            clamp,
            ..
        } = self.params;
        let deg = self.deg.as_slice().expect("contiguous");
        let (mut changed, mut flips) = (0u32, 0u32);
        // One neuron's update from the previous step's degrees, written once for both
        // loops (a macro, as in the sequential step, so that it compiles inline as the
        // loop body).
        macro_rules! update {
            ($u:expr, $v:expr, $a:expr, $b:expr) => {{
                let (u, v): (&mut i32, &mut u8) = ($u, $v);
                let du = hook.delta(
                    c - deg[$a as usize] as i32 - deg[$b as usize] as i32 + (2 - s) * *v as i32,
                );
                changed += (du != 0) as u32;
                let mut nu = *u + du;
                if let Some(k) = clamp {
                    nu = nu.clamp(-k, k);
                }
                *u = nu;
                let nv = hook.output(nu, *v, upper, lower);
                flips += (nv != *v) as u32;
                *v = nv;
            }};
        }
        match &self.visits {
            None => Zip::from(&mut self.state.u)
                .and(&mut self.state.v)
                .and(&self.graph.a)
                .and(&self.graph.b)
                .for_each(|u, v, &a, &b| update!(u, v, a, b)),
            // Every visit reads the previous step's degrees, so the order is immaterial.
            Some(list) => {
                for &e in list {
                    let (a, b) = self.graph.endpoints(e as usize);
                    let e = e as usize;
                    update!(&mut self.state.u[e], &mut self.state.v[e], a, b);
                }
            }
        }
        self.recount();
        (changed, flips)
    }

    #[inline(always)]
    fn step_sequential<H: StepHook>(&mut self, hook: &mut H) -> (u32, u32) {
        let NetworkParams {
            c,
            s,
            upper,
            lower,
            clamp,
            ..
        } = self.params;
        let u = self.state.u.as_slice_mut().expect("contiguous");
        let v = self.state.v.as_slice_mut().expect("contiguous");
        let deg = self.deg.as_slice_mut().expect("contiguous");
        let ea = self.graph.a.as_slice().expect("contiguous");
        let eb = self.graph.b.as_slice().expect("contiguous");
        let (mut changed, mut flips) = (0u32, 0u32);
        let mut off_two = self.off_two as i64;
        let mut active = self.active as i64;
        // One visit, written once and expanded into each of the three loops below (a
        // closure called from three places was left out of line, 2x slower).
        macro_rules! visit {
            ($e:expr) => {{
                let e: usize = $e;
                let (a, b) = (ea[e] as usize, eb[e] as usize);
                let old = v[e];
                let du = hook.delta(c - deg[a] as i32 - deg[b] as i32 + (2 - s) * old as i32);
                changed += (du != 0) as u32;
                let mut nu = u[e] + du;
                if let Some(k) = clamp {
                    nu = nu.clamp(-k, k);
                }
                u[e] = nu;
                let nv = hook.output(nu, old, upper, lower);
                if nv != old {
                    flips += 1;
                    v[e] = nv;
                    for x in [a, b] {
                        off_two -= (deg[x] != 2) as i64;
                        if nv == 1 {
                            deg[x] += 1;
                        } else {
                            deg[x] -= 1;
                        }
                        off_two += (deg[x] != 2) as i64;
                    }
                    active += if nv == 1 { 1 } else { -1 };
                }
            }};
        }
        match (&self.visits, &self.state.order, self.params.order) {
            (Some(list), _, _) => {
                for &e in list {
                    visit!(e as usize)
                }
            }
            (None, Some(order), _) => {
                for &e in order {
                    visit!(e as usize)
                }
            }
            (None, None, UpdateOrder::SquareSweep) => {
                for &e in self.graph.incident_all() {
                    visit!(e as usize)
                }
            }
            (None, None, _) => {
                for e in 0..ea.len() {
                    visit!(e)
                }
            }
        }
        self.off_two = off_two as u32;
        self.active = active as u32;
        (changed, flips)
    }

    /// The active edges as square pairs.
    pub fn active_edges(&self) -> Vec<(u32, u32)> {
        self.state
            .v
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v == 1)
            .map(|(e, _)| self.graph.endpoints(e))
            .collect()
    }
}
