//! An import itself: the checks a user can act on, then the rows written in the
//! background in one database transaction — all or none — with its progress reported,
//! into an existing account or a new one.

use super::*;

impl Imports {
    /// Starts importing upload `id` into `target`; [`Imports::view`] shows the progress.
    /// The checks a user can act on are made before it returns; what they find is also
    /// shown by the upload's page, as a failed import.
    pub async fn start(
        &self,
        user: UserId,
        id: &str,
        mapping: Option<Mapping>,
        target: Target,
    ) -> Result<(), ImportError> {
        // The checks, then the import in the background.
        let started: Result<(), ImportError> = async move {
            if matches!(self.get(user, id, false).await?, Some(Live::Running { .. })) {
                return Err(ImportError::Running);
            }
            let mut db = self.store.tenant_read(user).await?;
            let upload = Self::load(&mut db, user, id).await?;
            db.commit().await?;
            if upload.report.is_some() {
                return Err(ImportError::AlreadyImported);
            }
            let content = upload.content.ok_or(ImportError::Corrupt("an upload without content".into()))?;
            let file = import::read(upload.format, &content, mapping)?;
            if file.rows.is_empty() {
                return Err(ImportError::NoRows);
            }
            // A layout Sou was not sure of is imported once the user has confirmed it.
            if file.mapping.as_ref().is_some_and(|m| !m.is_sure()) {
                return Err(ImportError::LayoutUnsure);
            }
            // Checked here, so that a bad name or currency is said before anything runs.
            for part in parts(&file, target.clone())? {
                if let Target::New(name) | Target::NewIn(name, _) = &part.target {
                    account_name(name)?;
                }
                if let Target::NewIn(_, currency) = &part.target {
                    if Currency::new(currency).is_none_or(|c| c.exponent() != 2) {
                        return Err(ImportError::BadCurrency(currency.clone()));
                    }
                }
            }
            self.set(user, id, Some(Live::Running { done: 0, total: file.rows.len() as u64 })).await?;
            let (imports, id) = (self.clone(), id.to_string());
            tokio::spawn(async move {
                let state = match imports.run(user, &id, file, target).await {
                    Ok(report) => {
                        tracing::info!(added = report.added, duplicates = report.duplicates, "file imported");
                        None
                    }
                    Err(e) => {
                        if e.is_users() {
                            tracing::info!(error = %e, "an import was refused");
                        } else {
                            tracing::error!(error = %e, "an import failed");
                        }
                        Some(Live::failed(&e))
                    }
                };
                if let Err(e) = imports.set(user, &id, state).await {
                    tracing::error!(error = %e, "recording how an import ended failed");
                }
            });
            Ok(())
        }
        .await;
        if let Err(e) = &started {
            if e.is_users() && !matches!(e, ImportError::NotFound | ImportError::Running) {
                if let Err(e) = self.set(user, id, Some(Live::failed(e))).await {
                    tracing::error!(error = %e, "recording a refused import failed");
                }
            }
        }
        started
    }

