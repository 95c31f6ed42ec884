//! How the names of a question stand to each other and to the rest: said to be what
//! something is ("c'est des loisirs"), joined as two asks ("on uber, and on the metro"),
//! apart in two clauses, and left out ("hors Picard", "excluding rent").

use super::entities::EntityMatch;
use super::Parser;
use crate::amount::AmountFilter;
use crate::locale::Locale;
use crate::money::Currency;
use crate::reason::{Reason, ReasonCode};
use crate::text::{Token, TokenKind};
use crate::tool::ToolCall;
use crate::vocab::EntityKind;

/// "c'est des loisirs", "sont en courses", "were groceries": a category named as what
/// something is, quoted.
pub(super) fn said_to_be(p: &Parser, tokens: &[crate::text::Token], message: &str) -> Option<String> {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let free = vec![false; tokens.len()];
    (0..tokens.len()).find_map(|i| {
        let after = match (w(i), w(i + 1)) {
            ("c", "est" | "etait" | "etaient") => i + 2,
            ("sont" | "etaient" | "were" | "are", _) => i + 1,
            _ => return None,
        };
        let mut k = after;
        while matches!(
            w(k),
            "des" | "du" | "de" | "la" | "le" | "les" | "l" | "en" | "of" | "the" | "a" | "all"
        ) {
            k += 1;
        }
        let (m, n) = p.finder().match_at(tokens, &free, k, message)?;
        m.ids.iter().all(|id| id.kind == EntityKind::Category).then(|| {
            let end = tokens.get(k + n - 1).map_or(message.len(), |t| t.end);
            format!("« {} »", message.get(tokens[i].start..end).unwrap_or_default())
        })
    })
}

/// What may follow a pronoun that stands alone: a period's first word, a joining word.
const BEFORE_A_PERIOD: &[&str] = &[
    "last",
    "in",
    "en",
    "le",
    "la",
    "les",
    "l",
    "ce",
    "cette",
    "cet",
    "depuis",
    "since",
    "during",
    "pendant",
    "over",
    "the",
    "this",
    "so",
    "and",
    "et",
    "today",
    "yesterday",
    "hier",
    "aujourd",
    "au",
    "du",
    "de",
    "from",
];

/// "how much did I spend on it last month", "combien pour ça en octobre": money spent on
/// something a pronoun stands for, which a message alone does not name — quoted, asked.
/// ("for this month", "on that Amazon order": the word is a determiner, not a pronoun.)
pub(super) fn pronoun_object(tokens: &[crate::text::Token], message: &str) -> Option<String> {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    (1..tokens.len()).find_map(|i| {
        let before = matches!(w(i - 1), "on" | "for" | "pour" | "towards");
        let pronoun =
            matches!(w(i), "it" | "that" | "this" | "them" | "those" | "these" | "ca" | "cela" | "ceci");
        let next = w(i + 1);
        let alone = next.is_empty()
            || message.get(tokens[i].end..).is_some_and(|r| r.trim_start().starts_with(['?', ',', '.', '!']))
            || (BEFORE_A_PERIOD.contains(&next) && !crate::period::is_time_word(&tokens[i + 1]));
        (before && pronoun && alone)
            .then(|| format!("« {} »", message.get(tokens[i - 1].start..tokens[i].end).unwrap_or_default()))
    })
}

/// Whether the names `a` and `b` stand on either side of a joining word ("and",
/// "et", "plus", "+", "&") in `message`.
pub(super) fn joined(message: &str, a: &str, b: &str) -> bool {
    let whole = crate::text::normalize(message);
    let Some(said) = between(&whole, &crate::text::normalize(a), &crate::text::normalize(b)) else {
        return false;
    };
    said.split_whitespace().any(|w| matches!(w, "and" | "et" | "plus" | "also" | "aussi"))
        || signed(message, a, b)
}

/// Whether "+" or "&" stands between the names `a` and `b` as `message` says them
/// (normalising drops both).
pub(super) fn signed(message: &str, a: &str, b: &str) -> bool {
    between(message, a, b).unwrap_or(message).contains(['+', '&'])
}

/// What `message` says between the names `a` and `b`, whichever comes first.
pub(super) fn between<'m>(message: &'m str, a: &str, b: &str) -> Option<&'m str> {
    let (x, y) = (message.find(a)?, message.find(b)?);
    let (from, to) = if x < y { (x + a.len(), y) } else { (y + b.len(), x) };
    message.get(from..to)
}

