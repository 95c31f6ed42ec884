//! The demo ledger: about two years of a French household's bank account, generated
//! from a fixed seed so every install — and every test — sees the same numbers.

use agent::Date;
use serde::Deserialize;

use crate::error::StoreError;
use crate::ids::UserId;
use crate::store::Store;

const VOCABULARY: &str = include_str!("../demo/vocabulary.json");
const SEED: u64 = 0x5045_5449_5445_534f;
/// First and last day of the ledger (inclusive). Fixed, so the data never depends
/// on the day it is generated.
pub const FIRST_DAY: (i32, u32, u32) = (2024, 11, 1);
pub const LAST_DAY: (i32, u32, u32) = (2026, 11, 20);

#[derive(Deserialize)]
struct DemoVocabulary {
    categories: Vec<DemoCategory>,
    merchants: Vec<DemoMerchant>,
    accounts: Vec<DemoAccount>,
}

#[derive(Deserialize)]
struct DemoAccount {
    key: String,
    name_fr: String,
    name_en: String,
    aliases: Vec<String>,
    kind: String,
}

/// The current account's key; every line not said otherwise is on it.
pub const CHECKING: &str = "compte_courant";
/// The savings account's key.
pub const SAVINGS: &str = "livret_a";

/// Each demo account's balance on [`FIRST_DAY`], before that day's transactions.
pub const OPENING_BALANCES: &[(&str, i64)] = &[(CHECKING, 245_000), (SAVINGS, 800_000)];

/// Monthly budgets of the demo user (category key, amount in cents). Chosen so that
/// November 2026 shows budgets well within, close to and over their amount.
pub const BUDGETS: &[(&str, i64)] = &[
    ("groceries", 90_000),
    ("restaurants", 30_000),
    ("transport", 25_000),
    ("leisure", 8_000),
    ("shopping", 20_000),
    ("subscriptions", 3_000),
];

#[derive(Deserialize)]
struct DemoCategory {
    key: String,
    name_fr: String,
    name_en: String,
    aliases: Vec<String>,
    #[serde(default = "expense")]
    kind: String,
}

fn expense() -> String {
    "expense".to_string()
}

#[derive(Deserialize)]
struct DemoMerchant {
    key: String,
    name_fr: String,
    aliases: Vec<String>,
}

/// SplitMix64: tiny, fast, and identical on every platform and version.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo + 1).max(1) as u64;
        lo + (self.next() % span) as i64
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One generated bank line.
pub struct DemoTransaction {
    /// The account's key: [`CHECKING`] or [`SAVINGS`].
    pub account: &'static str,
    pub date: Date,
    pub amount_minor: i64,
    pub label: String,
    pub merchant: Option<&'static str>,
    pub category: &'static str,
}

/// A merchant people visit at random: (merchant, category, bank label, amount range in cents, weight).
type Visit = (&'static str, &'static str, &'static str, (i64, i64), u64);

const GROCERIES: &[Visit] = &[
    ("carrefour", "groceries", "CB CARREFOUR CITY", (850, 6500), 20),
    ("carrefour", "groceries", "CB CARREFOUR MARKET", (2500, 14500), 12),
    ("monoprix", "groceries", "CB MONOPRIX", (700, 7800), 22),
    ("lidl", "groceries", "CB LIDL", (1500, 9800), 18),
    ("franprix", "groceries", "CB FRANPRIX", (450, 3500), 12),
    ("picard", "groceries", "CB PICARD SURGELES", (1200, 5500), 6),
    ("biocoop", "groceries", "CB BIOCOOP", (900, 6000), 5),
    ("boulangerie_paul", "groceries", "CB BOULANGERIE PAUL", (180, 1450), 25),
];
const EATING_OUT: &[Visit] = &[
    ("le_petit_bistrot", "restaurants", "CB LE PETIT BISTROT", (2200, 8800), 25),
    ("pizzeria_napoli", "restaurants", "CB PIZZERIA NAPOLI", (1600, 5200), 20),
    ("starbucks", "restaurants", "CB STARBUCKS", (420, 980), 30),
    ("deliveroo", "restaurants", "CB DELIVEROO", (1500, 4200), 25),
];
const SHOPPING: &[Visit] = &[
    ("amazon", "shopping", "CB AMAZON PAYMENTS", (899, 15900), 40),
    ("fnac", "shopping", "CB FNAC", (1500, 32000), 15),
    ("zara", "shopping", "CB ZARA", (2599, 8900), 25),
    ("decathlon", "shopping", "CB DECATHLON", (1299, 12000), 20),
];

fn pick<'a>(rng: &mut Rng, visits: &'a [Visit]) -> &'a Visit {
    let total: u64 = visits.iter().map(|v| v.4).sum();
    let mut roll = rng.next() % total.max(1);
    for v in visits {
        if roll < v.4 {
            return v;
        }
        roll -= v.4;
    }
    &visits[0]
}

