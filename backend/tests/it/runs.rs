//! Runs, on SQLite and PostgreSQL, with two Sou servers on one database: an answer's
//! trace (its steps, its sources equal to the SQL rows), the checks every result
//! passes (a period beyond the data, a transaction dated after today, each lowering
//! the confidence and said), a client re-attaching after `Last-Event-ID` — on the same
//! server and on the other one, during a model's answer —, and model usage with its
//! limits (told at 80 %, no model at 100 %).

use std::sync::Arc;
use std::time::Duration;

use agent::protocol::ChatEvent;
use agent::runs::{CheckCode, CheckOutcome, RunStatus, StepKind, StepStatus};
use agent::{Date, Locale};
use backend::llm::catalog::ProviderId;
use backend::LlmConfig;
use backend::{demo, ChatRequest, Sou, Store, UserId};
use backend::{RunConfig, UsageLimits};
use futures::StreamExt;
use secrecy::SecretString;

use crate::llm_chat::{serve, text, Reply, Shared, CANARY};
use crate::support::{self, lock, Waits};

fn today() -> Date {
    Date::new(2026, 11, 20).unwrap()
}

fn sou(store: Store, base: &str, limits: UsageLimits) -> Sou {
    let mut config = LlmConfig { default_provider: Some(ProviderId::Openai), ..LlmConfig::default() };
    if let Some(p) = config.providers.get_mut(&ProviderId::Openai) {
        p.base_url = base.to_string();
        p.env_key = Some(SecretString::from(CANARY));
    }
    let timeouts = (Duration::from_secs(5), Duration::from_secs(5));
    support::sou_with_providers(store, config, timeouts, Arc::new(Waits::default()), [9; 32])
        .with_today(today())
        .with_runs(RunConfig { limits, ..RunConfig::default() })
}

async fn ask(sou: &Sou, user: UserId, message: &str) -> (String, Vec<ChatEvent>) {
    let req =
        ChatRequest { message: message.into(), conversation_id: None, plan: None, locale: Some("fr".into()) };
    let stream = sou.chat(user, req).await.unwrap();
    assert_eq!(stream.first_seq, 1);
    let run = stream.run_id.clone();
    let events: Vec<ChatEvent> = stream.events.collect().await;
    match events.last() {
        Some(ChatEvent::Status { message_id, .. }) => assert_eq!(message_id.as_deref(), Some(run.as_str())),
        other => panic!("no status: {other:?}"),
    }
    (run, events)
}

fn uncertainty(events: &[ChatEvent]) -> &agent::protocol::Uncertainty {
    match events.last() {
        Some(ChatEvent::Status { uncertainty, .. }) => uncertainty,
        other => panic!("no status: {other:?}"),
    }
}

fn route(events: &[ChatEvent]) -> String {
    match events.last() {
        Some(ChatEvent::Status { usage, .. }) => usage.route.clone(),
        other => panic!("no status: {other:?}"),
    }
}

async fn ids(store: &Store, user: UserId, sql: &str) -> Vec<i64> {
    let mut db = store.tenant(user).await.unwrap();
    let v: Vec<i64> = sqlx::query_scalar(sql).bind(user.0).fetch_all(&mut *db).await.unwrap();
    db.commit().await.unwrap();
    v
}

#[tokio::test]
async fn runs_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let a = Store::open_in(dir.path()).await.unwrap();
    let b = Store::open_in(dir.path()).await.unwrap();
    scenario(a, b).await;
}

#[tokio::test]
async fn runs_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let a = fresh.open_store().await.unwrap();
    let b = fresh.open_store().await.unwrap();
    scenario(a, b).await;
    fresh.drop().await;
}

/// A chat answer is stored with its run's end (one transaction, by the run's writer);
/// with runs not recorded, on its own. Either way, once the stream has ended, the
/// conversation holds the question and the answer with every event the client got, and
/// a recorded run is done, with its tool and check steps.
#[tokio::test]
async fn answers_stored_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    answers_stored(Store::open_in(dir.path()).await.unwrap()).await;
}

