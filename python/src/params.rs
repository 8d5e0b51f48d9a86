//! Network parameters from Python keyword arguments: a preset name and overrides of its
//! fields, read into the library's [`Overrides`] (the one wiring of these knobs, which
//! `knightnet solve` fills from `--variant`, `--c`, ... `--max-attempts`); each value is
//! checked by the library, with its messages.

use knightnet::error::InputError;
use knightnet::network::{NetworkParams, OverrideValue, Overrides, Preset};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;

/// Read `preset` and the override keywords (the library's [`Overrides::KEYS`]); any
/// other keyword is refused, naming those accepted.
pub fn from_kwargs(
    preset: Option<String>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Overrides> {
    let mut o = Overrides {
        preset: preset
            .map(|p| p.parse::<Preset>())
            .transpose()
            .map_err(errors::input)?,
        ..Overrides::default()
    };
    let Some(kwargs) = kwargs else {
        return Ok(o);
    };
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        if !Overrides::KEYS.contains(&key.as_str()) {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "unexpected keyword argument '{key}'; the network parameters are preset, {}",
                Overrides::KEYS.join(", ")
            )));
        }
        if value.is_none() {
            continue;
        }
        let text;
        let given = match value.extract::<i64>() {
            Ok(v) if !value.is_instance_of::<pyo3::types::PyBool>() => OverrideValue::Int(v),
            _ => match value.extract::<String>() {
                Ok(s) => {
                    text = s;
                    OverrideValue::Name(&text)
                }
                Err(_) => {
                    return Err(errors::input(InputError::param(format!(
                        "{key} = {value} is not accepted; give a whole number or a name"
                    ))));
                }
            },
        };
        o.set(&key, given).map_err(errors::input)?;
    }
    Ok(o)
}

/// The parameters as a dict (field names as in `run.json` and `solve --trace`).
pub fn to_dict<'py>(py: Python<'py>, p: &NetworkParams) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(p).map_err(errors::internal)?;
    crate::json::to_py(py, &value)
}
