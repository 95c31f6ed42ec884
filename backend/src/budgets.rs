//! The user's budgets as Settings → Budgets lists them: for each category, the budget of
//! this month and the next change planned. Setting, changing or removing one goes
//! through the `set_budget` write (`Sou::write_now` from the page's form, an approval
//! from the chat), so each is a change that can be undone.

use agent::writes::BudgetView;
use agent::{Currency, Date, EntityRef, Locale, Money};

use crate::calendar::Calendar;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::Store;
use crate::tools::flows::{budget_in, month_key};

fn month_start(key: &str) -> Option<Date> {
    let (y, m) = key.split_once('-')?;
    Date::new(y.parse().ok()?, m.parse().ok()?, 1)
}

/// Settings → Budgets: the budgets as listed, and the currency they are kept in.
#[derive(Clone)]
pub struct Budgets {
    store: Store,
    pub(crate) calendar: Calendar,
}

impl Budgets {
    pub(crate) fn new(store: Store, calendar: Calendar) -> Budgets {
        Budgets { store, calendar }
    }

    /// The currency the user's ledger is kept in.
    pub async fn currency(&self, user: UserId) -> Result<Currency, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let currency = crate::store::currency(&mut db, user).await?;
        db.commit().await?;
        Ok(currency)
    }

    /// Every category with a budget this month or one planned, by name.
    pub async fn list(&self, user: UserId, locale: Locale) -> Result<Vec<BudgetView>, BackendError> {
        let this = month_key(self.calendar.today());
        let mut db = self.store.tenant_read(user).await?;
        let currency = crate::store::currency(&mut db, user).await?;
        let rows: Vec<(i64, String, Option<i64>, String, String, String)> = sqlx::query_as(
            "SELECT b.category_id, b.start_month, b.amount_minor, c.key, c.name_fr, c.name_en
             FROM budgets b JOIN categories c ON c.id = b.category_id AND c.user_id = b.user_id
             WHERE b.user_id = $1 AND b.currency = $2 ORDER BY b.start_month",
        )
        .bind(user.0)
        .bind(currency.as_str())
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let history: Vec<(i64, String, Option<i64>)> = rows.iter().map(|r| (r.0, r.1.clone(), r.2)).collect();
        let money = |m: Option<i64>, c: Currency| m.map(|m| Money::new(m, c));
        let mut out: Vec<BudgetView> = Vec::new();
        for (id, _, _, key, fr, en) in &rows {
            if out.iter().any(|b| b.category.key == *key) {
                continue;
            }
            let now = budget_in(&history, *id, &this);
            let since = history
                .iter()
                .rfind(|r| r.0 == *id && r.1 <= this)
                .filter(|r| r.1 != "0001-01")
                .and_then(|r| month_start(&r.1));
            let next = history
                .iter()
                .find(|r| r.0 == *id && r.1 > this)
                .and_then(|r| Some((month_start(&r.1)?, money(r.2, currency))));
            if now.is_none() && next.is_none() {
                continue;
            }
            out.push(BudgetView {
                category: EntityRef { key: key.clone(), label: locale.pick(fr, en).clone() },
                now: money(now, currency),
                since,
                next,
            });
        }
        out.sort_by(|a, b| a.category.label.cmp(&b.category.label));
        Ok(out)
    }
}