#[tokio::test]
async fn answers_stored_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    answers_stored(fresh.open_store().await.unwrap()).await;
    fresh.drop().await;
}

async fn answers_stored(store: Store) {
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    for record in [true, false] {
        let sou = Sou::new(store.clone(), chrono_tz::UTC)
            .with_today(today())
            .with_runs(RunConfig { record, ..RunConfig::default() });
        let (run, events) = ask(&sou, user, "combien j'ai dépensé en courses en octobre 2025 ?").await;
        let Some(ChatEvent::Status { conversation_id: Some(conversation), .. }) = events.last() else {
            panic!("no conversation: {events:?}")
        };
        let view = sou.conversations().get(user, conversation, Locale::Fr).await.unwrap();
        assert_eq!(view.messages.len(), 2, "record = {record}");
        let answer = &view.messages[1];
        assert_eq!(answer.id.as_deref(), Some(run.as_str()));
        assert_eq!(answer.events, events, "record = {record}");
        assert!(answer.content.contains("€"), "{:?}", answer.content);
        let trace = sou.runs().trace(user, &run, Locale::Fr).await;
        match record {
            true => {
                let trace = trace.unwrap();
                assert_eq!(trace.status, RunStatus::Done);
                assert!(trace.steps.iter().any(|s| s.kind == StepKind::Tool && s.status == StepStatus::Done));
                assert!(trace.steps.iter().any(|s| s.kind == StepKind::Verify));
            }
            // Not recorded: no run, only the answer.
            false => assert!(trace.is_err()),
        }
    }
}

