//! The composer's props as the page carries them (`data-props` of `#composer-props`,
//! read by the island when it wakes): a JSON list of lists of strings, each list a tag
//! and its values, so that the browser reads them with one small decoder instead of
//! serde's code for each type of the vocabulary and of a plan.
//!
//! ```text
//! ["l", locale]  ["t", today]  ["q", draft]          always, once each
//! ["i", conversation id]  ["p", previous plan's JSON]  ["$", currency]   when there is one
//! ["v", site, visitor's token]                                           on a widget's page
//! ["r", run, its question]                                  an answer still being written
//! ["c" | "m" | "a", key, French name, English name, alias…]    a category, merchant, account
//!     (the tag is "c=expense" when the term has a kind: "=" and the kind)
//! ["d", dataset, column, type, column, type…]
//! ```
//!
//! The previous plan goes as its own JSON, read by [`ToolCallPlan::from_json`], the
//! reader of the plans the stream brings.

use agent::datasets::{ColumnType, DatasetColumn, DatasetShape};
use agent::json::{list, string, Json};
use agent::{Currency, Date, Locale, Term, ToolCallPlan, Vocabulary};
use serde::{Deserialize, Deserializer};

use super::composer::ComposerData;
use crate::live::VisitorPass;

/// The lists of `data`, in the order above.
fn encode(data: &ComposerData) -> Vec<Vec<String>> {
    let mut lists = vec![
        vec!["l".to_string(), data.locale.as_str().to_string()],
        vec!["t".to_string(), data.today.to_string()],
        vec!["q".to_string(), data.draft.clone()],
    ];
    if let Some(id) = &data.conversation_id {
        lists.push(vec!["i".to_string(), id.clone()]);
    }
    if let Some(plan) = &data.previous {
        lists.push(vec!["p".to_string(), serde_json::to_string(plan).unwrap_or_default()]);
    }
    if let Some(v) = &data.visitor {
        lists.push(vec!["v".to_string(), v.site.clone(), v.token.clone()]);
    }
    if let Some((run, question)) = &data.live {
        lists.push(vec!["r".to_string(), run.clone(), question.clone()]);
    }
    let vocabulary = &data.vocabulary;
    if let Some(currency) = vocabulary.currency {
        lists.push(vec!["$".to_string(), currency.as_str().to_string()]);
    }
    let terms = [("c", &vocabulary.categories), ("m", &vocabulary.merchants), ("a", &vocabulary.accounts)];
    for (tag, terms) in terms {
        for term in terms {
            let tag = match &term.kind {
                Some(kind) => format!("{tag}={kind}"),
                None => tag.to_string(),
            };
            let mut list = vec![tag, term.key.clone(), term.name_fr.clone(), term.name_en.clone()];
            list.extend(term.aliases.iter().cloned());
            lists.push(list);
        }
    }
    for dataset in &vocabulary.datasets {
        let mut list = vec!["d".to_string(), dataset.name.clone()];
        for column in &dataset.columns {
            list.push(column.name.clone());
            list.push(column.kind.as_str().to_string());
        }
        lists.push(list);
    }
    lists
}

/// `data` from its lists; what is wrong in them, if anything.
fn decode(lists: Vec<Vec<String>>) -> Result<ComposerData, &'static str> {
    let (mut locale, mut today, mut draft) = (None, None, None);
    let (mut conversation_id, mut previous, mut visitor, mut live) = (None, None, None, None);
    let mut vocabulary = Vocabulary::default();
    for list in lists {
        let mut values = list.into_iter();
        let tag = values.next().unwrap_or_default();
        let (tag, kind) = match tag.split_once('=') {
            Some((tag, kind)) => (tag.to_string(), Some(kind.to_string())),
            None => (tag, None),
        };
        let mut values = values.map(Some).chain(std::iter::repeat(None));
        let mut next = || values.next().flatten().ok_or("a value missing");
        match tag.as_str() {
            "l" => {
                locale = Some(match next()?.as_str() {
                    "fr" => Locale::Fr,
                    "en" => Locale::En,
                    _ => return Err("unknown locale"),
                })
            }
            "t" => today = Some(Date::parse_iso(&next()?).ok_or("invalid date")?),
            "q" => draft = Some(next()?),
            "i" => conversation_id = Some(next()?),
            "v" => visitor = Some(VisitorPass { site: next()?, token: next()? }),
            "r" => live = Some((next()?, next()?)),
            "p" => previous = Some(ToolCallPlan::from_json(&next()?).map_err(|_| "invalid previous plan")?),
            "$" => vocabulary.currency = Some(Currency::new(&next()?).ok_or("invalid currency")?),
            "c" | "m" | "a" => {
                let term = Term {
                    key: next()?,
                    name_fr: next()?,
                    name_en: next()?,
                    aliases: std::iter::from_fn(|| next().ok()).collect(),
                    kind,
                };
                match tag.as_str() {
                    "c" => vocabulary.categories.push(term),
                    "m" => vocabulary.merchants.push(term),
                    _ => vocabulary.accounts.push(term),
                }
            }
            "d" => {
                let name = next()?;
                let mut columns = Vec::new();
                while let Ok(column) = next() {
                    let kind = match next()?.as_str() {
                        "integer" => ColumnType::Integer,
                        "number" => ColumnType::Number,
                        "date" => ColumnType::Date,
                        "text" => ColumnType::Text,
                        _ => return Err("unknown column type"),
                    };
                    columns.push(DatasetColumn { name: column, kind });
                }
                vocabulary.datasets.push(DatasetShape { name, columns });
            }
            _ => return Err("unknown list"),
        }
    }
    Ok(ComposerData {
        locale: locale.ok_or("no locale")?,
        today: today.ok_or("no date")?,
        vocabulary,
        conversation_id,
        previous,
        draft: draft.ok_or("no draft")?,
        visitor,
        live,
    })
}

