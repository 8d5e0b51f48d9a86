//! Network parameters from Python keyword arguments: a preset name and overrides of its
//! fields, the same knobs as the command line's `--variant`, `--c`, ... `--max-attempts`
//! (each checked by the library, with its messages).

use knightnet::error::InputError;
use knightnet::network::{NetworkParams, Preset};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;

/// The keyword arguments that override a preset's field.
pub const NAMES: [&str; 10] = [
    "c",
    "s",
    "upper",
    "lower",
    "order",
    "init",
    "clamp",
    "stop",
    "max_iterations",
    "max_attempts",
];

/// A preset name and the overrides given as keyword arguments.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub preset: Option<String>,
    fields: Vec<(&'static str, Field)>,
}

#[derive(Debug, Clone)]
enum Field {
    Int(i64),
    Name(String),
}

impl Overrides {
    /// Read `preset` and the override keywords; any other keyword is refused, naming
    /// those accepted.
    pub fn from_kwargs(
        preset: Option<String>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Overrides> {
        let mut o = Overrides {
            preset,
            fields: Vec::new(),
        };
        let Some(kwargs) = kwargs else {
            return Ok(o);
        };
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            let Some(&name) = NAMES.iter().find(|n| **n == key) else {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "unexpected keyword argument '{key}'; the network parameters are preset, {}",
                    NAMES.join(", ")
                )));
            };
            if value.is_none() {
                continue;
            }
            let field = match value.extract::<i64>() {
                Ok(v) if !value.is_instance_of::<pyo3::types::PyBool>() => Field::Int(v),
                _ => match value.extract::<String>() {
                    Ok(s) => Field::Name(s),
                    Err(_) => {
                        return Err(errors::input(InputError::param(format!(
                            "{name} = {value} is not accepted; give a whole number or a name"
                        ))))
                    }
                },
            };
            o.fields.push((name, field));
        }
        Ok(o)
    }

    /// Whether a preset or any override was given.
    pub fn any(&self) -> bool {
        self.preset.is_some() || !self.fields.is_empty()
    }

    /// Apply the preset (else keep `base`) and the overrides, then check the result.
    pub fn apply(&self, base: NetworkParams) -> Result<NetworkParams, InputError> {
        let mut p = match &self.preset {
            Some(v) => v.parse::<Preset>()?.params(),
            None => base,
        };
        for (name, field) in &self.fields {
            let int = |min: i64, max: i64| match field {
                Field::Int(v) if (min..=max).contains(v) => Ok(*v),
                Field::Int(v) => Err(InputError::param(format!(
                    "{name} = {v} is out of range; give {min} to {max}"
                ))),
                Field::Name(s) => Err(InputError::param(format!(
                    "{name} = '{s}' is not a whole number"
                ))),
            };
            let text = || match field {
                Field::Name(s) => Ok(s.as_str()),
                Field::Int(v) => Err(InputError::param(format!(
                    "{name} = {v} is not accepted; give a name"
                ))),
            };
            let i32s = || int(i32::MIN.into(), i32::MAX.into()).map(|v| v as i32);
            let u32s = || int(0, u32::MAX.into()).map(|v| v as u32);
            match *name {
                "c" => p.c = i32s()?,
                "s" => p.s = i32s()?,
                "upper" => p.upper = i32s()?,
                "lower" => p.lower = i32s()?,
                "order" => p.order = text()?.parse()?,
                "init" => p.init = text()?.parse()?,
                "stop" => p.stop = text()?.parse()?,
                "clamp" => {
                    p.clamp = match field {
                        Field::Name(s) if s.trim() == "none" => None,
                        Field::Name(s) => {
                            return Err(InputError::param(format!(
                                "clamp '{s}' is malformed; give a positive whole number or 'none'"
                            )))
                        }
                        Field::Int(_) => Some(i32s()?),
                    }
                }
                "max_iterations" => p.max_iterations = u32s()?,
                "max_attempts" => p.max_attempts = u32s()?,
                _ => unreachable!("names come from NAMES"),
            }
        }
        p.check()?;
        Ok(p)
    }
}

/// The parameters as a dict (field names as in `run.json` and `solve --trace`).
pub fn to_dict<'py>(py: Python<'py>, p: &NetworkParams) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(p).map_err(|e| errors::any(e.into()))?;
    crate::json::to_py(py, &value)
}