    /// Imports `file` in one transaction; nothing stays if anything fails.
    pub async fn run(
        &self,
        user: UserId,
        id: &str,
        file: File,
        target: Target,
    ) -> Result<ImportReport, ImportError> {
        let mut db = self.store.tenant(user).await?;
        // A write first: on SQLite it waits for another writer to finish instead of
        // failing later, and it claims the upload against a second run at once.
        let claimed = sqlx::query(
            "UPDATE imports SET status = 'pending' WHERE user_id = $1 AND id = $2 AND status = 'pending'",
        )
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?;
        if claimed.rows_affected() == 0 {
            let upload = Self::load(&mut db, user, id).await?;
            if upload.report.is_some() {
                return Err(ImportError::AlreadyImported);
            }
        }
        let groups = parts(&file, target)?;
        let mut context = Context::load(&mut db, user).await?;
        let total = file.rows.len();
        let (mut added, mut duplicates, mut done) = (0u64, 0u64, 0usize);
        let (mut names, mut opening, mut first_account) = (Vec::new(), None, None);
        for part in groups {
            let currency = match (&part.currency, &part.target) {
                (Some(c), _) | (None, Target::NewIn(_, c)) => c.clone(),
                (None, _) => user_currency(&mut db, user).await?,
            };
            let (account_id, account_name, account_currency) =
                target_account(&mut db, user, &part.target, &currency).await?;
            // Amounts are read in hundredths: an account counting otherwise is not imported into.
            if Currency::new(&account_currency).is_none_or(|c| c.exponent() != 2) {
                return Err(ImportError::BadCurrency(account_currency));
            }
            // Before any row goes in: may the file's opening balance become the account's?
            let fresh = is_fresh(&account_start(&mut db, user, account_id).await?);
            if let Some(file_currency) = &part.currency {
                if *file_currency != account_currency {
                    return Err(ImportError::Currency {
                        file: file_currency.clone(),
                        account: account_name,
                        account_currency,
                    });
                }
            }
            let rows: Vec<Row> = part.rows.iter().map(|&i| file.rows[i].clone()).collect();
            let hashes = hashes(&rows, account_id);
            let mut batch: Vec<Line<'_>> = Vec::with_capacity(BATCH);
            for (i, (row, hash)) in rows.iter().zip(&hashes).enumerate() {
                let m = context.matcher.recognise(&row.label);
                let merchant_id = match &m {
                    Some(m) => Some(context.merchant_id(&mut db, user, m).await?),
                    None => None,
                };
                let category =
                    rules::category_for(&context.rules, &row.label, m.as_ref().map(|m| m.name.as_str()))
                        .or_else(|| {
                            merchant_id.and_then(|id| context.merchant_category.get(&id).copied().flatten())
                        });
                batch.push(Line { row, hash, merchant_id, category });
                if batch.len() < BATCH && i + 1 < rows.len() {
                    continue;
                }
                let written =
                    insert_lines(&mut db, (user, id), (account_id, &account_currency), &batch).await?;
                added += written;
                duplicates += batch.len() as u64 - written;
                let before = done;
                done += batch.len();
                batch.clear();
                if done / PROGRESS_EVERY > before / PROGRESS_EVERY {
                    let now = Live::Running { done: done as u64, total: total as u64 };
                    self.set(user, id, Some(now)).await?;
                }
            }
            // Only when the rows agree with the balances the file states.
            let start = part.stated.as_ref().and_then(|st| opening_to_set(st, &rows));
            if let (Some((day, minor)), true) = (start, fresh) {
                sqlx::query(
                    "UPDATE accounts SET opening_balance_minor = $1, opening_date = $2 WHERE user_id = $3 AND id = $4",
                )
                .bind(minor)
                .bind(day.to_string())
                .bind(user.0)
                .bind(account_id)
                .execute(&mut *db)
                .await?;
                // The report says the first account's (one account: its own).
                if opening.is_none() {
                    opening = Currency::new(&account_currency).map(|c| (day, Money::new(minor, c)));
                }
            }
            if !names.contains(&account_name) {
                names.push(account_name);
            }
            first_account.get_or_insert(account_id);
        }
        let report = ImportReport {
            opening,
            account: names.join(", "),
            read: total as u64,
            added,
            duplicates,
            rejected: file.rejected,
            first: file.rows.iter().map(|r| r.date).min(),
            last: file.rows.iter().map(|r| r.date).max(),
            imported_at: timestamp(chrono::Utc::now()),
        };
        let json = serde_json::to_string(&report).map_err(|e| ImportError::Corrupt(e.to_string()))?;
        sqlx::query(
            "UPDATE imports SET status = 'done', content = NULL, account_id = $1, report = $2, imported_at = $3
             WHERE user_id = $4 AND id = $5",
        )
        .bind(first_account)
        .bind(json)
        .bind(&report.imported_at)
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?;
        db.commit().await?;
        Ok(report)
    }
}

/// A new account's name, spaces collapsed: 1 to 60 characters.
pub(super) fn account_name(name: &str) -> Result<String, ImportError> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() || name.chars().count() > 60 {
        return Err(ImportError::AccountName);
    }
    if agent::text::hidden_control(&name).is_some() {
        return Err(ImportError::AccountNameCharacters);
    }
    Ok(name)
}

