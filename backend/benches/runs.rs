//! What recording runs costs an answer: the same questions answered by Sou with runs
//! recorded (steps, events, checks stored as they go) and by Sou with recording off,
//! on one SQLite database, interleaved, in the same run. The baseline is Sou without
//! recording; the checks every result passes run in both. Prints medians, the 90th
//! percentile and the ratio; asserts nothing.
//! `cargo bench -p backend --bench runs` (`-- postgres` for PostgreSQL at 127.0.0.1).

use std::time::{Duration, Instant};

use backend::RunConfig;
use backend::{demo, ChatRequest, Sou, Store, UserId};
use futures::StreamExt;

const QUESTIONS: [&str; 4] = [
    "combien j'ai dépensé en courses en octobre 2026",
    "top 5 merchants in 2025",
    "dépenses par mois en 2025",
    "les 10 plus grosses dépenses de 2025",
];
const ROUNDS: usize = 60;

type Failed = Box<dyn std::error::Error>;

/// The time from the question to the stream's last event.
async fn answer(sou: &Sou, user: UserId, message: &str) -> Result<Duration, Failed> {
    let started = Instant::now();
    let req = ChatRequest { message: message.into(), ..ChatRequest::default() };
    let stream = sou.chat(user, req).await?;
    let events: Vec<_> = stream.events.collect().await;
    if !events.last().is_some_and(|e| e.is_terminal()) {
        return Err("a stream without its end".into());
    }
    Ok(started.elapsed())
}

fn quantile(v: &mut [Duration], q: f64) -> f64 {
    v.sort_unstable();
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    v[i].as_secs_f64() * 1000.0
}

fn main() -> Result<(), Failed> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let postgres = std::env::args().any(|a| a == "postgres");
        let dir = tempfile::tempdir()?;
        let mut fresh = None;
        let store = if postgres {
            let db = backend::testing::FreshDatabase::create().await?;
            let store = db.open_store().await?;
            fresh = Some(db);
            store
        } else {
            Store::open_in(dir.path()).await?
        };
        let user = store.ensure_user("bench").await?;
        demo::seed(&store, user).await?;
        let today = agent::Date::new(2026, 11, 20).ok_or("a date")?;
        let recorded = Sou::new(store.clone(), chrono_tz::UTC).with_today(today);
        let bare = Sou::new(store.clone(), chrono_tz::UTC)
            .with_today(today)
            .with_runs(RunConfig { record: false, ..RunConfig::default() });
        // Warm both (the parser's vocabulary, the statements, the file's pages).
        for q in QUESTIONS {
            answer(&recorded, user, q).await?;
            answer(&bare, user, q).await?;
        }
        println!(
            "an answer, question to last event, on {}; {ROUNDS} rounds of {} questions, interleaved\n",
            if postgres { "PostgreSQL" } else { "SQLite" },
            QUESTIONS.len()
        );
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            for q in QUESTIONS {
                without.push(answer(&bare, user, q).await?);
                with.push(answer(&recorded, user, q).await?);
            }
        }
        let (b50, b90) = (quantile(&mut without, 0.5), quantile(&mut without, 0.9));
        let (r50, r90) = (quantile(&mut with, 0.5), quantile(&mut with, 0.9));
        println!("{:<34} {:>9} {:>9}", "", "p50", "p90");
        println!("{:<34} {b50:>7.2}ms {b90:>7.2}ms   (baseline)", "runs not recorded");
        println!("{:<34} {r50:>7.2}ms {r90:>7.2}ms   {:.2}× baseline (p50)", "runs recorded", r50 / b50);
        println!("\nrecording costs {:.2} ms an answer at the median", r50 - b50);
        if let Some(db) = fresh {
            db.drop().await;
        }
        Ok(())
    })
}
