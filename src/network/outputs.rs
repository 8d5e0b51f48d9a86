//! The outputs of a network: one bit (on or off) per neuron, in the graph's canonical
//! edge order. A [`Trace`](super::Trace) records one per state; a trace file writes each
//! as a string of `0`/`1`, one character per neuron, and reads it back into this type.

use serde::{Deserialize, Serialize};

/// The output V of every neuron of a network (on or off), in the graph's canonical edge
/// order: one recorded state of an attempt, or a [`State`](super::State)'s outputs
/// ([`State::outputs`](super::State::outputs)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct OutputState(Vec<bool>);

impl OutputState {
    /// The state with these outputs, neuron by neuron.
    pub fn new(outputs: Vec<bool>) -> OutputState {
        OutputState(outputs)
    }

    /// Number of neurons.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the state has no neurons.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each neuron's output, in order.
    pub fn outputs(&self) -> &[bool] {
        &self.0
    }

    /// The neurons that are on, in order.
    pub fn active(&self) -> impl Iterator<Item = usize> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|&(_, &on)| on)
            .map(|(e, _)| e)
    }

    /// The outputs as 0/1 bytes, as [`classify`](super::classify) takes them.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().map(|&on| u8::from(on)).collect()
    }
}

/// A state string holds a character other than `0` or `1`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an output state holds '{found}' at neuron {neuron}; each character is 0 or 1")]
pub struct OutputStateError {
    /// The character found.
    pub found: char,
    /// Its position (the neuron), from 0.
    pub neuron: usize,
}

impl std::str::FromStr for OutputState {
    type Err = OutputStateError;

    /// One `0` or `1` per neuron.
    fn from_str(text: &str) -> Result<OutputState, OutputStateError> {
        text.chars()
            .enumerate()
            .map(|(neuron, c)| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                found => Err(OutputStateError { found, neuron }),
            })
            .collect::<Result<_, _>>()
            .map(OutputState)
    }
}

/// One `0` or `1` per neuron, as a trace file writes it.
impl std::fmt::Display for OutputState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        self.0
            .iter()
            .try_for_each(|&on| f.write_char(if on { '1' } else { '0' }))
    }
}

/// As its [`Display`](std::fmt::Display) string.
impl Serialize for OutputState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// From a string of `0`/`1`, refusing any other character.
impl<'de> Deserialize<'de> for OutputState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<OutputState, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_states_read_once_and_write_back_as_read() {
        let state: OutputState = "0110".parse().unwrap();
        assert_eq!(state.outputs(), [false, true, true, false]);
        assert_eq!(state.active().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(state.to_bytes(), [0, 1, 1, 0]);
        assert_eq!(state.to_string(), "0110");
        assert_eq!(serde_json::to_string(&state).unwrap(), "\"0110\"");
        let back: OutputState = serde_json::from_str("\"0110\"").unwrap();
        assert_eq!(back, state);
        assert!("".parse::<OutputState>().unwrap().is_empty());
        assert_eq!(
            "01x".parse::<OutputState>(),
            Err(OutputStateError {
                found: 'x',
                neuron: 2
            })
        );
    }
}
