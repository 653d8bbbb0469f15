//! A deserializer wrapper that refuses a JSON array where a struct belongs.
//!
//! serde's derived `Deserialize` accepts a struct in its sequence form (`["b-1", "test-user",
//! ...]` for a belief), and serde_json hands any array to it, so a belief or a whole case written
//! as an array would load with its fields taken by position. No crate offers "maps only" for
//! derived structs, and no serde attribute switches it off, so this wraps the deserializer:
//! every `deserialize_struct` gets a visitor that refuses `visit_seq`, and every nested value
//! is deserialized through the wrapper again (seeds, sequence elements, map values, options,
//! newtypes). Enum payloads are not wrapped: the input formats have only unit variants.
//!
//! It sits under `serde_path_to_error`, so the error carries the JSON path.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// `D`, refusing arrays for structs at any depth.
pub(crate) struct Strict<D>(pub D);

struct StrictVisitor<V> {
    inner: V,
    is_struct: bool,
}

struct StrictSeed<S>(S);
struct StrictSeq<A>(A);
struct StrictMap<A>(A);

fn visitor<V>(inner: V) -> StrictVisitor<V> {
    StrictVisitor {
        inner,
        is_struct: false,
    }
}

macro_rules! forward_plain {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
            self.0.$method(visitor(v))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward_plain! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, visitor(v))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, visitor(v))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, visitor(v))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor(v))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        let strict = StrictVisitor {
            inner: v,
            is_struct: true,
        };
        self.0.deserialize_struct(name, fields, strict)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor(v))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty))*) => {$(
        fn $method<E: de::Error>(self, value: $ty) -> Result<V::Value, E> {
            self.inner.$method(value)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for StrictVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char) visit_str(&str)
        visit_borrowed_str(&'de str) visit_string(String) visit_bytes(&[u8])
        visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(Strict(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(Strict(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.is_struct {
            return Err(de::Error::invalid_type(
                de::Unexpected::Seq,
                &ExpectingObject(&self.inner),
            ));
        }
        self.inner.visit_seq(StrictSeq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(StrictMap(map))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(data)
    }
}

/// "a JSON object (struct Belief)": what the refused array should have been.
struct ExpectingObject<'a, V>(&'a V);

impl<'de, V: Visitor<'de>> de::Expected for ExpectingObject<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object (")?;
        self.0.expecting(f)?;
        f.write_str(")")
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StrictMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::Strict;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Inner {
        a: u32,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        name: String,
        inner: Option<Inner>,
        list: Vec<Inner>,
        pairs: Vec<(String, String)>,
    }

    fn strict(text: &str) -> Result<Outer, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(Strict(&mut de))
            .map_err(|e| format!("{} at {}", e.inner(), e.path()))
    }

    #[test]
    fn objects_load_and_arrays_for_structs_are_refused_at_any_depth() {
        let good = r#"{"name":"x","inner":{"a":1},"list":[{"a":2}],"pairs":[["p","q"]]}"#;
        assert_eq!(
            strict(good).unwrap(),
            Outer {
                name: "x".into(),
                inner: Some(Inner { a: 1 }),
                list: vec![Inner { a: 2 }],
                pairs: vec![("p".into(), "q".into())],
            }
        );
        // serde alone takes all of these by position.
        for (text, at) in [
            (r#"["x", null, [], []]"#, "."),
            (r#"{"name":"x","inner":[1],"list":[],"pairs":[]}"#, "inner"),
            (
                r#"{"name":"x","inner":null,"list":[{"a":1},[2]],"pairs":[]}"#,
                "list[1]",
            ),
        ] {
            assert!(serde_json::from_str::<Outer>(text).is_ok(), "{text}");
            let error = strict(text).unwrap_err();
            assert!(
                error.contains("invalid type: sequence, expected a JSON object (struct ")
                    && error.ends_with(&format!(" at {at}")),
                "{text}: {error}"
            );
        }
    }
}
