//! An upload's preview: the detected (or edited) layout, the first rows with the
//! merchant and category they will get, the rejected lines, the rows already in the
//! account, and the accounts it may go into.

use super::*;

impl Imports {
    /// An upload's preview with `mapping` (CSV; else the detected layout) into
    /// `account` (a key; else a new account), or its progress, or its report.
    pub async fn view(
        &self,
        user: UserId,
        id: &str,
        layout: Layout<'_>,
        chosen: Chosen<'_>,
        locale: Locale,
    ) -> Result<ImportView, ImportError> {
        // The import's live state before the stored one: a running import is forgotten
        // only after its report is stored, so read the other way round a page could find
        // neither (no report yet, no longer running) and show the file as pending.
        let live = self.get(user, id, false).await?;
        // Only reads (the upload gave the user the default categories), so it never
        // waits for an import writing.
        let mut db = self.store.tenant_read(user).await?;
        let upload = Self::load(&mut db, user, id).await?;
        let accounts = accounts(&mut db, user, locale).await?;
        let base = |encoding, state| ImportView {
            id: id.to_string(),
            file_name: upload.file_name.clone(),
            format: upload.format,
            encoding,
            currency: None,
            mapping: None,
            columns: Vec::new(),
            mapping_error: None,
            rows: Vec::new(),
            total_rows: 0,
            duplicates: 0,
            rejected: Vec::new(),
            accounts: accounts.clone(),
            account: None,
            new_account_name: String::new(),
            parts: Vec::new(),
            asks_currency: false,
            currencies: Vec::new(),
            balances: None,
            state,
        };
        if let Some(report) = &upload.report {
            db.commit().await?;
            return Ok(base(agent::imports::Encoding::Utf8, ImportState::Done(parse_report(report)?)));
        }
        let content =
            upload.content.as_deref().ok_or(ImportError::Corrupt("an upload without content".into()))?;
        let (file, mapping_error) = read_with(upload.format, content, layout)?;
        let state = live.map_or(ImportState::Pending, |l| l.state(locale));
        let (account, parts) = (chosen.account, chosen.parts);
        let split = file.is_split();
        let chosen = account
            .filter(|_| !split)
            .and_then(|k| accounts.iter().find(|a| a.key == k))
            .map(|a| a.key.clone());
        let target = match &chosen {
            Some(key) => account_row(&mut db, user, key).await?,
            None => None,
        };
        let currency = match (&target, &file.currency) {
            (Some((_, _, c)), _) | (None, Some(c)) => c.clone(),
            (None, None) => user_currency(&mut db, user).await?,
        };
        let currency = Currency::new(&currency).ok_or_else(|| ImportError::Corrupt(currency.clone()))?;
        // Which rows the account has already: counted over the file, flagged in the preview.
        let mut already = match &target {
            Some((account_id, _, _)) => present(&mut db, user, &hashes(&file.rows, *account_id)).await?,
            None => vec![false; file.rows.len()],
        };
        // A file naming several accounts: each one's target, rows already there and
        // currency.
        let (part_views, row_currency) = match split {
            true => split_parts(&mut db, user, &file, parts, &accounts, &mut already).await?,
            false => (Vec::new(), vec![None; file.rows.len()]),
        };
        let duplicates = already.iter().filter(|&&p| p).count() as u64;
        let balances = match file.stated.as_ref().filter(|_| !split) {
            Some(stated) => {
                let account = target.as_ref().map(|t| t.0);
                Some(balance_check(&mut db, user, stated, (&file.rows, &already), account, currency).await?)
            }
            None => None,
        };
        // A file that states no currency: a new account's is asked, the user's first.
        let asks_currency = match split {
            false => file.currency.is_none() && target.is_none(),
            true => part_views.iter().any(|p| p.currency.is_none() && p.account.is_none()),
        };
        let own = user_currency(&mut db, user).await?;
        let others = CURRENCIES.iter().map(|c| c.to_string()).filter(|c| *c != own);
        let currencies: Vec<String> = std::iter::once(own.clone()).chain(others).collect();
        let context = Context::load(&mut db, user).await?;
        db.commit().await?;
        let rows = preview_rows(&file, &context, (&row_currency, currency), &already, locale);
        let columns = columns(content, file.mapping.as_ref());
        let encoding = file.encoding;
        let stem = upload.file_name.rsplit_once('.').map_or(upload.file_name.as_str(), |(s, _)| s);
        Ok(ImportView {
            currency: file.currency.clone(),
            mapping: file.mapping.clone(),
            columns,
            mapping_error,
            total_rows: file.rows.len() as u64,
            duplicates,
            rejected: file.rejected.clone(),
            account: chosen,
            new_account_name: stem.chars().take(60).collect(),
            parts: part_views,
            asks_currency,
            currencies: if asks_currency { currencies } else { Vec::new() },
            balances,
            rows,
            ..base(encoding, state)
        })
    }
}

