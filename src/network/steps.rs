//! The network's attempt loop and restart loop, one step at a time: the only place
//! where an attempt is stepped, stopped and classified, and where attempts are seeded,
//! restarted and gathered into a [`NetworkRun`]. [`Network::attempt_from`] and
//! [`Network::solve`] run them to the end; `play --watch network` steps them one network
//! step at a time ([`RunSteps::step`]) and draws the state in between, so what is
//! watched is the run `solve` makes, computed once.
//!
//! ```
//! use knightnet::{board::Board, graph::KnightGraph, network::{Network, Preset, RunSteps}, rng_from_seed};
//! let graph = KnightGraph::new(Board::new(6, 6).unwrap());
//! let params = Preset::Parberry.params();
//! let mut steps = RunSteps::new(&graph, params, &mut rng_from_seed(1)).unwrap();
//! while steps.step().is_some() {}
//! let solved = Network::new(&graph, params).unwrap().solve(&mut rng_from_seed(1));
//! assert_eq!(steps.result(), Some(solved));
//! ```

use std::borrow::Borrow;

use rand::Rng;

use super::dynamics::Detached;
use super::rules::RuleState;
use super::{
    Attempt, Dynamics, Network, NetworkParams, NetworkRun, RunBuilder, State, StepStats, StopRule,
    Termination, Trace, attempt_rng, classify,
};
use crate::error::InputError;
use crate::graph::KnightGraph;

/// An attempt's start drawn from its random stream `rng`: the initial state
/// ([`State::random`]), then, for a rule that draws ([`super::rules::Rule::DRAWS`]), one
/// `u64` that seeds the rule's attempt. Under the plain rule nothing more is drawn.
pub(crate) fn draw_attempt<R: Rng + ?Sized>(
    graph: &KnightGraph,
    params: &NetworkParams,
    rng: &mut R,
) -> (State, RuleState) {
    let state = State::random(graph, params, rng);
    let seed = if params.rule.draws() { rng.random() } else { 0 };
    (state, params.rule.start(seed))
}

/// One attempt under way: steps until the stop rule fires or the iteration cap is
/// reached, then the final outputs are classified into an [`Attempt`].
#[derive(Debug, Clone)]
pub struct AttemptSteps<'g> {
    dynamics: Dynamics<'g>,
    graph: &'g KnightGraph,
    stop: StopRule,
    cap: u32,
    iterations: u32,
    end: Option<Attempt>,
}

/// An [`AttemptSteps`] without its graph borrow (see [`Detached`]). An ended attempt's
/// [`Attempt`] has moved into the run (its last attempt), so only whether it ended is
/// kept here.
#[derive(Debug, Clone)]
struct Parked {
    dynamics: Detached,
    stop: StopRule,
    cap: u32,
    iterations: u32,
    ended: bool,
}