impl serde::Serialize for ComposerData {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        encode(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ComposerData {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read as the bundle's one JSON tree, then as lists of strings.
        let json = Json::deserialize(deserializer)?;
        let lists = list(&json, |l| list(l, string)).map_err(serde::de::Error::custom)?;
        decode(lists).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use agent::{Context, ParseOutcome, Parser};

    fn term(key: &str, aliases: &[&str], kind: Option<&str>) -> Term {
        Term {
            key: key.into(),
            name_fr: format!("{key} \"fr\" = <é>"),
            name_en: format!("{key}, en\n"),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            kind: kind.map(str::to_string),
        }
    }

    fn round_trip(data: &ComposerData) {
        let json = serde_json::to_string(data).unwrap();
        let back: ComposerData = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, data, "{json}");
    }

    /// The props the page writes read back as they were: every field, every term,
    /// kinds (even empty, or with "="), aliases (or none), datasets, the previous plan.
    #[test]
    fn composer_props_read_back_whole() {
        let vocabulary = Vocabulary {
            categories: vec![
                term("groceries", &["courses", "bouffe"], Some("expense")),
                term("salary", &[], Some("income")),
                term("odd", &[""], Some("")),
            ],
            merchants: vec![term("carrefour", &[], None), term("a=b", &["x=y", "="], Some("k=v"))],
            accounts: vec![term("livret_a", &["livret"], Some("savings"))],
            currency: Some(Currency::EUR),
            datasets: vec![
                DatasetShape::from_outline("ventes: region text, montant number, mois date, n integer")
                    .unwrap(),
                DatasetShape { name: "vide".into(), columns: vec![] },
            ],
        };
        let parser = Parser::new(vocabulary.clone());
        let today = Date::new(2026, 3, 14).unwrap();
        let cx = Context { today, locale: Some(Locale::Fr), previous: None };
        let ParseOutcome::Plan(plan) = parser.parse("combien en courses en janvier 2026 ?", &cx) else {
            panic!("no plan")
        };
        let data = ComposerData {
            locale: Locale::Fr,
            today,
            vocabulary,
            conversation_id: Some("c1".into()),
            previous: Some(plan),
            draft: "combien \"en\" courses".into(),
            visitor: None,
            live: Some(("0123456789abcdef0123456789abcdef".into(), "et en \"mars\" ?".into())),
        };
        round_trip(&data);
        round_trip(&ComposerData {
            locale: Locale::En,
            today,
            vocabulary: Vocabulary::default(),
            conversation_id: None,
            previous: None,
            draft: String::new(),
            visitor: Some(VisitorPass { site: "AAAAAAAAAAAAAAAAAAAAAA".into(), token: "t-_0".into() }),
            live: None,
        });
    }

    #[test]
    fn broken_props_are_refused() {
        for json in [
            r#"[["t","2026-03-14"],["q",""]]"#,
            r#"[["l","de"],["t","2026-03-14"],["q",""]]"#,
            r#"[["l","fr"],["t","2026-13-14"],["q",""]]"#,
            r#"[["l","fr"],["t","2026-03-14"],["q",""],["c","k","fr"]]"#,
            r#"[["l","fr"],["t","2026-03-14"],["q",""],["d","v","col"]]"#,
            r#"[["l","fr"],["t","2026-03-14"],["q",""],["d","v","col","float"]]"#,
            r#"[["l","fr"],["t","2026-03-14"],["q",""],["p","{}"]]"#,
            r#"[["l","fr"],["t","2026-03-14"],["q",""],["z"]]"#,
            r#"[["l","fr"],["t","2026-03-14"],["q",""],["v","site"]]"#,
            r#"[["l","fr"],["t","2026-03-14"],["q",""],[]]"#,
        ] {
            assert!(serde_json::from_str::<ComposerData>(json).is_err(), "{json}");
        }
    }
}
