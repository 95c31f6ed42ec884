//! A JSON value read into a small tree, and its fields read by hand: for the browser,
//! where serde's derived code for each type read weighs on the bundle (see
//! [`crate::plan::ToolCallPlan::from_json`]). One tree type, one set of readers, for every
//! JSON the browser reads.

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};

/// What a reader gives.
pub type R<T> = Result<T, serde_json::Error>;

/// An error that says `what`.
pub fn fail<T>(what: &'static str) -> R<T> {
    Err(de::Error::custom(what))
}

/// A JSON value, numbers as plans use them (whole numbers).
pub enum Json {
    Null,
    Bool(bool),
    Unsigned(u64),
    Negative(i64),
    Float,
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        struct JsonVisitor;
        impl<'de> Visitor<'de> for JsonVisitor {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
                Ok(Json::Bool(v))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Unsigned(n))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Negative(n))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
                Ok(Json::Float)
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::Str(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Json, E> {
                Ok(Json::Str(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Json::Object(entries))
            }
        }
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// An object's fields.
pub struct Fields<'a>(&'a [(String, Json)]);

impl<'a> Fields<'a> {
    /// The fields of `json`, an object; with `only`, none but those (`deny_unknown_fields`).
    pub fn of(json: &'a Json, only: Option<&[&str]>) -> R<Fields<'a>> {
        let Json::Object(entries) = json else { return fail("expected an object") };
        for (i, (key, _)) in entries.iter().enumerate() {
            if entries[..i].iter().any(|(k, _)| k == key) {
                return fail("duplicate field");
            }
            if only.is_some_and(|only| !only.contains(&key.as_str())) {
                return fail("unknown field");
            }
        }
        Ok(Fields(entries))
    }

    pub fn get(&self, key: &str) -> Option<&'a Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A field that must be there.
    pub fn req<T>(&self, key: &str, read: fn(&Json) -> R<T>) -> R<T> {
        match self.get(key) {
            Some(value) => read(value),
            None => fail("missing field"),
        }
    }

    /// An `Option` field: absent or `null` is `None`.
    pub fn opt<T>(&self, key: &str, read: fn(&Json) -> R<T>) -> R<Option<T>> {
        match self.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(value) => read(value).map(Some),
        }
    }

    /// A `#[serde(default)]` field.
    pub fn or<T>(&self, key: &str, read: fn(&Json) -> R<T>, default: fn() -> T) -> R<T> {
        match self.get(key) {
            None => Ok(default()),
            Some(value) => read(value),
        }
    }
}

/// A string.
pub fn string(json: &Json) -> R<String> {
    match json {
        Json::Str(s) => Ok(s.clone()),
        _ => fail("expected a string"),
    }
}

/// A whole number that fits a `u32`.
pub fn u32_(json: &Json) -> R<u32> {
    match json {
        Json::Unsigned(n) => u32::try_from(*n).map_or_else(|_| fail("invalid number"), Ok),
        _ => fail("expected a number"),
    }
}

/// A whole number that fits an `i64`.
pub fn i64_(json: &Json) -> R<i64> {
    match json {
        Json::Unsigned(n) => i64::try_from(*n).map_or_else(|_| fail("invalid number"), Ok),
        Json::Negative(n) => Ok(*n),
        _ => fail("expected a number"),
    }
}

pub fn bool_(json: &Json) -> R<bool> {
    match json {
        Json::Bool(b) => Ok(*b),
        _ => fail("expected a boolean"),
    }
}

/// A unit variant of an enum, by its derived `Deserialize` from its name.
pub fn unit<T: DeserializeOwned>(json: &Json) -> R<T> {
    match json {
        Json::Str(s) => T::deserialize(de::value::StrDeserializer::<serde_json::Error>::new(s)),
        _ => fail("expected a string"),
    }
}

/// A list, each item read by `read`.
pub fn list<T>(json: &Json, read: fn(&Json) -> R<T>) -> R<Vec<T>> {
    match json {
        Json::Array(items) => items.iter().map(read).collect(),
        _ => fail("expected a list"),
    }
}