/// The file read with `layout`: a layout the file cannot be read with is reported, and
/// the detected one used.
fn read_with(
    format: import::Format,
    content: &[u8],
    layout: Layout<'_>,
) -> Result<(import::File, Option<String>), ImportError> {
    let read = |mapping| import::read(format, content, mapping);
    Ok(match layout {
        Layout::Detected => (read(None)?, None),
        Layout::Given(mapping) => match read(Some(*mapping)) {
            Ok(file) => (file, None),
            Err(e) => (read(None)?, Some(e.to_string())),
        },
        Layout::Edited(edit) => {
            let detected = read(None)?;
            match detected.mapping.as_ref().filter(|_| !edit.is_empty()).map(|m| read(Some(edit.apply(m)))) {
                Some(Ok(file)) => (file, None),
                Some(Err(e)) => (detected, Some(e.to_string())),
                None => (detected, None),
            }
        }
    })
}

/// Each account a file names: its target, rows already there and currency; rows going
/// to one account are matched against it together, grouped as the import groups them.
/// Also each row's currency as shown.
async fn split_parts(
    db: &mut AnyConnection,
    user: UserId,
    file: &import::File,
    parts: &[String],
    accounts: &[AccountOption],
    already: &mut [bool],
) -> Result<(Vec<agent::imports::PartView>, Vec<Option<Currency>>), ImportError> {
    let mut part_views = Vec::new();
    let mut row_currency: Vec<Option<Currency>> = vec![None; file.rows.len()];
    let keys: Vec<Option<String>> = (0..file.accounts.len())
        .map(|i| parts.get(i).and_then(|k| accounts.iter().find(|a| a.key == *k)).map(|a| a.key.clone()))
        .collect();
    let split_target = Target::Split(
        keys.iter().map(|k| k.clone().map_or(Target::New(String::new()), Target::Existing)).collect(),
    );
    // The currency of each account chosen, by key.
    let mut currencies: HashMap<String, String> = HashMap::new();
    for group in super::parts(file, split_target)? {
        let Target::Existing(key) = &group.target else { continue };
        let Some((account_id, _, currency)) = account_row(db, user, key).await? else {
            continue;
        };
        let rows: Vec<Row> = group.rows.iter().map(|&j| file.rows[j].clone()).collect();
        for (&j, there) in group.rows.iter().zip(present(db, user, &hashes(&rows, account_id)).await?) {
            already[j] = there;
        }
        currencies.insert(key.clone(), currency);
    }
    for (named, key) in file.accounts.iter().zip(keys) {
        let own = file.rows_of(named);
        let stated = file.currency_of(named);
        let chosen = key.as_ref().and_then(|k| currencies.get(k).cloned());
        let shown = chosen.or_else(|| stated.clone()).and_then(|c| Currency::new(&c));
        for &j in &own {
            row_currency[j] = shown;
        }
        part_views.push(agent::imports::PartView {
            name: named.name.clone(),
            rows: own.len() as u64,
            currency: stated,
            account: key,
            duplicates: own.iter().filter(|&&j| already[j]).count() as u64,
        });
    }
    Ok((part_views, row_currency))
}

/// The first rows as the preview shows them: the merchant and category each will get,
/// in its currency, and whether the account has it already.
fn preview_rows(
    file: &import::File,
    context: &Context,
    (row_currency, currency): (&[Option<Currency>], Currency),
    already: &[bool],
    locale: Locale,
) -> Vec<PreviewRow> {
    file.rows
        .iter()
        .take(PREVIEW_ROWS)
        .enumerate()
        .map(|(i, r)| {
            let m = context.matcher.recognise(&r.label);
            let category = rules::category_for(&context.rules, &r.label, m.as_ref().map(|m| m.name.as_str()))
                .and_then(|id| context.category_names.get(&id))
                .or_else(|| {
                    m.as_ref().and_then(|m| m.category.as_ref()).and_then(|k| context.category_by_key(k))
                })
                .map(|(fr, en)| if locale == Locale::Fr { fr.clone() } else { en.clone() });
            PreviewRow {
                line: r.line,
                date: r.date,
                label: r.label.clone(),
                amount: Money::new(r.amount_minor, row_currency[i].unwrap_or(currency)),
                merchant: m.map(|m| m.name),
                category,
                duplicate: already.get(i).copied().unwrap_or(false),
            }
        })
        .collect()
}