fn card_label(base: &str, d: Date) -> String {
    format!("{base} {:02}/{:02}", d.day(), d.month())
}

/// One month of the ledger as it is made: its days, the ledger's bounds, its lines.
struct Month {
    month: Date,
    days: u32,
    bounds: (Date, Date),
    lines: Vec<DemoTransaction>,
}

impl Month {
    /// Day `d` of the month (its last day past the end).
    fn day(&self, d: u32) -> Option<Date> {
        Date::new(self.month.year(), self.month.month(), d.min(self.days))
    }

    /// A day drawn between `from` and the month's end.
    fn any_day(&self, rng: &mut Rng, from: i64) -> Option<Date> {
        self.day(rng.range(from, i64::from(self.days)) as u32)
    }

    /// A line of the current account, if its day is within the ledger.
    fn push(
        &mut self,
        d: Option<Date>,
        amount: i64,
        label: String,
        merchant: Option<&'static str>,
        category: &'static str,
    ) {
        let (first, last) = self.bounds;
        if let Some(d) = d.filter(|d| *d >= first && *d <= last) {
            self.lines.push(DemoTransaction {
                account: CHECKING,
                date: d,
                amount_minor: amount,
                label,
                merchant,
                category,
            });
        }
    }

    /// A card payment on day `d`: "CB LABEL dd/mm".
    fn card(
        &mut self,
        d: Option<Date>,
        amount: i64,
        base: &str,
        merchant: &'static str,
        category: &'static str,
    ) {
        let label = card_label(base, d.unwrap_or(self.month));
        self.push(d, amount, label, Some(merchant), category);
    }
}

/// The whole ledger, oldest first. Pure: same output on every call.
pub fn ledger() -> Vec<DemoTransaction> {
    let mut rng = Rng(SEED);
    let mut out = Vec::new();
    let (Some(first), Some(last)) =
        (Date::new(FIRST_DAY.0, FIRST_DAY.1, FIRST_DAY.2), Date::new(LAST_DAY.0, LAST_DAY.1, LAST_DAY.2))
    else {
        return out;
    };
    let mut livret = Livret {
        balance: OPENING_BALANCES.iter().find(|(k, _)| *k == SAVINGS).map_or(0, |(_, b)| *b),
        interest: 0,
    };
    let mut month = first.first_of_month();
    while month <= last {
        let mut m = Month { month, days: days_in(month), bounds: (first, last), lines: Vec::new() };
        fixed_lines(&mut m, &mut rng);
        everyday_lines(&mut m, &mut rng);
        holidays(&mut m, &mut rng);
        livret.month(&mut m);
        out.append(&mut m.lines);
        month = month.add_months(1);
    }
    out.sort_by(|a, b| a.date.cmp(&b.date).then(a.account.cmp(b.account)).then(a.label.cmp(&b.label)));
    out
}

