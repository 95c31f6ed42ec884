//! How Sou's answers grow with the ledger: the demo ledger's rows copied until the user
//! has 100k and then 1M transactions (same dates, so a year holds ~650 times as many
//! rows at 1M), each question type asked `ROUNDS` times, in the same run:
//!
//! - **Sou**: the answer, question to last event, in the server (runs recorded, as in
//!   production): the first one (which compares the months a summary reads with their
//!   rows, `tools/checked.rs`), then p50 and p99 of the next ones;
//! - **SQL**: the time the database driver spent on the ledger statements of the same
//!   question (every statement reading `transactions` or a roll-up), as sqlx times them,
//!   in an answer of its own each round: sqlx formats every statement it logs, which would
//!   slow the timed answers (a server's log filter leaves those statements out);
//! - **shown**: the same answers until their result is sent (the user sees it; the
//!   answer and its run are stored after);
//! - **direct**: the same SQL run directly, in the same run, right after each answer:
//!   the answer's tool call and its checks in one read transaction
//!   (`tools::run_checked`), with their round trips, without parsing, nor storing the
//!   question, the run or the answer;
//! - **direct on a worker**: the same, run in a task of the runtime, as the server runs
//!   every statement (the bench's own thread waits for a connection's reply faster than
//!   a worker thread does, by about 0.1 ms per answer here);
//! - **Sou ÷ direct**, **Sou ÷ direct on a worker**, **shown ÷ direct** and **shown ÷
//!   SQL** at the median: what Sou adds around its own queries.
//!
//! `cargo bench -p backend --bench scale` (`-- postgres` for PostgreSQL at 127.0.0.1;
//! `-- sizes=1550,100000` for other sizes; `-- rounds=10`; `-- statements` lists every
//! statement over 0.5 ms (`statements=MS`: over MS) of each question's last answer; `-- only=WORD` asks only the
//! questions whose name holds WORD). Asserts nothing; an answer
//! that is not a tool's result stops it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::{demo, ChatRequest, Sou, Store, UserId};
use futures::StreamExt;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::Layer;

const QUESTIONS: [(&str, &str); 7] = [
    ("a category in one month", "combien j'ai dépensé en courses en octobre 2026"),
    ("a category over a year", "combien j'ai dépensé en courses en 2025"),
    ("top 5 merchants in a year", "top 5 merchants in 2025"),
    ("spending by month over a year", "dépenses par mois en 2025"),
    ("10 biggest in a year", "les 10 plus grosses dépenses de 2025"),
    ("balance", "quel est mon solde ?"),
    ("recurring payments", "what are my recurring payments"),
];

type Failed = Box<dyn std::error::Error>;

/// Sums the time sqlx reports for ledger statements while `on` is set.
/// Each statement's end (ms after the question), its time (ms) and its first words.
type Statements = Vec<(f64, f64, String)>;

#[derive(Clone, Default)]
struct SqlClock {
    on: Arc<AtomicBool>,
    nanos: Arc<AtomicU64>,
    /// With `-- statements`: every statement of the last answer, with its time.
    log: Arc<std::sync::Mutex<Option<Statements>>>,
    /// When the answer being timed started.
    started: Arc<std::sync::Mutex<Option<Instant>>>,
}

#[derive(Default)]
struct Statement {
    text: String,
    secs: f64,
}

impl Visit for Statement {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "summary" || field.name() == "db.statement" {
            self.text.push_str(&format!("{value:?}"));
        }
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "summary" || field.name() == "db.statement" {
            self.text.push_str(value);
        }
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        if field.name() == "elapsed_secs" {
            self.secs = value;
        }
    }
}

impl<S: tracing::Subscriber> Layer<S> for SqlClock {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if event.metadata().target() != "sqlx::query" || !self.on.load(Ordering::Relaxed) {
            return;
        }
        let mut s = Statement::default();
        event.record(&mut s);
        let ledger = s.text.contains("transactions") || s.text.contains("ledger_");
        if ledger {
            self.nanos.fetch_add((s.secs * 1e9) as u64, Ordering::Relaxed);
        }
        if let Some(log) = self.log.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
            let text: String = s.text.split_whitespace().collect::<Vec<_>>().join(" ");
            let started = *self.started.lock().unwrap_or_else(|p| p.into_inner());
            let at = started.map_or(0.0, |t| t.elapsed().as_secs_f64() * 1000.0);
            log.push((at, s.secs * 1000.0, text.chars().take(400).collect()));
        }
    }
}

/// One answer's times.
struct Timed {
    /// Until the result is sent (what the user waits for).
    shown: Duration,
    /// Until the stream's last event (the answer and its run stored).
    took: Duration,
    /// The ledger statements' time within it.
    sql: Duration,
    /// The call it ran.
    call: Option<agent::ToolCall>,
}