/// The account a file goes to — created, for a new name, in `currency` — as (id, name,
/// currency).
pub(super) async fn target_account(
    db: &mut AnyConnection,
    user: UserId,
    target: &Target,
    currency: &str,
) -> Result<(i64, String, String), ImportError> {
    match target {
        Target::Existing(key) => {
            account_row(db, user, key).await?.ok_or_else(|| ImportError::NoAccount(key.clone()))
        }
        Target::Split(_) => Err(ImportError::Parts(0)),
        Target::New(name) | Target::NewIn(name, _) => {
            let name = account_name(name)?;
            let same: Option<(i64, String)> =
                sqlx::query_as("SELECT id, currency FROM accounts WHERE user_id = $1 AND name = $2")
                    .bind(user.0)
                    .bind(&name)
                    .fetch_optional(&mut *db)
                    .await?;
            if let Some((id, account_currency)) = same {
                // The account of that name: in the currency the user asked for, or not at all.
                if let Target::NewIn(_, asked) = target {
                    if *asked != account_currency {
                        return Err(ImportError::Currency {
                            file: asked.clone(),
                            account: name,
                            account_currency,
                        });
                    }
                }
                return Ok((id, name, account_currency));
            }
            // A vocabulary key from the name; a number is added if it is taken.
            let base = import::fold(&name).replace(' ', "_");
            let base = if base.is_empty() { "compte".to_string() } else { base };
            let mut key = base.clone();
            for n in 2.. {
                let taken: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM accounts WHERE user_id = $1 AND key = $2")
                        .bind(user.0)
                        .bind(&key)
                        .fetch_optional(&mut *db)
                        .await?;
                if taken.is_none() {
                    break;
                }
                key = format!("{base}_{n}");
            }
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO accounts (user_id, key, name, aliases, kind, currency) VALUES ($1, $2, $3, '[]', 'checking', $4)
                 RETURNING id",
            )
            .bind(user.0)
            .bind(&key)
            .bind(&name)
            .bind(currency)
            .fetch_one(&mut *db)
            .await?;
            Ok((id, name, currency.to_string()))
        }
    }
}

/// Rows written by one `INSERT`: one statement (and, on PostgreSQL, one round trip) for
/// this many lines rather than one each.
const BATCH: usize = 200;

/// A row of the file, ready to be written.
struct Line<'a> {
    row: &'a Row,
    hash: &'a str,
    merchant_id: Option<i64>,
    category: Option<i64>,
}

/// Writes `lines` into the account in one statement; a line whose hash the user has
/// already is left out (a duplicate). Returns how many were written.
async fn insert_lines(
    db: &mut sqlx::AnyConnection,
    (user, import): (UserId, &str),
    (account_id, currency): (i64, &str),
    lines: &[Line<'_>],
) -> Result<u64, ImportError> {
    let values: Vec<String> = (0..lines.len())
        .map(|i| {
            let k = 5 + i * 6;
            format!("($1, $2, ${k}, ${}, $3, ${}, ${}, ${}, $4, ${})", k + 1, k + 2, k + 3, k + 4, k + 5)
        })
        .collect();
    let sql = format!(
        "INSERT INTO transactions (user_id, account_id, date, amount_minor, currency, raw_label,
                                   merchant_id, category_id, import_batch, dedupe_hash)
         VALUES {}
         ON CONFLICT (user_id, dedupe_hash) DO NOTHING",
        values.join(", ")
    );
    // A full batch's statement is the same each time: kept prepared; a last, shorter one is not.
    let mut q = sqlx::query(&sql)
        .persistent(lines.len() == BATCH)
        .bind(user.0)
        .bind(account_id)
        .bind(currency)
        .bind(import);
    for l in lines {
        q = q
            .bind(l.row.date.to_string())
            .bind(l.row.amount_minor)
            .bind(&l.row.label)
            .bind(l.merchant_id)
            .bind(l.category)
            .bind(l.hash);
    }
    Ok(q.execute(&mut *db).await?.rows_affected())
}