/// The bills and the salary, on their days; the transfer to the Livret A.
fn fixed_lines(mo: &mut Month, rng: &mut Rng) {
    let (y, m) = (mo.month.year(), mo.month.month());
    let mmyy = format!("{m:02}/{y}");
    let salary = if y >= 2026 { 382_000 } else { 365_000 };
    mo.push(mo.day(27), salary, format!("VIR SEPA ACME SAS SALAIRE {mmyy}"), Some("acme"), "income");
    if m == 12 {
        // A thirteenth month, paid with December's salary.
        mo.push(mo.day(27), salary, format!("VIR SEPA ACME SAS PRIME 13E MOIS {y}"), Some("acme"), "income");
    }
    let rent = if (y, m) >= (2025, 7) { 118_500 } else { 115_000 };
    mo.push(mo.day(5), -rent, "PRLV SEPA FONCIA LOYER".to_string(), Some("foncia"), "housing");
    // Electricity is paid in equal monthly instalments, revised each November,
    // with a yearly adjustment bill in October.
    let edf = if (y, m) >= (2025, 11) { 9_400 } else { 8_900 };
    mo.push(mo.day(10), -edf, "PRLV SEPA EDF CLIENTS PARTICULIERS".to_string(), Some("edf"), "utilities");
    if m == 10 {
        let a = rng.range(1_800, 6_500);
        mo.push(mo.day(24), -a, "PRLV SEPA EDF REGULARISATION".to_string(), Some("edf"), "utilities");
    }
    mo.push(mo.day(12), -1_999, "PRLV SEPA FREE MOBILE".to_string(), Some("free_mobile"), "utilities");
    let navigo = if y >= 2025 { 8_880 } else { 8_640 };
    mo.push(mo.day(2), -navigo, "PRLV SEPA RATP NAVIGO".to_string(), Some("ratp"), "transport");
    let netflix = if (y, m) >= (2025, 10) { 1_499 } else { 1_349 };
    mo.card(mo.day(15), -netflix, "CB NETFLIX.COM", "netflix", "subscriptions");
    let spotify = if (y, m) >= (2025, 6) { 1_199 } else { 1_099 };
    mo.card(mo.day(20), -spotify, "CB SPOTIFY", "spotify", "subscriptions");
    mo.push(mo.day(3), -2_999, "PRLV SEPA BASIC FIT".to_string(), Some("basic_fit"), "leisure");
    let mutuelle = if y >= 2026 { 5_140 } else { 4_870 };
    mo.push(
        mo.day(6),
        -mutuelle,
        "PRLV SEPA HARMONIE MUTUELLE COTISATION".to_string(),
        Some("harmonie_mutuelle"),
        "health",
    );
    // Home insurance, once a year on the contract's anniversary.
    if m == 11 {
        let maif = match y {
            2024 => 21_480,
            2025 => 22_560,
            _ => 23_640,
        };
        mo.push(mo.day(8), -maif, "PRLV SEPA MAIF ASSURANCE HABITATION".to_string(), Some("maif"), "housing");
    }
    mo.push(mo.day(28), -30_000, "VIR PERMANENT LIVRET A".to_string(), None, "savings");
}