/// One answer, timed.
/// With `logged`, sqlx logs its statements (the SQL column, `-- statements`); without, the
/// answer is timed as a server runs it.
async fn answer(
    sou: &Sou,
    user: UserId,
    message: &str,
    sql: &SqlClock,
    logged: bool,
) -> Result<Timed, Failed> {
    sql.nanos.store(0, Ordering::Relaxed);
    if let Some(log) = sql.log.lock().unwrap_or_else(|p| p.into_inner()).as_mut().filter(|_| logged) {
        log.clear();
    }
    sql.on.store(logged, Ordering::Relaxed);
    let started = Instant::now();
    *sql.started.lock().unwrap_or_else(|p| p.into_inner()) = Some(started);
    let req = ChatRequest { message: message.into(), ..ChatRequest::default() };
    let mut stream = sou.chat(user, req).await?;
    let (mut events, mut shown) = (Vec::new(), None);
    while let Some(e) = stream.events.next().await {
        if e.kind() == "tool_result" {
            shown.get_or_insert_with(|| started.elapsed());
        }
        events.push(e);
    }
    let took = started.elapsed();
    sql.on.store(false, Ordering::Relaxed);
    if !events.last().is_some_and(|e| e.is_terminal()) {
        return Err("a stream without its end".into());
    }
    let Some(shown) = shown else {
        return Err(format!(
            "{message:?} got no tool result: {:?}",
            events.iter().map(|e| e.kind()).collect::<Vec<_>>()
        )
        .into());
    };
    let call = events.iter().find_map(|e| match e {
        agent::protocol::ChatEvent::Plan { plan } => Some(plan.call.clone()),
        _ => None,
    });
    Ok(Timed { shown, took, sql: Duration::from_nanos(sql.nanos.load(Ordering::Relaxed)), call })
}

/// The same SQL run directly: `call` and its checks, in one read transaction.
async fn direct(
    store: &Store,
    user: UserId,
    call: &agent::ToolCall,
    today: agent::Date,
) -> Result<Duration, Failed> {
    let started = Instant::now();
    backend::testing::tools::run_checked(store, user, call, agent::Locale::Fr, today).await?;
    Ok(started.elapsed())
}

/// The same, in a task of the runtime, timed inside it.
async fn direct_on_worker(
    store: &Store,
    user: UserId,
    call: &agent::ToolCall,
    today: agent::Date,
) -> Result<Duration, Failed> {
    let (store, call) = (store.clone(), call.clone());
    let took =
        tokio::spawn(async move { direct(&store, user, &call, today).await.map_err(|e| e.to_string()) });
    Ok(took.await?.map_err(|e| e.to_string())?)
}

fn quantile(v: &mut [Duration], q: f64) -> f64 {
    v.sort_unstable();
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    v[i].as_secs_f64() * 1000.0
}

fn arg(name: &str) -> Option<String> {
    std::env::args().find_map(|a| a.strip_prefix(&format!("{name}=")).map(str::to_string))
}