/// Whether names `a` and `b` are in different clauses, the second not brought in as a
/// restriction ("…, only the trips", "…, en restos", "…, at Lidl").
pub(super) fn apart(message: &str, a: &str, b: &str) -> bool {
    let Some(between) = between(message, a, b) else { return false };
    const BREAKS: [char; 5] = [',', '.', '?', '!', ';'];
    if !between.contains(BREAKS) {
        return false;
    }
    let lead = crate::text::normalize(between.rsplit(BREAKS).next().unwrap_or(""));
    !lead.split_whitespace().take(2).any(|w| {
        matches!(
            w,
            "only"
                | "just"
                | "on"
                | "for"
                | "at"
                | "in"
                | "from"
                | "with"
                | "en"
                | "pour"
                | "chez"
                | "dans"
                | "que"
                | "seulement"
                | "uniquement"
                | "juste"
                | "avec"
                | "de"
                | "des"
                | "du"
                | "d"
                | "au"
                | "aux"
                | "a"
        )
    })
}

/// Whether `call` filters on this kind of name.
pub(super) fn call_has(call: &ToolCall, kind: EntityKind) -> bool {
    match kind {
        EntityKind::Category => call.category().is_some(),
        EntityKind::Merchant => call.merchant().is_some(),
        EntityKind::Account => call.account().is_some(),
    }
}

impl Parser {
    /// The category and the merchant a message leaves out ("hors Picard", "excluding
    /// rent"), with the reason saying so. An account, or a second name of one kind,
    /// cannot be left out: it stops the run.
    pub(super) fn exclusions(
        &self,
        excluded: &[EntityMatch],
        locale: crate::locale::Locale,
        reasons: &mut Vec<Reason>,
    ) -> (Option<String>, Option<String>) {
        let (mut category, mut merchant) = (None, None);
        let mut named = Vec::new();
        for m in excluded {
            let term = m.ids.first().and_then(|id| self.vocab.term(*id).map(|t| (id.kind, t)));
            let slot = match term {
                Some((EntityKind::Category, _)) if m.ids.len() == 1 => &mut category,
                Some((EntityKind::Merchant, _)) if m.ids.len() == 1 => &mut merchant,
                _ => {
                    reasons.push(Reason::new(
                        ReasonCode::UnplacedMeaning,
                        locale,
                        &format!("« {} »", m.words),
                    ));
                    continue;
                }
            };
            if slot.is_some() {
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &format!("« {} »", m.words)));
                continue;
            }
            if let Some((_, t)) = term {
                *slot = Some(t.key.clone());
                named.push(t.label(locale).to_string());
            }
        }
        if !named.is_empty() {
            reasons.push(Reason::new(ReasonCode::Excluded, locale, &named.join(", ")));
        }
        (category, merchant)
    }
}

/// What is left out but other accounts than the one asked about (`kept`), which are apart
/// from it already ("on the current account, not the Livret A").
pub(super) fn but_other_accounts(
    p: &Parser,
    excluded: Vec<EntityMatch>,
    kept: Option<&str>,
) -> Vec<EntityMatch> {
    let Some(kept) = kept else { return excluded };
    let other_account = |m: &EntityMatch| {
        m.ids.len() == 1
            && m.ids
                .iter()
                .all(|id| id.kind == EntityKind::Account && p.vocab.term(*id).is_some_and(|t| t.key != kept))
    };
    excluded.into_iter().filter(|m| !other_account(m)).collect()
}

/// "how much did I spend in dollars": figures in another currency than the ledger's are
/// not what Sou computes — a reason saying so for each such word outside an amount ("$"
/// alone is slang for money; "livres" are books as often as pounds).
pub(super) fn other_currency(
    tokens: &[Token],
    message: &str,
    amounts: Option<&AmountFilter>,
    ledger: Currency,
    locale: Locale,
) -> Vec<Reason> {
    let in_amount = |k: usize| amounts.is_some_and(|a| (a.first..=a.last).contains(&k));
    tokens
        .iter()
        .enumerate()
        .filter(|(k, t)| {
            t.kind == TokenKind::Word
                && !matches!(t.norm.as_str(), "livre" | "livres")
                && crate::amount::currency_word(&t.norm).is_some_and(|c| c != ledger)
                && !in_amount(*k)
        })
        .map(|(_, t)| {
            let said = message.get(t.start..t.end).unwrap_or_default();
            Reason::new(ReasonCode::UnplacedMeaning, locale, &format!("« {said} »"))
        })
        .collect()
}

/// "solde compte + livret": an account said by its kind alone, joined to one named —
/// which account is that? A reason saying so.
pub(super) fn account_by_kind(
    tokens: &[Token],
    message: &str,
    accounts: &[EntityMatch],
    locale: Locale,
) -> Option<Reason> {
    let [named] = accounts else { return None };
    let own = crate::text::normalize(&named.words);
    let generic = tokens.iter().find(|t| {
        matches!(t.norm.as_str(), "compte" | "account" | "cpte" | "cpt")
            && !own.split(' ').any(|w| w == t.norm)
    })?;
    let said = message.get(generic.start..generic.end).unwrap_or_default();
    joined(message, said, &named.words).then(|| {
        Reason::new(ReasonCode::UnplacedMeaning, locale, &format!("« {said} », « {} »", named.words))
    })
}