/// Everyday spending on random days, refunds now and then.
fn everyday_lines(mo: &mut Month, rng: &mut Rng) {
    let m = mo.month.month();
    let random_visits = |count: i64,
                         visits: &[Visit],
                         out: &mut Vec<(Date, &'static str, &'static str, String, i64)>,
                         rng: &mut Rng| {
        for _ in 0..count {
            let v = pick(rng, visits);
            let d = mo.any_day(rng, 1).unwrap_or(mo.month);
            let amount = rng.range(v.3 .0, v.3 .1);
            out.push((d, v.0, v.1, card_label(v.2, d), -amount));
        }
    };
    let mut visits = Vec::new();
    random_visits(rng.range(24, 30), GROCERIES, &mut visits, rng);
    random_visits(rng.range(10, 15), EATING_OUT, &mut visits, rng);
    random_visits(rng.range(2, 5), SHOPPING, &mut visits, rng);
    // Now and then an online order goes back and is refunded a few days later.
    let returned = visits.iter().find(|v| v.1 == "amazon").map(|v| (v.0, -v.4)).filter(|_| rng.chance(45));
    for (d, merchant, category, label, amount) in visits {
        mo.push(Some(d), amount, label, Some(merchant), category);
    }
    if let Some((bought, amount)) = returned {
        let d = bought.add_days(rng.range(4, 12)).min(mo.day(mo.days).unwrap_or(mo.month));
        mo.push(Some(d), amount, "REMBOURSEMENT AMAZON".to_string(), Some("amazon"), "shopping");
    }
    for _ in 0..rng.range(1, 4) {
        let d = mo.any_day(rng, 1);
        let a = rng.range(1_250, 3_800);
        mo.card(d, -a, "CB UBER TRIP", "uber", "transport");
    }
    if rng.chance(45) || matches!(m, 7 | 12) {
        let d = mo.any_day(rng, 1);
        let a = rng.range(3_500, 12_900);
        mo.card(d, -a, "CB SNCF CONNECT", "sncf", "transport");
    }
    for _ in 0..rng.range(1, 3) {
        let d = mo.any_day(rng, 1);
        let a = rng.range(490, 4_200);
        mo.card(d, -a, "CB PHARMACIE DU CENTRE", "pharmacie_du_centre", "health");
    }
    if rng.chance(40) {
        let d = mo.any_day(rng, 5);
        let a = rng.range(1_500, 4_600);
        mo.push(d, a, "VIR HARMONIE MUTUELLE REMB SANTE".to_string(), Some("harmonie_mutuelle"), "health");
    }
    if rng.chance(35) {
        let d = mo.any_day(rng, 5);
        let a = rng.range(700, 2_500);
        mo.push(d, a, "VIR CPAM PARIS REMB SANTE".to_string(), None, "health");
    }
    for _ in 0..rng.range(1, 3) {
        let d = mo.any_day(rng, 1);
        let a = [2_000, 4_000, 6_000][rng.range(0, 2) as usize];
        let label = format!("RETRAIT DAB {:02}/{:02} PARIS 11", d.map_or(1, Date::day), m);
        mo.push(d, -a, label, None, "cash");
    }
    if rng.chance(70) {
        let d = mo.any_day(rng, 1);
        mo.card(d, -1_190, "CB UGC CINE CITE", "ugc", "leisure");
    }
}

/// Holidays: flights in spring for the summer, a flat in August, a winter trip.
fn holidays(mo: &mut Month, rng: &mut Rng) {
    let (y, m) = (mo.month.year(), mo.month.month());
    if m == 4 {
        let d = mo.day(rng.range(1, 28) as u32);
        // A short trip one year, a long-haul one the next: not a yearly bill.
        let a = if y % 2 == 1 { rng.range(28_000, 36_000) } else { rng.range(62_000, 76_000) };
        mo.card(d, -a, "CB AIR FRANCE", "air_france", "travel");
    }
    if m == 8 {
        let d = mo.day(rng.range(1, 10) as u32);
        let a = rng.range(48_000, 92_000);
        mo.card(d, -a, "CB AIRBNB * HMQ", "airbnb", "travel");
    }
    if m == 2 {
        let d = mo.day(rng.range(8, 20) as u32);
        let a = rng.range(25_000, 45_000);
        mo.card(d, -a, "CB AIRBNB * HMW", "airbnb", "travel");
    }
}

/// The Livret A's balance and the interest it earns: the yearly rate applies to each
/// month's opening balance, and the year's interest is paid on 31 December.
struct Livret {
    balance: i64,
    /// Σ balance × rate (basis points) over the year's months so far.
    interest: i64,
}

impl Livret {
    /// Interest on the balance at the start of the month, then every transfer out of
    /// the current account arrives on the Livret the same day.
    fn month(&mut self, mo: &mut Month) {
        let (y, m) = (mo.month.year(), mo.month.month());
        let rate_basis_points = match (y, m) {
            (y, m) if (y, m) < (2025, 2) => 300,
            (y, m) if (y, m) < (2025, 8) => 240,
            _ => 170,
        };
        self.interest += self.balance * rate_basis_points;
        let transfers: Vec<(Date, i64)> = mo
            .lines
            .iter()
            .filter(|t| t.category == "savings" && t.amount_minor < 0)
            .map(|t| (t.date, -t.amount_minor))
            .collect();
        for (d, amount) in transfers {
            self.balance += amount;
            mo.lines.push(DemoTransaction {
                account: SAVINGS,
                date: d,
                amount_minor: amount,
                label: "VIR PERMANENT DEPUIS COMPTE COURANT".to_string(),
                merchant: None,
                category: "savings",
            });
        }
        if m == 12 {
            // Σ balance × rate over the months, / 10 000 (basis points) / 12 (months), rounded.
            let interest = (self.interest + 60_000) / 120_000;
            self.interest = 0;
            if let Some(d) = mo.day(31).filter(|d| *d <= mo.bounds.1) {
                self.balance += interest;
                mo.lines.push(DemoTransaction {
                    account: SAVINGS,
                    date: d,
                    amount_minor: interest,
                    label: format!("INTERETS CREDITEURS {y}"),
                    merchant: None,
                    category: "income",
                });
            }
        }
    }
}

