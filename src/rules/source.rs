//! `Source`: where a table, modifier or default comes from: a seed section, or `house`.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

/// Where a rule value comes from. Every table, modifier and default names one,
/// and every explanation shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Source {
    /// A value the seeds do not give: a house default.
    House,
    /// A value from a seed text.
    Seed(SeedRef),
}

/// A place in a seed text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeedRef {
    /// The seed file's number: "000", "003", "004".
    pub seed: String,
    /// The section or table heading as the seed prints it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Line numbers in the seed, e.g. "L273-284".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
    /// The RULES-INVENTORY id, e.g. "FF-TAB-MUSKETRY".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inventory: Option<String>,
}

impl Source {
    /// Whether the value is a house default rather than from a seed.
    pub fn is_house(&self) -> bool {
        matches!(self, Source::House)
    }
}

impl fmt::Display for Source {
    /// `house`, or `seed 004, MUSKETRY AND CANNONADE TABLE (FF-TAB-MUSKETRY)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::House => f.write_str("house"),
            Source::Seed(s) => {
                write!(f, "seed {}", s.seed)?;
                if let Some(section) = &s.section {
                    write!(f, ", {section}")?;
                }
                if let Some(lines) = &s.lines {
                    write!(f, " {lines}")?;
                }
                if let Some(inventory) = &s.inventory {
                    write!(f, " ({inventory})")?;
                }
                Ok(())
            }
        }
    }
}

impl<'de> Deserialize<'de> for Source {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SourceVisitor;

        impl<'de> Visitor<'de> for SourceVisitor {
            type Value = Source;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`house` or a seed reference such as `{ seed: \"004\", section: \"...\" }`")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Source, E> {
                if v == "house" {
                    Ok(Source::House)
                } else {
                    Err(E::custom(format!("a source is `house` or `{{ seed: \"004\", section: \"...\" }}`, not `{v}`")))
                }
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Source, A::Error> {
                SeedRef::deserialize(de::value::MapAccessDeserializer::new(map)).map(Source::Seed)
            }
        }

        deserializer.deserialize_any(SourceVisitor)
    }
}

impl JsonSchema for Source {
    fn schema_name() -> Cow<'static, str> {
        "Source".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let seed = generator.subschema_for::<SeedRef>();
        json_schema!({
            "description": "Where the value comes from: `house` for a house default, or a seed reference.",
            "oneOf": [{ "const": "house" }, seed]
        })
    }
}