impl<'g> AttemptSteps<'g> {
    /// The attempt of `net` from the initial state `state`; a rule's attempt starts with
    /// seed 0.
    pub fn new(net: &Network<'g>, state: State) -> AttemptSteps<'g> {
        let rule = net.params().rule.start(0);
        AttemptSteps::with_rule(net, state, rule)
    }

    /// The attempt of `net` from the initial state `state` and the rule's attempt `rule`
    /// (as `draw_attempt` draws them).
    pub fn with_rule(net: &Network<'g>, state: State, rule: RuleState) -> AttemptSteps<'g> {
        let params = net.params();
        AttemptSteps {
            dynamics: Dynamics::with_rule(net.graph(), *params, state, rule),
            graph: net.graph(),
            stop: params.stop,
            cap: params.max_iterations,
            iterations: 0,
            end: None,
        }
    }

    /// One step of the dynamics (a sweep for the sequential orders), after which the stop
    /// rule or the iteration cap may end the attempt. `None`, doing nothing, once it has
    /// ended.
    #[inline(always)]
    pub fn step(&mut self) -> Option<StepStats> {
        if self.end.is_some() {
            return None;
        }
        let stats = self.dynamics.step();
        self.iterations += 1;
        let stopped = self.stop.settled(&stats);
        if stopped || self.iterations >= self.cap {
            let v = self.dynamics.state.v.as_slice().expect("contiguous");
            let mut end = classify(self.graph, v, stopped, self.iterations);
            // A rule may act on a cover of several cycles and go on, within the cap.
            if matches!(end.termination, Termination::MultipleCycles { .. })
                && self.iterations < self.cap
                && self.dynamics.on_cycles(&end.cycles)
            {
                return Some(stats);
            }
            end.rule_events = self.dynamics.rule_events();
            self.end = Some(end);
        }
        Some(stats)
    }

    /// Step to the end. With a trace, the outputs are recorded before the first step (if
    /// none was taken yet) and after every step taken here, with each step's
    /// measurements.
    pub(crate) fn run_to_end(&mut self, mut trace: Option<&mut Trace>) -> &Attempt {
        if let Some(t) = trace.as_deref_mut()
            && self.iterations == 0
        {
            t.outputs.push(self.dynamics.state.outputs());
        }
        match trace {
            Some(t) => {
                while let Some(stats) = self.step() {
                    t.outputs.push(self.dynamics.state.outputs());
                    t.steps.push(stats);
                }
            }
            None => while self.step().is_some() {},
        }
        self.end.as_ref().expect("a finished attempt")
    }

    /// `AttemptSteps::run_to_end`, keeping only how the attempt ended.
    pub fn finish(mut self, trace: Option<&mut Trace>) -> Attempt {
        self.run_to_end(trace);
        self.end.expect("a finished attempt")
    }

    /// The network as it stands.
    pub fn dynamics(&self) -> &Dynamics<'g> {
        &self.dynamics
    }

    /// Steps taken.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// How the attempt ended, once it has.
    pub fn end(&self) -> Option<&Attempt> {
        self.end.as_ref()
    }

    /// Park the attempt, handing over how it ended, if it has.
    fn park(self) -> (Parked, Option<Attempt>) {
        let parked = Parked {
            dynamics: self.dynamics.detach(),
            stop: self.stop,
            cap: self.cap,
            iterations: self.iterations,
            ended: self.end.is_some(),
        };
        (parked, self.end)
    }

    /// Continue an attempt parked before it ended.
    fn unpark(graph: &'g KnightGraph, p: Parked) -> AttemptSteps<'g> {
        debug_assert!(!p.ended);
        AttemptSteps {
            dynamics: Dynamics::attach(graph, p.dynamics),
            graph,
            stop: p.stop,
            cap: p.cap,
            iterations: p.iterations,
            end: None,
        }
    }
}

/// A whole run, as [`Network::solve`] makes it: one base seed drawn from the caller's
/// random stream, attempt `i` from [`attempt_rng`]`(base, i)`, restarts until a tour or
/// `max_attempts`. It holds the graph (owned, or borrowed as `&KnightGraph`), so a
/// front end can keep it between steps.
#[derive(Debug, Clone)]
pub struct RunSteps<G: Borrow<KnightGraph>> {
    graph: G,
    params: NetworkParams,
    base: u64,
    run: RunBuilder,
    /// Attempts started.
    started: u32,
    /// The attempt under way, or the last one (ended) until the next step.
    current: Option<Parked>,
    done: bool,
}

impl<G: Borrow<KnightGraph>> RunSteps<G> {
    /// The run of the network with `params` on `graph`, drawing its base seed from `rng`
    /// as [`Network::solve`] does; the parameters are checked as [`Network::new`] checks
    /// them.
    pub fn new<R: Rng + ?Sized>(
        graph: G,
        params: NetworkParams,
        rng: &mut R,
    ) -> Result<RunSteps<G>, InputError> {
        Network::new(graph.borrow(), params)?;
        Ok(RunSteps::checked(graph, params, rng))
    }

    /// [`RunSteps::new`] with parameters already checked on this graph.
    fn checked<R: Rng + ?Sized>(graph: G, params: NetworkParams, rng: &mut R) -> RunSteps<G> {
        RunSteps {
            graph,
            params,
            base: rng.random(),
            run: RunBuilder::default(),
            started: 0,
            current: None,
            done: false,
        }
    }

    /// One network step of the attempt under way, the next attempt started first when the
    /// last one has ended. `None`, doing nothing, once the run is over.
    pub fn step(&mut self) -> Option<StepStats> {
        if self.done {
            return None;
        }
        let mut attempt = self.resume_or_start();
        let stats = attempt.step();
        let (parked, end) = attempt.park();
        self.keep(parked, end);
        stats
    }

    /// NetworkRun the attempt under way (or the next one) to its end, recording it into `trace`
    /// as [`AttemptSteps::run_to_end`] does. `None`, doing nothing, once the run is over.
    pub(crate) fn run_attempt(&mut self, trace: Option<&mut Trace>) -> Option<&Attempt> {
        if self.done {
            return None;
        }
        let mut attempt = self.resume_or_start();
        attempt.run_to_end(trace);
        let (parked, end) = attempt.park();
        self.keep(parked, end);
        self.ended()
    }

    /// The attempt under way, continued, or the next one started from its own stream
    /// when there is none or the last has ended. Only while the run is not over.
    fn resume_or_start(&mut self) -> AttemptSteps<'_> {
        let graph = self.graph.borrow();
        match self.current.take() {
            Some(p) if !p.ended => AttemptSteps::unpark(graph, p),
            _ => {
                let mut rng = attempt_rng(self.base, self.started as u64);
                self.started += 1;
                let (state, rule) = draw_attempt(graph, &self.params, &mut rng);
                let net = Network {
                    graph,
                    params: self.params,
                };
                AttemptSteps::with_rule(&net, state, rule)
            }
        }
    }

    /// Keep the attempt on show; if it has ended, add it to the run, which is over with a
    /// tour or at the attempt limit.
    fn keep(&mut self, attempt: Parked, end: Option<Attempt>) {
        if let Some(end) = end {
            let tour = self.run.add(end);
            self.done = tour || self.started >= self.params.max_attempts;
        }
        self.current = Some(attempt);
    }

    /// Whether the run is over (a tour, or `max_attempts` attempts).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Attempts started so far.
    pub fn attempts(&self) -> u32 {
        self.started
    }

    /// Steps of the attempt under way (or of the last one).
    pub fn iterations(&self) -> u32 {
        self.current.as_ref().map_or(0, |p| p.iterations)
    }

    /// The state of the attempt under way (or of the last one); `None` before the first
    /// step.
    pub fn state(&self) -> Option<&State> {
        self.current.as_ref().map(|p| &p.dynamics.state)
    }

    /// Active moves per vertex of the graph in that state.
    pub fn degrees(&self) -> Option<&[u16]> {
        self.current
            .as_ref()
            .map(|p| p.dynamics.deg.as_slice().expect("contiguous"))
    }

    /// Vertices whose number of active moves is not 2 in that state.
    pub fn off_two(&self) -> Option<u32> {
        self.current.as_ref().map(|p| p.dynamics.off_two)
    }

    /// How the attempt on show ended, once it has.
    pub fn ended(&self) -> Option<&Attempt> {
        match &self.current {
            Some(p) if p.ended => self.run.last.as_ref(),
            _ => None,
        }
    }

    /// The graph the run's network is bound to.
    pub fn graph(&self) -> &KnightGraph {
        self.graph.borrow()
    }

    /// The run, once it is over: what [`Network::solve`] returns for the same seed.
    pub fn result(&self) -> Option<NetworkRun> {
        self.done
            .then(|| self.run.clone().finish(self.graph.borrow()))
    }
}

impl<G: Borrow<KnightGraph>> RunSteps<G> {
    /// [`RunSteps::result`] without a copy.
    pub(crate) fn into_result(self) -> Option<NetworkRun> {
        let graph = self.graph.borrow();
        self.done.then(|| self.run.finish(graph))
    }
}

impl<'g> RunSteps<&'g KnightGraph> {
    /// The run of `net`, drawing its base seed from `rng`.
    pub(super) fn of(
        net: &Network<'g>,
        rng: &mut (impl Rng + ?Sized),
    ) -> RunSteps<&'g KnightGraph> {
        RunSteps::checked(net.graph, net.params, rng)
    }
}