async fn scenario(a: Store, b: Store) {
    support::logs();
    let user = a.ensure_user("local").await.unwrap();
    assert!(demo::seed(&a, user).await.unwrap());
    let (base, mock) = serve(vec![]).await;
    let one = sou(a.clone(), &base, UsageLimits::default());
    let two = sou(b, &base, UsageLimits::default());

    // A parser answer is a run of three steps; its sources are the SQL's rows.
    let (run, events) = ask(&one, user, "combien j'ai dépensé en courses en octobre 2026").await;
    let trace = one.runs().trace(user, &run, Locale::Fr).await.unwrap();
    assert_eq!(trace.status, RunStatus::Done);
    let kinds: Vec<StepKind> = trace.steps.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [StepKind::Parse, StepKind::Tool, StepKind::Verify]);
    let tool = &trace.steps[1];
    assert_eq!(tool.tool.as_deref(), Some("spending_summary"));
    assert_eq!(tool.arguments.as_ref().unwrap()["category"], "groceries");
    let mut sources = tool.sources.transactions.clone();
    sources.sort_unstable();
    let expected = ids(
        &a,
        user,
        "SELECT t.id FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = 'groceries' AND t.amount_minor < 0
           AND t.date >= '2026-10-01' AND t.date < '2026-11-01' ORDER BY t.id",
    )
    .await;
    assert!(!expected.is_empty());
    assert_eq!(sources, expected, "the sources are the transactions counted");
    assert!(trace.source_rows.iter().all(|r| expected.contains(&r.id)));
    assert_eq!(trace.source_rows.len(), expected.len().min(agent::runs::SOURCE_ROWS));
    let checks = &trace.steps[2].checks;
    assert!(checks.iter().all(|c| c.outcome != CheckOutcome::Failed), "{checks:?}");
    for code in [CheckCode::TotalOfSources, CheckCode::PeriodCoverage, CheckCode::FutureDates] {
        assert!(checks.iter().any(|c| c.code == code && c.outcome == CheckOutcome::Passed), "{code:?}");
    }
    assert_eq!(trace.answer_confidence, Some(1.0));
    assert_eq!(uncertainty(&events).answer_confidence, 1.0);
    // A year's spending rests on more transactions than a result carries: the trace
    // keeps the first page and the count; the pages after it are read again on demand,
    // and all of them together are the SQL's rows, newest first.
    let (year, _) = ask(&one, user, "combien j'ai dépensé en 2025").await;
    let year_trace = one.runs().trace(user, &year, Locale::Fr).await.unwrap();
    let counted = ids(
        &a,
        user,
        "SELECT t.id FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND t.amount_minor < 0 AND (c.kind IS NULL OR c.kind = 'expense')
           AND t.date >= '2025-01-01' AND t.date < '2026-01-01' ORDER BY t.date DESC, t.id DESC",
    )
    .await;
    assert!(counted.len() > 2 * agent::SOURCE_PAGE, "{}", counted.len());
    let step = &year_trace.steps[1].sources;
    assert_eq!(
        (step.transactions.len(), step.transaction_count()),
        (agent::SOURCE_PAGE, counted.len() as u64)
    );
    let mut paged = Vec::new();
    for page in 1.. {
        let p = two.runs().sources(user, &year, 2, (page, 70), Locale::Fr).await.unwrap();
        assert_eq!(p.total, counted.len() as u64);
        if p.rows.is_empty() {
            break;
        }
        paged.extend(p.rows.iter().map(|r| r.id));
    }
    assert_eq!(paged, counted, "every page, in order");
    // The same trace from the other server; another user's run is not found.
    assert_eq!(two.runs().trace(user, &run, Locale::Fr).await.unwrap().steps, trace.steps);
    let other = a.ensure_user("other").await.unwrap();
    assert!(one.runs().trace(other, &run, Locale::Fr).await.is_err());
    assert!(one.runs().attach(other, &run, 0).await.is_err());

    // A client re-attaching after event 2 gets exactly the rest, from either server.
    for s in [&one, &two] {
        let again: Vec<ChatEvent> = s.runs().attach(user, &run, 2).await.unwrap().events.collect().await;
        assert_eq!(again, events[2..].to_vec());
    }

    // A period before the data is said, and lowers the confidence.
    let (run, events) = ask(&one, user, "combien j'ai dépensé en courses en 2019").await;
    let u = uncertainty(&events);
    assert_eq!(u.answer_confidence, 0.75);
    assert!(u.warnings.iter().any(|w| w.contains("Vos opérations commencent le")), "{:?}", u.warnings);
    let trace = one.runs().trace(user, &run, Locale::Fr).await.unwrap();
    let verify = trace.steps.iter().find(|s| s.kind == StepKind::Verify).unwrap();
    assert!(verify
        .checks
        .iter()
        .any(|c| c.code == CheckCode::PeriodCoverage && c.outcome == CheckOutcome::Failed));

    // A transaction dated after today fails a check: said, and the confidence drops.
    let mut db = a.tenant(user).await.unwrap();
    sqlx::query(
        "INSERT INTO transactions (user_id, account_id, date, amount_minor, currency, raw_label, merchant_id,
             category_id, dedupe_hash)
         SELECT user_id, account_id, '2026-11-22', amount_minor, currency, raw_label, merchant_id, category_id,
             'dated-after-today'
         FROM transactions t WHERE t.user_id = $1
           AND t.category_id = (SELECT id FROM categories WHERE user_id = $1 AND key = 'groceries')
         ORDER BY t.id LIMIT 1",
    )
    .bind(user.0)
    .execute(&mut *db)
    .await
    .unwrap();
    db.commit().await.unwrap();
    let (_, events) = ask(&one, user, "combien j'ai dépensé en courses en novembre 2026").await;
    let u = uncertainty(&events);
    assert!(u.answer_confidence < agent::runs::CONFIDENCE_WARNING, "{u:?}");
    assert!(u.warnings.iter().any(|w| w.contains("datées après aujourd'hui")), "{:?}", u.warnings);
    let mut db = a.tenant(user).await.unwrap();
    sqlx::query("DELETE FROM transactions WHERE user_id = $1 AND dedupe_hash = 'dated-after-today'")
        .bind(user.0)
        .execute(&mut *db)
        .await
        .unwrap();
    db.commit().await.unwrap();

    // During a model's answer, a client re-attaches to the other server after event 5:
    // it gets the events the first server stores from then on, up to the end.
    lock(&mock).script.push_back(Reply::Endless);
    let req = ChatRequest {
        message: "Devrais-je résilier Netflix ?".into(),
        conversation_id: None,
        plan: None,
        locale: Some("fr".into()),
    };
    let mut first = one.chat(user, req).await.unwrap();
    let run = first.run_id.clone();
    let mut seen = Vec::new();
    while seen.len() < 5 {
        seen.push(first.events.next().await.unwrap());
    }
    let mut attached = two.runs().attach(user, &run, 5).await.unwrap();
    assert_eq!(attached.first_seq, 6);
    let mut rest = Vec::new();
    for _ in 0..5 {
        rest.push(
            tokio::time::timeout(Duration::from_secs(10), attached.events.next()).await.unwrap().unwrap(),
        );
    }
    // The first client goes away: the answer goes on; stopped by the user, the other
    // client sees it end.
    drop(first);
    rest.push(tokio::time::timeout(Duration::from_secs(10), attached.events.next()).await.unwrap().unwrap());
    one.runs().act(user, &run, backend::RunAction::Cancel).await.unwrap();
    while let Some(e) = tokio::time::timeout(Duration::from_secs(10), attached.events.next()).await.unwrap() {
        rest.push(e);
    }
    assert!(rest.last().is_some_and(ChatEvent::is_terminal));
    assert!(rest.iter().any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "stopped")));
    let all: Vec<ChatEvent> = one.runs().attach(user, &run, 0).await.unwrap().events.collect().await;
    assert_eq!(all[..5], seen[..], "the first client's events are the run's first");
    assert_eq!(all[5..], rest[..], "the other server gave exactly the rest");
    let trace = two.runs().trace(user, &run, Locale::Fr).await.unwrap();
    assert_eq!(trace.status, RunStatus::Cancelled);
    let model = trace.steps.iter().find(|s| s.kind == StepKind::Model).unwrap();
    assert_eq!((model.status, model.provider.as_deref()), (StepStatus::Stopped, Some("openai")));

    // A server stopping (SIGTERM): an answer still being written once the grace period is
    // over is cut short, ends as interrupted with its last event, and stays in its
    // conversation saying so (the page offers to ask again).
    let stopping = sou(a.clone(), &base, UsageLimits::default());
    lock(&mock).script.push_back(Reply::Endless);
    let req = ChatRequest {
        message: "Devrais-je résilier Netflix ?".into(),
        conversation_id: None,
        plan: None,
        locale: Some("fr".into()),
    };
    let mut cut = stopping.chat(user, req).await.unwrap();
    let cut_run = cut.run_id.clone();
    for _ in 0..3 {
        cut.events.next().await.unwrap();
    }
    let drained = stopping.runs().drain(Duration::from_millis(300)).await;
    assert_eq!(drained, backend::Drained { finished: 0, interrupted: 1 });
    let rest: Vec<ChatEvent> =
        tokio::time::timeout(Duration::from_secs(10), cut.events.collect()).await.unwrap();
    assert!(
        rest.iter().any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "interrupted")),
        "{rest:?}"
    );
    assert!(rest.last().is_some_and(ChatEvent::is_terminal));
    let trace = one.runs().trace(user, &cut_run, Locale::Fr).await.unwrap();
    assert_eq!(trace.status, RunStatus::Interrupted);
    let view = one.conversations().get(user, &trace.conversation_id, Locale::Fr).await.unwrap();
    let answer = view.messages.iter().find(|m| m.id.as_deref() == Some(cut_run.as_str())).unwrap();
    assert!(answer
        .events
        .iter()
        .any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "interrupted")));

    // Usage: each model call is recorded, with its tokens and cost.
    let before = one.runs().usage(user).await.unwrap();
    lock(&mock).script.push_back(text(&["Gardez-le ", "si vous le regardez."]));
    let (_, events) = ask(&one, user, "Devrais-je résilier Spotify ?").await;
    assert_eq!(route(&events), "llm");
    let usage = one.runs().usage(user).await.unwrap();
    assert_eq!(usage.providers[0].key, "openai");
    assert!(usage.spent_eur_micros > before.spent_eur_micros);
    let month_calls = usage.months.last().unwrap().calls;
    assert_eq!(month_calls, before.months.last().map(|m| m.calls).unwrap_or(0) + 1);
    assert_eq!(
        usage.days.last().unwrap().input_tokens - before.days.last().map(|d| d.input_tokens).unwrap_or(0),
        1_000
    );
    assert!(usage.limits.is_empty());

    // The user's own limit: at 80 % the answer says so and the model still answers…
    let spent = usage.spent_eur_micros;
    one.runs().set_usage_limit(user, Some(spent * 10 / 9)).await.unwrap();
    let report = one.runs().usage(user).await.unwrap();
    assert_eq!(report.state, agent::runs::LimitState::Warning);
    lock(&mock).script.push_back(text(&["D'accord."]));
    let calls = lock(&mock).bodies.len();
    let (_, events) = ask(&one, user, "Devrais-je résilier Deezer ?").await;
    assert_eq!(route(&events), "llm");
    assert_eq!(lock(&mock).bodies.len(), calls + 1);
    assert!(
        uncertainty(&events).warnings.iter().any(|w| w.contains("% de votre limite mensuelle")),
        "{:?}",
        uncertainty(&events).warnings
    );
    // …at 100 % no model is called: the parser answers alone, and says why.
    let report = one.runs().usage(user).await.unwrap();
    assert_eq!(report.state, agent::runs::LimitState::Reached, "{report:?}");
    let (_, events) = ask(&one, user, "Devrais-je résilier Canal+ ?").await;
    assert_eq!(route(&events), "parser");
    assert_eq!(lock(&mock).bodies.len(), calls + 1, "no model call past the limit");
    assert!(uncertainty(&events)
        .warnings
        .iter()
        .any(|w| w.contains("limite mensuelle de dépense en modèles est atteinte")));
    // A plan the parser is sure of still runs.
    let (_, events) = ask(&one, user, "combien j'ai dépensé en courses en octobre 2026").await;
    assert!(events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))));
    one.runs().set_usage_limit(user, None).await.unwrap();
    assert!(one.runs().usage(user).await.unwrap().limits.is_empty());

    // Several requests the parser cannot split: the model plans them, the plan is shown.
    let year = serde_json::json!({"start": "2026-01-01", "end": "2027-01-01", "label": "2026"});
    let steps = serde_json::json!({"steps": [
        {"tool": "recurring_payments", "args": {"period": year}, "why": "Vos abonnements", "expect": "Une liste"},
        {"tool": "spending_summary", "args": {"period": year, "merchant": "spotify"}, "why": "Spotify", "expect": "Un total"}
    ]});
    lock(&mock).script.push_back(crate::llm_chat::calls(&[("propose_plan", steps)]));
    let (run, events) =
        ask(&one, user, "Devrais-je résilier Netflix, et combien j'ai payé Spotify cette année ?").await;
    let kinds: Vec<&str> = events.iter().map(ChatEvent::kind).collect();
    assert_eq!(kinds, ["plan_proposed", "token", "status"], "{events:?}");
    let trace = one.runs().trace(user, &run, Locale::Fr).await.unwrap();
    assert_eq!(trace.status, RunStatus::Proposed);
    assert_eq!(trace.plan.as_ref().unwrap().by, "model");
    let planner = trace.steps.iter().find(|s| s.kind == StepKind::Planner).unwrap();
    assert_eq!((planner.provider.as_deref(), planner.input_tokens), (Some("openai"), 800));
    assert!(!trace.steps.iter().any(|s| s.kind == StepKind::Tool), "nothing ran before the user agreed");
    // A plan with a step the registry refuses is not used: the usual route answers.
    let bad = serde_json::json!({"steps": [
        {"tool": "recurring_payments", "args": {"period": year}, "why": "a", "expect": "b"},
        {"tool": "transfer_money", "args": {}, "why": "a", "expect": "b"}
    ]});
    lock(&mock).script.push_back(crate::llm_chat::calls(&[("propose_plan", bad)]));
    lock(&mock).script.push_back(text(&["Je ne peux pas déplacer d'argent."]));
    let before = crate::support::settings_total(&one, user).await;
    let (_, events) =
        ask(&one, user, "Devrais-je résilier Netflix, et combien j'ai payé Spotify cette année ?").await;
    assert!(!events.iter().any(|e| matches!(e, ChatEvent::PlanProposed { .. })), "{events:?}");
    // The planner's call counts in the answer's usage too.
    let tokens = crate::support::usage_adds_up(&one, user, &events, before).await;
    assert_eq!(tokens, (800 + 1_000, 30 + 50));

    // The instance's limit, all users together, stops models the same way.
    let capped = sou(
        a.clone(),
        &base,
        UsageLimits { instance_monthly_eur_micros: Some(1), user_monthly_eur_micros: None },
    );
    let (_, events) = ask(&capped, user, "Devrais-je résilier Netflix ?").await;
    assert_eq!(route(&events), "parser");
    assert!(uncertainty(&events).warnings.iter().any(|w| w.contains("de ce serveur est atteinte")));
    let _: &Shared = &mock;
}