fn days_in(month: Date) -> u32 {
    u32::from(agent::days_in_month(month.year(), month.month() as u8))
}

const MERCHANT_CATEGORY: &[(&str, &str)] = &[
    ("carrefour", "groceries"),
    ("monoprix", "groceries"),
    ("lidl", "groceries"),
    ("franprix", "groceries"),
    ("picard", "groceries"),
    ("biocoop", "groceries"),
    ("boulangerie_paul", "groceries"),
    ("sncf", "transport"),
    ("ratp", "transport"),
    ("uber", "transport"),
    ("netflix", "subscriptions"),
    ("spotify", "subscriptions"),
    ("edf", "utilities"),
    ("free_mobile", "utilities"),
    ("foncia", "housing"),
    ("pharmacie_du_centre", "health"),
    ("harmonie_mutuelle", "health"),
    ("fnac", "shopping"),
    ("amazon", "shopping"),
    ("decathlon", "shopping"),
    ("zara", "shopping"),
    ("air_france", "travel"),
    ("airbnb", "travel"),
    ("le_petit_bistrot", "restaurants"),
    ("pizzeria_napoli", "restaurants"),
    ("starbucks", "restaurants"),
    ("deliveroo", "restaurants"),
    ("ugc", "leisure"),
    ("basic_fit", "leisure"),
    ("maif", "housing"),
    ("acme", "income"),
];

/// Whether `user` lacks one of the default categories, which [`seed_categories`] would
/// add: read on the caller's transaction, so a page that only reads can tell whether it
/// needs a writer's ([`Store::tenant`]) at all.
pub async fn lacks_categories(db: &mut sqlx::AnyConnection, user: UserId) -> Result<bool, sqlx::Error> {
    let vocab: DemoVocabulary =
        serde_json::from_str(VOCABULARY).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    let existing: Vec<String> = sqlx::query_scalar("SELECT key FROM categories WHERE user_id = $1")
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
    Ok(!vocab.categories.iter().all(|c| existing.contains(&c.key)))
}

/// Gives `user` the default categories (groceries, restaurants, transport…) they do not
/// have yet, on the caller's transaction. Returns every category key of theirs with
/// its id. Every account gets them: imports and rules need somewhere to put things.
pub async fn seed_categories(
    db: &mut sqlx::AnyConnection,
    user: UserId,
) -> Result<std::collections::HashMap<String, i64>, sqlx::Error> {
    let vocab: DemoVocabulary =
        serde_json::from_str(VOCABULARY).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    let existing: Vec<(String, i64)> = sqlx::query_as("SELECT key, id FROM categories WHERE user_id = $1")
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
    // Nothing to write in the usual case: a transaction that only reads never waits for
    // (or, on SQLite, fails against) another one writing, such as an import.
    if vocab.categories.iter().all(|c| existing.iter().any(|(k, _)| *k == c.key)) {
        return Ok(existing.into_iter().collect());
    }
    for c in &vocab.categories {
        let aliases = serde_json::to_string(&c.aliases).unwrap_or_else(|_| "[]".into());
        sqlx::query(
            "INSERT INTO categories (user_id, key, name_fr, name_en, aliases, kind) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (user_id, key) DO NOTHING",
        )
        .bind(user.0)
        .bind(&c.key)
        .bind(&c.name_fr)
        .bind(&c.name_en)
        .bind(aliases)
        .bind(&c.kind)
        .execute(&mut *db)
        .await?;
    }
    let rows: Vec<(String, i64)> = sqlx::query_as("SELECT key, id FROM categories WHERE user_id = $1")
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
    Ok(rows.into_iter().collect())
}