/// The balances `stated` checked against `rows` going into `account` (`None`: a new
/// one), of which `already` are there.
async fn balance_check(
    db: &mut AnyConnection,
    user: UserId,
    stated: &import::Stated,
    (rows, already): (&[Row], &[bool]),
    account: Option<i64>,
    currency: Currency,
) -> Result<agent::imports::BalanceCheck, sqlx::Error> {
    let money = |minor| Money::new(minor, currency);
    let fresh = match account {
        Some(id) => is_fresh(&account_start(db, user, id).await?),
        None => true,
    };
    let opening = opening_of(stated, rows);
    // What the import will set: only when the rows agree with the balances.
    let settable = import::opening_to_set(stated, rows);
    let sum = |upto: agent::Date, new_only: bool| {
        rows.iter()
            .enumerate()
            .filter(|(i, r)| r.date <= upto && !(new_only && already.get(*i).copied().unwrap_or(false)))
            .fold(0i64, |s, (_, r)| s.saturating_add(r.amount_minor))
    };
    let computed = match (stated.opening, stated.closing, account) {
        // The file's own rows from its opening to its closing balance.
        (Some(_), Some((day, _)), _) => opening.map(|(_, o)| o.saturating_add(sum(day, false))),
        // Only a closing balance, into an account with a history: Sou's balance then,
        // with the rows not there yet.
        (None, Some((day, _)), Some(id)) if !fresh => {
            Some(balance_on(db, user, id, day).await?.saturating_add(sum(day, true)))
        }
        _ => None,
    };
    Ok(agent::imports::BalanceCheck {
        source: stated.source.clone(),
        opening: opening.map(|(d, m)| (d, money(m))),
        opening_stated: stated.opening.is_some(),
        closing: stated.closing.map(|(d, m)| (d, money(m))),
        computed: computed.map(money),
        breaks: stated.breaks.clone(),
        sets_opening: fresh && settable.is_some(),
    })
}

/// Which of `hashes` are already stored, in order.
pub(super) async fn present(
    db: &mut AnyConnection,
    user: UserId,
    hashes: &[String],
) -> Result<Vec<bool>, sqlx::Error> {
    let mut found = std::collections::HashSet::new();
    for chunk in hashes.chunks(500) {
        let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT dedupe_hash FROM transactions WHERE user_id = $1 AND dedupe_hash IN ({})",
            placeholders.join(", ")
        );
        let mut q = sqlx::query_scalar::<_, String>(&sql).bind(user.0);
        for h in chunk {
            q = q.bind(h);
        }
        found.extend(q.fetch_all(&mut *db).await?);
    }
    Ok(hashes.iter().map(|h| found.contains(h)).collect())
}

pub(super) async fn accounts(
    db: &mut AnyConnection,
    user: UserId,
    locale: Locale,
) -> Result<Vec<AccountOption>, sqlx::Error> {
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT key, name, COALESCE(name_en, name), currency FROM accounts WHERE user_id = $1 AND key IS NOT NULL
         ORDER BY id",
    )
    .bind(user.0)
    .fetch_all(&mut *db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(key, fr, en, currency)| AccountOption { key, name: locale.pick(fr, en), currency })
        .collect())
}

/// A name and a sample value per column of a CSV file (the first data row's).
pub(super) fn columns(content: &[u8], mapping: Option<&Mapping>) -> Vec<(String, String)> {
    let Some(mapping) = mapping else { return Vec::new() };
    let sample = import::csv::sample_row(content, mapping);
    let width = sample.len().max(mapping.header.as_ref().map_or(0, Vec::len));
    (0..width)
        .map(|i| {
            let name = mapping
                .header
                .as_ref()
                .and_then(|h| h.get(i))
                .filter(|h| !h.is_empty())
                .cloned()
                .unwrap_or_else(|| (i + 1).to_string());
            (name, sample.get(i).cloned().unwrap_or_default())
        })
        .collect()
}