#[tokio::test]
async fn plans_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    plans(Store::open_in(dir.path()).await.unwrap()).await;
}

#[tokio::test]
async fn plans_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    plans(fresh.open_store().await.unwrap()).await;
    fresh.drop().await;
}

/// The events of `run` after `after`, until its next terminal event.
async fn follow(sou: &Sou, user: UserId, run: &str, after: u64) -> Vec<ChatEvent> {
    let stream = sou.runs().attach(user, run, after).await.unwrap();
    tokio::time::timeout(Duration::from_secs(20), stream.events.collect::<Vec<_>>()).await.unwrap()
}

fn started(events: &[ChatEvent]) -> Vec<u32> {
    events
        .iter()
        .filter_map(|e| if let ChatEvent::StepStarted { step, .. } = e { Some(*step) } else { None })
        .collect()
}

async fn plans(store: Store) {
    use backend::{RunAction, RunError};
    support::logs();
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    let slow = RunConfig { pause_between_steps: Duration::from_millis(400), ..RunConfig::default() };
    let sou = Sou::new(store.clone(), chrono_tz::UTC).with_today(today()).with_runs(slow);

    // Several requests in one message: a plan, shown, nothing run.
    let req = ChatRequest {
        message: "compare groceries and restaurants in 2025 and show my biggest grocery purchases".into(),
        ..ChatRequest::default()
    };
    let stream = sou.chat(user, req).await.unwrap();
    let run = stream.run_id.clone();
    let proposal: Vec<ChatEvent> = stream.events.collect().await;
    let kinds: Vec<&str> = proposal.iter().map(ChatEvent::kind).collect();
    assert_eq!(kinds, ["plan_proposed", "token", "status"]);
    let trace = sou.runs().trace(user, &run, Locale::En).await.unwrap();
    assert_eq!(trace.status, RunStatus::Proposed);
    let plan = trace.plan.unwrap();
    let tools: Vec<&str> = plan.steps.iter().map(|s| s.call.name()).collect();
    assert_eq!(tools, ["spending_summary", "spending_summary", "list_transactions"]);
    assert!(!trace.steps.iter().any(|s| s.kind == StepKind::Tool), "nothing ran");

    // Edited: the restaurants step removed, the list first, the groceries step on 2026.
    let mut steps: Vec<serde_json::Value> =
        plan.steps.iter().map(|s| serde_json::to_value(s).unwrap()).collect();
    steps[0]["args"]["period"] =
        serde_json::to_value(agent::period::year(2026, Locale::En).unwrap()).unwrap();
    let edited = vec![steps[2].clone(), steps[0].clone()];
    // A step the registry refuses is refused, and the plan stays as it was.
    let mut bad = edited.clone();
    bad[1]["args"]["group_by"] = "planet".into();
    assert!(matches!(sou.runs().edit_plan(user, &run, &bad).await, Err(RunError::Invalid(_))));
    let plan = sou.runs().edit_plan(user, &run, &edited).await.unwrap();
    assert_eq!(plan.steps.len(), 2);
    // Accepted: the edited steps run, in their new order, and stream.
    sou.runs().act(user, &run, RunAction::Accept).await.unwrap();
    let ran = follow(&sou, user, &run, proposal.len() as u64).await;
    assert_eq!(started(&ran), [1, 2]);
    let results: Vec<&agent::ToolOutput> = ran
        .iter()
        .filter_map(|e| if let ChatEvent::StepResult { result, .. } = e { Some(&**result) } else { None })
        .collect();
    match results.as_slice() {
        [agent::ToolOutput::ListTransactions(list), agent::ToolOutput::SpendingSummary(sum)] => {
            assert_eq!(list.period.start, Date::new(2025, 1, 1).unwrap());
            assert_eq!(sum.period.start, Date::new(2026, 1, 1).unwrap());
            assert_eq!(sum.category.as_ref().unwrap().key, "groceries");
        }
        other => panic!("{other:?}"),
    }
    assert!(ran.last().is_some_and(ChatEvent::is_terminal));
    let trace = sou.runs().trace(user, &run, Locale::En).await.unwrap();
    assert_eq!((trace.status, trace.next_step), (RunStatus::Done, 2));
    // The conversation shows the plan and its results as one answer.
    let view = sou.conversations().get(user, &trace.conversation_id, Locale::En).await.unwrap();
    let answer = view.messages.iter().find(|m| m.id.as_deref() == Some(run.as_str())).unwrap();
    assert_eq!(answer.events.iter().filter(|e| matches!(e, ChatEvent::StepResult { .. })).count(), 2);
    assert!(answer.trace.is_some());
    // Done: nothing more applies.
    assert!(matches!(
        sou.runs().act(user, &run, RunAction::Accept).await,
        Err(RunError::State(RunStatus::Done))
    ));

    // A month's review: paused after a step, resumed, then cancelled.
    let req = ChatRequest { message: "prépare mon bilan d'octobre 2026".into(), ..ChatRequest::default() };
    let stream = sou.chat(user, req).await.unwrap();
    let run = stream.run_id.clone();
    let proposal: Vec<ChatEvent> = stream.events.collect().await;
    let total = match &proposal[0] {
        ChatEvent::PlanProposed { plan, .. } => plan.steps.len(),
        other => panic!("{other:?}"),
    };
    assert_eq!(total, 5);
    sou.runs().act(user, &run, RunAction::Accept).await.unwrap();
    let mut live = sou.runs().attach(user, &run, proposal.len() as u64).await.unwrap();
    // The first step's result, then a pause: no step starts while paused.
    loop {
        let e = tokio::time::timeout(Duration::from_secs(10), live.events.next()).await.unwrap().unwrap();
        if matches!(e, ChatEvent::StepResult { step: 1, .. }) {
            break;
        }
    }
    sou.runs().act(user, &run, RunAction::Pause).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let paused = sou.runs().trace(user, &run, Locale::Fr).await.unwrap();
    assert_eq!(paused.status, RunStatus::Paused);
    assert!(paused.next_step <= 2, "{}", paused.next_step);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        sou.runs().trace(user, &run, Locale::Fr).await.unwrap().next_step,
        paused.next_step,
        "no step ran while paused"
    );
    assert!(matches!(
        sou.runs().act(user, &run, RunAction::Pause).await,
        Err(RunError::State(RunStatus::Paused))
    ));
    sou.runs().act(user, &run, RunAction::Resume).await.unwrap();
    // One more step, then cancelled: the rest never runs.
    loop {
        let e = tokio::time::timeout(Duration::from_secs(10), live.events.next()).await.unwrap().unwrap();
        if matches!(e, ChatEvent::StepResult { step, .. } if step == paused.next_step + 1) {
            break;
        }
    }
    sou.runs().act(user, &run, RunAction::Cancel).await.unwrap();
    let mut rest = Vec::new();
    while let Some(e) = tokio::time::timeout(Duration::from_secs(10), live.events.next()).await.unwrap() {
        rest.push(e);
    }
    assert!(
        rest.iter().any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "cancelled")),
        "{rest:?}"
    );
    assert!(rest.last().is_some_and(ChatEvent::is_terminal));
    let all = sou.runs().events_for_test(user, &run).await;
    let steps = started(&all);
    assert!(steps.len() < total, "cancelled before the end: {steps:?}");
    let mut unique = steps.clone();
    unique.dedup();
    assert_eq!(unique, steps, "no step ran twice");
    assert_eq!(sou.runs().trace(user, &run, Locale::Fr).await.unwrap().status, RunStatus::Cancelled);

    // Accepted the moment `plan_proposed` arrives, before its answer is stored: it waits
    // for it, then runs; followed from its first event, the stream goes on past the
    // proposal's status to the steps' end.
    let req =
        ChatRequest { message: "prépare mon bilan de septembre 2026".into(), ..ChatRequest::default() };
    let mut stream = sou.chat(user, req).await.unwrap();
    let run = stream.run_id.clone();
    assert!(matches!(stream.events.next().await, Some(ChatEvent::PlanProposed { .. })));
    sou.runs().act(user, &run, RunAction::Accept).await.unwrap();
    drop(stream);
    let all = follow(&sou, user, &run, 0).await;
    let statuses = all.iter().filter(|e| e.is_terminal()).count();
    assert_eq!(statuses, 2, "the proposal's and the steps' ends: {all:?}");
    assert_eq!(started(&all), [1, 2, 3, 4, 5]);
    let trace = sou.runs().trace(user, &run, Locale::Fr).await.unwrap();
    assert_eq!((trace.status, trace.next_step), (RunStatus::Done, 5));
    let view = sou.conversations().get(user, &trace.conversation_id, Locale::Fr).await.unwrap();
    let answer = view.messages.iter().find(|m| m.id.as_deref() == Some(run.as_str())).unwrap();
    assert!(answer.events.iter().any(|e| matches!(e, ChatEvent::PlanProposed { .. })));
    assert_eq!(answer.events.iter().filter(|e| matches!(e, ChatEvent::StepResult { .. })).count(), 5);

    // Rejected: nothing runs, and it cannot be accepted after.
    let req = ChatRequest { message: "monthly review for October 2026".into(), ..ChatRequest::default() };
    let stream = sou.chat(user, req).await.unwrap();
    let run = stream.run_id.clone();
    let _: Vec<ChatEvent> = stream.events.collect().await;
    sou.runs().act(user, &run, RunAction::Reject).await.unwrap();
    assert!(matches!(
        sou.runs().act(user, &run, RunAction::Accept).await,
        Err(RunError::State(RunStatus::Rejected))
    ));
    let trace = sou.runs().trace(user, &run, Locale::En).await.unwrap();
    assert!(!trace.steps.iter().any(|s| s.kind == StepKind::Tool));
}