fn main() -> Result<(), Failed> {
    let clock = SqlClock::default();
    // `-- statements` (over 0.5 ms) or `-- statements=MS`.
    let shown: Option<f64> = std::env::args().find_map(|a| {
        (a == "statements").then_some(0.5).or_else(|| a.strip_prefix("statements=")?.parse().ok())
    });
    if shown.is_some() {
        *clock.log.lock().unwrap_or_else(|p| p.into_inner()) = Some(Vec::new());
    }
    // sqlx formats every statement it logs (`sqlformat`), on the answer's path: that costs
    // more than some answers' own work. So statements are logged only while `on` is set,
    // in answers of their own, and the timed answers run as in a server, whose log filter
    // (`info` by default) leaves sqlx's statements out.
    let on = clock.on.clone();
    let subscriber = tracing_subscriber::registry().with(clock.clone().with_filter(
        tracing_subscriber::filter::dynamic_filter_fn(move |meta, _| {
            meta.target() == "sqlx::query" && on.load(Ordering::Relaxed)
        }),
    ));
    tracing::subscriber::set_global_default(subscriber)?;
    let postgres = std::env::args().any(|a| a == "postgres");
    let sizes: Vec<i64> = arg("sizes")
        .unwrap_or_else(|| "100000,1000000".into())
        .split(',')
        .map(|s| s.trim().parse::<i64>())
        .collect::<Result<_, _>>()?;
    let rounds: usize = arg("rounds").map_or(Ok(30), |r| r.parse())?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        println!(
            "{}; question to last event, {rounds} rounds each; SQL = the ledger statements of the same answers, as the driver times them; direct = the same tool and checks run directly\n",
            if postgres { "PostgreSQL" } else { "SQLite" }
        );
        for size in sizes {
            let dir = tempfile::tempdir()?;
            // `-- keep=DIR`: the SQLite file stays there, to look at its query plans.
            let path = arg("keep").map_or_else(|| dir.path().to_path_buf(), |k| std::path::Path::new(&k).join(size.to_string()));
            std::fs::create_dir_all(&path)?;
            let mut fresh = None;
            let store = if postgres {
                let db = backend::testing::FreshDatabase::create().await?;
                let store = db.open_store().await?;
                fresh = Some(db);
                store
            } else {
                Store::open_in(&path).await?
            };
            let user = store.ensure_user("bench").await?;
            demo::seed(&store, user).await?;
            let built = Instant::now();
            let have = backend::testing::grow_ledger(&store, user, size).await?;
            // As the server's maintenance does every few minutes (the planner's statistics);
            // on PostgreSQL autovacuum does, a minute or so after a load this size (an
            // insert-heavy table is vacuumed and analysed): here the owner does it at once,
            // so that the plans, and the index-only scans the visibility map allows, are the
            // ones a server would use.
            store.maintain().await?;
            if let Some(db) = &fresh {
                let owner = sqlx::PgPool::connect(&db.owner_url()).await?;
                sqlx::query("VACUUM (ANALYZE)").execute(&owner).await?;
                owner.close().await;
            }
            println!("{have} transactions (built in {:.1} s)", built.elapsed().as_secs_f64());
            println!(
                "{:<31} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
                "question",
                "Sou first",
                "Sou p50",
                "Sou p99",
                "shown p50",
                "SQL p50",
                "direct",
                "on worker",
                "Sou÷dir",
                "Sou÷wkr",
                "shown÷dir",
                "shown÷SQL"
            );
            let today = agent::Date::new(2026, 11, 20).ok_or("a date")?;
            let sou = Sou::new(store.clone(), chrono_tz::UTC).with_today(today);
            // `-- only=WORD`: the questions whose name holds WORD.
            let only = arg("only");
            for (name, q) in QUESTIONS.into_iter().filter(|(n, _)| only.as_deref().is_none_or(|w| n.contains(w))) {
                // The first answer compares the months it reads with their rows (the check
                // of a summary records them; the next answers read them from the roll-up):
                // none is recorded before it, as if the ledger had just changed.
                let mut tx = store.tenant(user).await?;
                sqlx::query("UPDATE ledger_month_state SET checked = NULL WHERE user_id = $1")
                    .bind(user.0)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                let first = answer(&sou, user, q, &clock, false).await?.took;
                let (mut sent, mut took, mut sql, mut run) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                let mut worker = Vec::new();
                for _ in 0..rounds {
                    let t = answer(&sou, user, q, &clock, false).await?;
                    sent.push(t.shown);
                    took.push(t.took);
                    let call = t.call.ok_or("an answer without a plan")?;
                    run.push(direct(&store, user, &call, today).await?);
                    worker.push(direct_on_worker(&store, user, &call, today).await?);
                    sql.push(answer(&sou, user, q, &clock, true).await?.sql);
                }
                let (p50, p99, s50) = (quantile(&mut took, 0.5), quantile(&mut took, 0.99), quantile(&mut sql, 0.5));
                let (r50, d50, w50) = (quantile(&mut sent, 0.5), quantile(&mut run, 0.5), quantile(&mut worker, 0.5));
                let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { f64::NAN };
                println!(
                    "{name:<31} {:>7.1}ms {p50:>7.1}ms {p99:>7.1}ms {r50:>7.1}ms {s50:>7.1}ms {d50:>7.1}ms {w50:>7.1}ms {:>8.1}× {:>8.1}× {:>8.1}× {:>8.1}×",
                    first.as_secs_f64() * 1000.0,
                    ratio(p50, d50),
                    ratio(p50, w50),
                    ratio(r50, d50),
                    ratio(r50, s50)
                );
                if let Some(log) = clock.log.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
                    for (at, ms, text) in log.iter().filter(|(_, ms, _)| *ms >= shown.unwrap_or(0.5)) {
                        println!("    at {at:>6.2}ms {ms:>6.2}ms  {text}");
                    }
                }
            }
            println!();
            drop(sou);
            store.pool().close().await;
            if let Some(db) = fresh {
                // `-- keep=…` keeps the PostgreSQL database too, to look at its plans.
                if arg("keep").is_some() {
                    println!("kept PostgreSQL database {}", db.database());
                } else {
                    db.drop().await;
                }
            }
        }
        Ok(())
    })
}
