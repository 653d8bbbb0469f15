//! A JSON value whose objects hold each key once.
//!
//! A benchmark's file is read as a JSON tree before its shape is checked, and serde_json's
//! `Value` keeps the last of a repeated key: a second, empty `"qa"` in one of LoCoMo's
//! conversations removed its 197 questions, and a second `"session_1"` replaced a session's
//! turns, in silence (a seventeenth audit). A derived struct refuses a repeated field already;
//! a tree is what needs this. serde_json has no option for it, so the tree is built here,
//! refusing a key its object holds already; read through [`super::parse_json`], the refusal
//! names the JSON path, the line and the column.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// A JSON value, every object of which held each key once.
pub(crate) struct Unique(pub Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Unique, D::Error> {
        deserializer.deserialize_any(UniqueVisitor).map(Unique)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Unique::deserialize(d).map(|u| u.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key {key:?} a second time in one object; expected each key once (a \
                     JSON reader keeps only the last)"
                )));
            }
            let Unique(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_refused_at_any_depth_and_values_are_kept_as_read() {
        let parse = |text: &str| serde_json::from_str::<Unique>(text).map(|u| u.0);
        let text = r#"{"a": [1, -2, 2.5, "x", null, true, {"b": {}}], "c": {"d": 1}}"#;
        assert_eq!(
            parse(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        for repeated in [r#"{"a": 1, "a": 2}"#, r#"[{"b": {"c": 1, "c": 1}}]"#] {
            let e = parse(repeated).unwrap_err().to_string();
            assert!(e.contains("a second time in one object"), "{e}");
        }
    }
}