/// Gives `user` the demo vocabulary, accounts and ledger, unless they already have
/// transactions. One database transaction: all or nothing.
pub async fn seed(store: &Store, user: UserId) -> Result<bool, StoreError> {
    let vocab: DemoVocabulary =
        serde_json::from_str(VOCABULARY).map_err(|e| StoreError::Seed(sqlx::Error::Decode(Box::new(e))))?;
    let mut tx = store.tenant(user).await.map_err(StoreError::Seed)?;
    let existing: i64 = sqlx::query_scalar("SELECT count(*) FROM transactions WHERE user_id = $1")
        .bind(user.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(StoreError::Seed)?;
    if existing > 0 {
        return Ok(false);
    }
    let opened = Date::new(FIRST_DAY.0, FIRST_DAY.1, FIRST_DAY.2).map(|d| d.to_string());
    let mut account_ids = std::collections::HashMap::new();
    for a in &vocab.accounts {
        let aliases = serde_json::to_string(&a.aliases).unwrap_or_else(|_| "[]".into());
        let opening = OPENING_BALANCES.iter().find(|(k, _)| *k == a.key).map_or(0, |(_, b)| *b);
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO accounts (user_id, key, name, name_en, aliases, kind, currency,
                                   opening_balance_minor, opening_date)
             VALUES ($1, $2, $3, $4, $5, $6, 'EUR', $7, $8)
             ON CONFLICT (user_id, name) DO UPDATE SET
                key = excluded.key, name_en = excluded.name_en, aliases = excluded.aliases,
                kind = excluded.kind, opening_balance_minor = excluded.opening_balance_minor,
                opening_date = excluded.opening_date
             RETURNING id",
        )
        .bind(user.0)
        .bind(&a.key)
        .bind(&a.name_fr)
        .bind(&a.name_en)
        .bind(aliases)
        .bind(&a.kind)
        .bind(opening)
        .bind(opened.as_deref())
        .fetch_one(&mut *tx)
        .await
        .map_err(StoreError::Seed)?;
        account_ids.insert(a.key.as_str(), id);
    }
    let category_ids = seed_categories(&mut tx, user).await.map_err(StoreError::Seed)?;
    let mut merchant_ids = std::collections::HashMap::new();
    for m in &vocab.merchants {
        let aliases = serde_json::to_string(&m.aliases).unwrap_or_else(|_| "[]".into());
        let category = MERCHANT_CATEGORY
            .iter()
            .find(|(k, _)| *k == m.key)
            .and_then(|(_, c)| category_ids.get(*c).copied());
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO merchants (user_id, key, name, aliases, category_id) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (user_id, key) DO UPDATE SET name = excluded.name RETURNING id",
        )
        .bind(user.0)
        .bind(&m.key)
        .bind(&m.name_fr)
        .bind(aliases)
        .bind(category)
        .fetch_one(&mut *tx)
        .await
        .map_err(StoreError::Seed)?;
        merchant_ids.insert(m.key.as_str(), id);
    }
    for (n, t) in ledger().iter().enumerate() {
        let account_id = account_ids.get(t.account).copied().ok_or_else(|| {
            StoreError::Seed(sqlx::Error::Protocol(format!(
                "demo account {:?} is not in the vocabulary",
                t.account
            )))
        })?;
        sqlx::query(
            "INSERT INTO transactions (user_id, account_id, date, amount_minor, currency, raw_label,
                                       merchant_id, category_id, import_batch, dedupe_hash)
             VALUES ($1, $2, $3, $4, 'EUR', $5, $6, $7, 'demo', $8)",
        )
        .bind(user.0)
        .bind(account_id)
        .bind(t.date.to_string())
        .bind(t.amount_minor)
        .bind(&t.label)
        .bind(t.merchant.and_then(|k| merchant_ids.get(k).copied()))
        .bind(category_ids.get(t.category).copied())
        .bind(format!("demo-{n}"))
        .execute(&mut *tx)
        .await
        .map_err(StoreError::Seed)?;
    }
    for (category, amount) in BUDGETS {
        let category_id = category_ids.get(*category).copied().ok_or_else(|| {
            StoreError::Seed(sqlx::Error::Protocol(format!("demo budget for unknown category {category:?}")))
        })?;
        sqlx::query(
            "INSERT INTO budgets (user_id, category_id, start_month, amount_minor, currency)
             VALUES ($1, $2, '0001-01', $3, 'EUR')
             ON CONFLICT (user_id, category_id, start_month) DO UPDATE SET amount_minor = excluded.amount_minor",
        )
        .bind(user.0)
        .bind(category_id)
        .bind(*amount)
        .execute(&mut *tx)
        .await
        .map_err(StoreError::Seed)?;
    }
    tx.commit().await.map_err(StoreError::Seed)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ledger_is_deterministic_and_plausible() {
        let a = ledger();
        let b = ledger();
        assert_eq!(a.len(), b.len());
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.date == y.date && x.amount_minor == y.amount_minor && x.label == y.label));
        assert!(a.len() >= 1500, "only {} transactions", a.len());
        let categories: std::collections::HashSet<_> = a.iter().map(|t| t.category).collect();
        for c in [
            "groceries",
            "restaurants",
            "transport",
            "subscriptions",
            "utilities",
            "housing",
            "health",
            "shopping",
            "travel",
            "income",
        ] {
            assert!(categories.contains(c), "no {c}");
        }
        for (merchant, _) in MERCHANT_CATEGORY {
            assert!(a.iter().any(|t| t.merchant == Some(merchant)), "no transaction at {merchant}");
        }
        assert!(a.iter().any(|t| t.label.starts_with("CB CARREFOUR CITY ")));
        assert!(
            a.iter()
                .all(|t| t.date >= Date::new(2024, 11, 1).unwrap()
                    && t.date <= Date::new(2026, 11, 20).unwrap())
        );
    }

    #[test]
    fn savings_are_mirrored_on_the_livret_with_interest() {
        let a = ledger();
        let out: Vec<_> = a.iter().filter(|t| t.category == "savings" && t.amount_minor < 0).collect();
        let into: Vec<_> = a.iter().filter(|t| t.category == "savings" && t.amount_minor > 0).collect();
        assert_eq!(out.len(), 24, "one transfer a month on the 28th, November 2024 to October 2026");
        assert!(out.iter().all(|t| t.account == CHECKING));
        assert!(into.iter().all(|t| t.account == SAVINGS));
        let mut expected: Vec<_> = out.iter().map(|t| (t.date, -t.amount_minor)).collect();
        let mut mirrored: Vec<_> = into.iter().map(|t| (t.date, t.amount_minor)).collect();
        expected.sort();
        mirrored.sort();
        assert_eq!(expected, mirrored);
        let interest: Vec<_> = a.iter().filter(|t| t.label.starts_with("INTERETS CREDITEURS")).collect();
        assert_eq!(interest.len(), 2, "31 December 2024 and 2025");
        assert!(interest
            .iter()
            .all(|t| t.account == SAVINGS && t.category == "income" && t.amount_minor > 0));
        // 3 % a year for a month on 8 000 €, then a month on 8 300 €: 20 € + 20,75 €.
        assert_eq!(interest[0].amount_minor, 4_075);
        // Nothing but transfers and interest on the Livret A.
        assert!(a
            .iter()
            .filter(|t| t.account == SAVINGS)
            .all(|t| t.category == "savings" || t.category == "income"));
    }

    #[test]
    fn refunds_and_a_yearly_payment_exist() {
        let a = ledger();
        let refunds =
            |label: &str| a.iter().filter(|t| t.label.starts_with(label) && t.amount_minor > 0).count();
        assert!(refunds("REMBOURSEMENT AMAZON") >= 3);
        assert!(refunds("VIR HARMONIE MUTUELLE REMB SANTE") >= 3);
        let maif: Vec<_> =
            a.iter().filter(|t| t.merchant == Some("maif")).map(|t| t.date.to_string()).collect();
        assert_eq!(maif, ["2024-11-08", "2025-11-08", "2026-11-08"]);
        for (category, _) in BUDGETS {
            assert!(a.iter().any(|t| t.category == *category), "a budget for {category} with nothing in it");
        }
    }
}
