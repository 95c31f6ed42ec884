//! Backend against a real SQLite file: migrations, the demo ledger, tools, the chat pipeline.

use agent::protocol::{ChatEvent, Role};
use agent::{Confidence, Date, GroupBy, Period, SummaryArgs, ToolCall, ToolOutput};
use backend::testing::tools;
use backend::{demo, BackendError, ChatRequest, Sou, Store, StoreError, UserId};
use futures::StreamExt;
use serde_json::json;

/// The day the tests pretend it is: two days after the demo ledger's last line.
fn today() -> Date {
    Date::new(2026, 11, 22).unwrap()
}

async fn run(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: agent::Locale,
) -> Result<ToolOutput, BackendError> {
    tools::run(store, user, call, locale, today()).await
}

async fn demo_store() -> (tempfile::TempDir, Store, UserId) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(&dir.path().join("data")).await.unwrap();
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    (dir, store, user)
}

/// The reference: a plain SQL sum over the ledger, written independently of the tool.
async fn sql_spent(store: &Store, user: UserId, category: &str, start: &str, end: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = $2 AND t.amount_minor < 0 AND t.date >= $3 AND t.date < $4",
    )
    .bind(user.0)
    .bind(category)
    .bind(start)
    .bind(end)
    .fetch_one(store.pool())
    .await
    .unwrap()
}

fn january(group_by: GroupBy, category: Option<&str>) -> ToolCall {
    ToolCall::SpendingSummary(SummaryArgs {
        period: Period {
            start: Date::new(2026, 1, 1).unwrap(),
            end: Date::new(2026, 2, 1).unwrap(),
            label: "janvier 2026".into(),
            words: String::new(),
        },
        category: category.map(str::to_string),
        merchant: None,
        account: None,
        amount_min: None,
        amount_max: None,
        exclude_category: None,
        exclude_merchant: None,
        group_by,
        top: None,
        average: None,
    })
}

#[tokio::test]
async fn demo_ledger_is_seeded_once() {
    let (_dir, store, user) = demo_store().await;
    let n: i64 =
        sqlx::query_scalar("SELECT count(*) FROM transactions").fetch_one(store.pool()).await.unwrap();
    assert!(n >= 1500, "{n} transactions");
    assert!(!demo::seed(&store, user).await.unwrap(), "a second seed must do nothing");
    let again: i64 =
        sqlx::query_scalar("SELECT count(*) FROM transactions").fetch_one(store.pool()).await.unwrap();
    assert_eq!(n, again);
    let vocab = store.vocabulary(user).await.unwrap();
    assert!(vocab.categories.iter().any(|c| c.key == "groceries" && c.name_fr == "Courses"));
    assert!(vocab.merchants.iter().any(|m| m.key == "carrefour"));
    let accounts: Vec<_> =
        vocab.accounts.iter().map(|a| (a.key.as_str(), a.name_en.as_str(), a.kind.as_deref())).collect();
    assert_eq!(
        accounts,
        [("compte_courant", "Current account", Some("checking")), ("livret_a", "Livret A", Some("savings"))]
    );
    assert!(vocab.accounts[1].aliases.iter().any(|a| a == "livret"));
}

#[tokio::test]
async fn spending_summary_matches_sql() {
    let (_dir, store, user) = demo_store().await;
    let expected = sql_spent(&store, user, "groceries", "2026-01-01", "2026-02-01").await;
    assert!(expected > 0);
    let out = run(&store, user, &january(GroupBy::None, Some("groceries")), agent::Locale::Fr).await.unwrap();
    let ToolOutput::SpendingSummary(r) = out else { panic!("wrong output") };
    assert_eq!(r.total.minor, expected);
    assert_eq!(r.total.currency.as_str(), "EUR");
    assert_eq!(r.category.as_ref().map(|c| c.label.as_str()), Some("Courses"));
    assert_eq!(r.source_ids.len(), (r.count as usize).min(agent::SOURCE_PAGE));
    assert_eq!(r.source_count, u64::from(r.count));
    assert!(r.transactions.iter().all(|t| t.amount.minor < 0 && t.category.as_deref() == Some("Courses")));
    let sum_rows: i64 = r.transactions.iter().map(|t| -t.amount.minor).sum();
    if !r.transactions_truncated {
        assert_eq!(sum_rows, expected);
    }
}

#[tokio::test]
async fn breakdown_groups_add_up_and_exclude_transfers() {
    let (_dir, store, user) = demo_store().await;
    let out = run(&store, user, &january(GroupBy::Category, None), agent::Locale::En).await.unwrap();
    let ToolOutput::SpendingSummary(r) = out else { panic!("wrong output") };
    let sum: i64 = r.groups.iter().map(|g| g.total.minor).sum();
    assert_eq!(sum, r.total.minor);
    assert!(r.groups.windows(2).all(|w| w[0].total.minor >= w[1].total.minor), "largest first");
    assert!(r.groups.iter().any(|g| g.label == "Groceries"));
    assert!(!r.groups.iter().any(|g| g.key == "savings" || g.key == "income"), "transfers are not spending");
    // By week: Mondays, in date order, adding up to the same total.
    let ToolOutput::SpendingSummary(w) =
        run(&store, user, &january(GroupBy::Week, None), agent::Locale::En).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(w.groups.iter().map(|g| g.total.minor).sum::<i64>(), r.total.minor);
    assert!(w.groups.windows(2).all(|p| p[0].key < p[1].key));
    assert!(
        w.groups.iter().all(|g| Date::parse_iso(&g.key).is_some_and(|d| d.weekday() == 0)),
        "weeks start on Monday"
    );
    assert_eq!(w.groups.first().map(|g| g.key.as_str()), Some("2025-12-29"));
    // Weeks are drawn as a line, point for point; categories are not.
    let chart = w.chart.as_ref().expect("a line through the weeks");
    assert_eq!(chart.kind, agent::chart::ChartKind::Line);
    assert_eq!(chart.title, "Spending by week — janvier 2026");
    assert_eq!(chart.currency, Some(r.total.currency));
    let drawn: Vec<(&str, i64)> =
        chart.points.iter().map(|p| (p.label.as_str(), (p.value * 100.0).round() as i64)).collect();
    let groups: Vec<(&str, i64)> = w.groups.iter().map(|g| (g.label.as_str(), g.total.minor)).collect();
    assert_eq!(drawn, groups);
    assert_eq!(r.chart, None);
    // The top 3 are the three largest groups; the total is unchanged.
    let mut top = january(GroupBy::Category, None);
    if let ToolCall::SpendingSummary(a) = &mut top {
        a.top = Some(3);
    }
    let ToolOutput::SpendingSummary(t) = run(&store, user, &top, agent::Locale::En).await.unwrap() else {
        panic!()
    };
    assert_eq!(t.groups, r.groups[..3]);
    assert_eq!(t.total, r.total);
    // Asking for the transfer category by name does count it.
    let out = run(&store, user, &january(GroupBy::None, Some("savings")), agent::Locale::En).await.unwrap();
    let ToolOutput::SpendingSummary(r) = out else { panic!("wrong output") };
    assert_eq!(r.total.minor, 30_000);
}

#[tokio::test]
async fn amount_bounds_filter_by_size() {
    let (_dir, store, user) = demo_store().await;
    let expected: (i64, i64) = sqlx::query_as(
        "SELECT count(*), COALESCE(SUM(amount_minor), 0) FROM transactions
         WHERE user_id = $1 AND date >= '2025-01-01' AND date < '2026-01-01' AND abs(amount_minor) BETWEEN 10000 AND 50000",
    )
    .bind(user.0)
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert!(expected.0 > 10);
    let call: ToolCall = serde_json::from_value(json!({"tool": "list_transactions", "args": {
        "period": {"start": "2025-01-01", "end": "2026-01-01", "label": "2025"},
        "amount_min": {"minor": 10000, "currency": "EUR"}, "amount_max": {"minor": 50000, "currency": "EUR"}, "limit": 5
    }}))
    .unwrap();
    let ToolOutput::ListTransactions(r) = run(&store, user, &call, agent::Locale::En).await.unwrap() else {
        panic!()
    };
    assert_eq!((i64::from(r.count), r.net.minor), expected);
    assert_eq!(r.transactions.len(), 5);
    assert!(r.truncated);
    assert!(r.transactions.iter().all(|t| (10000..=50000).contains(&t.amount.minor.abs())));
    // Another currency than the ledger's is refused, not converted.
    let mut usd = call.clone();
    usd.set_amounts(Some(agent::Money::new(100, agent::Currency::new("USD").unwrap())), None);
    let err = run(&store, user, &usd, agent::Locale::En).await.unwrap_err();
    assert!(err.to_string().contains("USD"), "{err}");
}

#[tokio::test]
async fn income_counts_income_categories_only() {
    let (_dir, store, user) = demo_store().await;
    let expected: i64 = sqlx::query_scalar(
        "SELECT SUM(t.amount_minor) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.kind = 'income' AND t.amount_minor > 0 AND t.date >= '2025-01-01' AND t.date < '2026-01-01'",
    )
    .bind(user.0)
    .fetch_one(store.pool())
    .await
    .unwrap();
    let call: ToolCall = serde_json::from_value(json!({"tool": "income_summary", "args": {
        "period": {"start": "2025-01-01", "end": "2026-01-01", "label": "2025"}, "group_by": "month"
    }}))
    .unwrap();
    let ToolOutput::IncomeSummary(r) = run(&store, user, &call, agent::Locale::Fr).await.unwrap() else {
        panic!()
    };
    assert_eq!(r.total.minor, expected);
    // Twelve salaries, a thirteenth month, and the Livret A's interest on 31 December.
    let interest: i64 = sqlx::query_scalar(
        "SELECT amount_minor FROM transactions WHERE user_id = $1 AND raw_label = 'INTERETS CREDITEURS 2025'",
    )
    .bind(user.0)
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert!(interest > 0);
    assert_eq!(r.total.minor, 13 * 365_000 + interest);
    assert_eq!(r.groups.len(), 12);
    let chart = r.chart.as_ref().expect("a line through the months");
    assert_eq!(
        (chart.title.as_str(), chart.x.as_str(), chart.points.len()),
        ("Revenus par mois — 2025", "mois", 12)
    );
    assert!(r.transactions.iter().all(|t| t.amount.minor > 0 && t.category.as_deref() == Some("Revenus")));
}

#[tokio::test]
async fn compare_periods_is_two_summaries_and_their_change() {
    let (_dir, store, user) = demo_store().await;
    let jan26 = sql_spent(&store, user, "groceries", "2026-01-01", "2026-02-01").await;
    let jan25 = sql_spent(&store, user, "groceries", "2025-01-01", "2025-02-01").await;
    let call: ToolCall = serde_json::from_value(json!({"tool": "compare_periods", "args": {
        "current": {"start": "2026-01-01", "end": "2026-02-01", "label": "janvier 2026"},
        "reference": {"start": "2025-01-01", "end": "2025-02-01", "label": "janvier 2025"},
        "category": "groceries"
    }}))
    .unwrap();
    let ToolOutput::ComparePeriods(r) = run(&store, user, &call, agent::Locale::Fr).await.unwrap() else {
        panic!()
    };
    assert_eq!((r.current.total.minor, r.reference.total.minor), (jan26, jan25));
    assert_eq!(r.difference.minor, jan26 - jan25);
    assert_eq!(r.change_basis_points, Some((jan26 - jan25) * 10_000 / jan25));
    let text = ToolOutput::ComparePeriods(r).answer(agent::Locale::Fr);
    assert!(text.contains("janvier 2025"), "{text}");
}

#[tokio::test]
async fn label_text_search_is_case_insensitive_and_literal() {
    let (_dir, store, user) = demo_store().await;
    let call = |text: &str| -> ToolCall {
        serde_json::from_value(json!({"tool": "list_transactions", "args": {
            "period": {"start": "2025-01-01", "end": "2026-01-01", "label": "2025"}, "text": text
        }}))
        .unwrap()
    };
    let ToolOutput::ListTransactions(r) =
        run(&store, user, &call("navigo"), agent::Locale::Fr).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(r.count, 12, "one Navigo pass a month");
    assert!(r.transactions.iter().all(|t| t.label.contains("NAVIGO")));
    // LIKE wildcards in the user's text are literal characters.
    let ToolOutput::ListTransactions(r) = run(&store, user, &call("%"), agent::Locale::Fr).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(r.count, 0);
}

#[tokio::test]
async fn unknown_filter_is_a_clear_error() {
    let (_dir, store, user) = demo_store().await;
    let err =
        run(&store, user, &january(GroupBy::None, Some("unicorns")), agent::Locale::En).await.unwrap_err();
    assert!(matches!(&err, BackendError::BadRequest(m) if m.contains("unicorns")), "{err}");
}

#[tokio::test]
async fn other_users_see_nothing() {
    let (_dir, store, _user) = demo_store().await;
    let stranger = store.ensure_user("stranger").await.unwrap();
    sqlx::query("UPDATE users SET currency = 'EUR' WHERE id = $1")
        .bind(stranger.0)
        .execute(store.pool())
        .await
        .unwrap();
    let out = run(&store, stranger, &january(GroupBy::None, None), agent::Locale::En).await.unwrap();
    let ToolOutput::SpendingSummary(r) = out else { panic!("wrong output") };
    assert_eq!((r.total.minor, r.count), (0, 0));
}

async fn collect(sou: &Sou, user: UserId, req: ChatRequest) -> (String, Vec<ChatEvent>) {
    let stream = sou.chat(user, req).await.unwrap();
    (stream.conversation_id, stream.events.collect().await)
}

#[tokio::test]
async fn chat_streams_plan_result_and_done_and_stores_everything() {
    let (_dir, store, user) = demo_store().await;
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let expected = sql_spent(&store, user, "groceries", "2026-01-01", "2026-02-01").await;
    let (id, events) = collect(
        &sou,
        user,
        ChatRequest {
            message: "Combien j'ai dépensé en courses en janvier 2026 ?".into(),
            ..Default::default()
        },
    )
    .await;
    let kinds: Vec<&str> = events.iter().map(ChatEvent::kind).collect();
    assert_eq!(kinds, ["plan", "tool_result", "token", "status"]);
    let ChatEvent::ToolResult(ToolOutput::SpendingSummary(r)) = &events[1] else { panic!() };
    assert_eq!(r.total.minor, expected);
    let ChatEvent::Token { content, format } = &events[2] else { panic!() };
    // Sou's own sentence, not a model's Markdown.
    assert_eq!(*format, agent::protocol::TextFormat::Text);
    assert!(
        content.contains(&agent::Money::new(expected, agent::Currency::EUR).format(agent::Locale::Fr)),
        "{content}"
    );

    // A follow-up in the same conversation reuses the plan, with low confidence: no
    // LLM is configured, so Sou asks, offering the plan it would run.
    let (_, events) = collect(
        &sou,
        user,
        ChatRequest {
            message: "et en février ?".into(),
            conversation_id: Some(id.clone()),
            ..Default::default()
        },
    )
    .await;
    let ChatEvent::Plan { plan } = &events[0] else { panic!("{events:?}") };
    assert_eq!(plan.meta.confidence, Confidence::Low);
    assert_eq!(plan.call.period().unwrap().start, Date::new(2026, 2, 1).unwrap());
    let ChatEvent::Clarify { clarification } = &events[1] else { panic!("{events:?}") };
    let suggested = clarification.suggestions[0].plan.clone();
    assert!(events.last().is_some_and(ChatEvent::is_terminal));

    // Clicking the suggestion sends its plan: validated, then run.
    let (_, events) = collect(
        &sou,
        user,
        ChatRequest {
            message: clarification.suggestions[0].label.clone(),
            conversation_id: Some(id.clone()),
            plan: Some(serde_json::to_value(&suggested).unwrap()),
            ..Default::default()
        },
    )
    .await;
    let feb = sql_spent(&store, user, "groceries", "2026-02-01", "2026-03-01").await;
    let ChatEvent::ToolResult(ToolOutput::SpendingSummary(r)) = &events[1] else { panic!("{events:?}") };
    assert_eq!(r.total.minor, feb);

    let view = sou.conversations().get(user, &id, agent::Locale::En).await.unwrap();
    assert_eq!(view.messages.len(), 6);
    assert_eq!(view.messages[0].role, Role::User);
    assert_eq!(view.messages[0].content, "Combien j'ai dépensé en courses en janvier 2026 ?");
    assert!(view.messages[1].events.last().is_some_and(ChatEvent::is_terminal));

    // Someone else's conversation does not exist for them.
    let stranger = store.ensure_user("stranger").await.unwrap();
    assert!(matches!(
        sou.conversations().get(stranger, &id, agent::Locale::En).await,
        Err(BackendError::NotFound)
    ));
    let err = sou
        .chat(stranger, ChatRequest { message: "hi".into(), conversation_id: Some(id), ..Default::default() })
        .await
        .err();
    assert!(matches!(err, Some(BackendError::NotFound)));
}

/// `message` asked in the chat: its plan is high, and what ran is a spending summary —
/// returned with Sou's sentence (the stream's text tokens, joined).
async fn answered_high(sou: &Sou, user: UserId, message: &str) -> (agent::SummaryResult, String) {
    let (_, events) = collect(sou, user, ChatRequest { message: message.into(), ..Default::default() }).await;
    let ChatEvent::Plan { plan } = &events[0] else { panic!("{events:?}") };
    assert_eq!(plan.meta.confidence, Confidence::High, "{message}");
    let Some(ChatEvent::ToolResult(ToolOutput::SpendingSummary(r))) =
        events.iter().find(|e| matches!(e, ChatEvent::ToolResult(_)))
    else {
        panic!("{message}: nothing ran {events:?}")
    };
    let text = events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Token { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    (r.clone(), text)
}

/// "courses hors Picard", "restaurants excluding Deliveroo": the category's total
/// without the merchant, equal to a plain SQL sum written apart from the tool, and the
/// answer says what it left out.
#[tokio::test]
async fn an_exclusion_leaves_the_merchant_out() {
    let (_dir, store, user) = demo_store().await;
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    for (message, category, merchant, words) in [
        ("courses hors Picard en 2025", "groceries", "picard", "(hors Picard)"),
        ("restaurants excluding Deliveroo in 2025", "restaurants", "deliveroo", "(excluding Deliveroo)"),
    ] {
        let all = sql_spent(&store, user, category, "2025-01-01", "2026-01-01").await;
        let left_out: i64 = sqlx::query_scalar(
            "SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t
             JOIN categories c ON c.id = t.category_id JOIN merchants m ON m.id = t.merchant_id
             WHERE t.user_id = $1 AND c.key = $2 AND m.key = $3 AND t.amount_minor < 0
               AND t.date >= '2025-01-01' AND t.date < '2026-01-01'",
        )
        .bind(user.0)
        .bind(category)
        .bind(merchant)
        .fetch_one(store.pool())
        .await
        .unwrap();
        assert!(left_out > 0 && all > left_out, "{message}: the demo must have both");
        let (r, text) = answered_high(&sou, user, message).await;
        assert_eq!(r.total.minor, all - left_out, "{message}");
        assert!(text.contains(words), "{message}: {text}");
    }
    // Leaving out what the call filters on is a mistake, not an empty answer.
    let mut call = january(GroupBy::None, Some("groceries"));
    call.set_excluded(Some("groceries".into()), None);
    let err = run(&store, user, &call, agent::Locale::En).await.unwrap_err();
    assert!(matches!(err, BackendError::BadRequest(_)), "{err}");
}

/// "average monthly spend on transport in 2025": the year's total over 12 months; per
/// transaction, over the transactions; "this year" divides by the months so far.
#[tokio::test]
async fn averages_divide_the_total_the_sql_gives() {
    let (_dir, store, user) = demo_store().await;
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let total = sql_spent(&store, user, "transport", "2025-01-01", "2026-01-01").await;
    let count: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = 'transport' AND t.amount_minor < 0
           AND t.date >= '2025-01-01' AND t.date < '2026-01-01'",
    )
    .bind(user.0)
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert!(total > 0 && count > 1);
    let rounded = |n: i64, d: i64| (2 * n + d) / (2 * d);
    for (message, expected, over, words) in [
        ("average monthly spend on transport in 2025", rounded(total, 12), 1200, "over 12 months"),
        ("panier moyen en transports en 2025", rounded(total, count), count as u64 * 100, "opérations"),
    ] {
        let (r, text) = answered_high(&sou, user, message).await;
        assert_eq!(r.total.minor, total, "{message}");
        let a = r.average.expect("an average");
        assert_eq!((a.amount.minor, a.over_hundredths), (expected, over), "{message}");
        assert!(text.contains(words), "{message}: {text}");
    }
    // The demo's today is 22 November 2026: this year so far is 10 months and 22/30.
    let mut call = january(GroupBy::None, Some("transport"));
    if let ToolCall::SpendingSummary(a) = &mut call {
        a.period = agent::period::year(2026, agent::Locale::En).unwrap();
        a.average = Some(agent::AveragePer::Month);
    }
    let ToolOutput::SpendingSummary(r) = run(&store, user, &call, agent::Locale::En).await.unwrap() else {
        panic!()
    };
    assert_eq!(r.average.unwrap().over_hundredths, 1073);
}

/// A word that would change the calculation and that the parser cannot read stops the
/// run: no figure, a question — and the plan as parsed (a misspelt exclusion read as
/// the merchant itself: Picard's total, the opposite) is not among the one-click answers.
#[tokio::test]
async fn an_unread_exclusion_asks_instead_of_answering_the_opposite() {
    let (_dir, store, user) = demo_store().await;
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    for message in ["courses 2025 sans picrd", "groceries in 2025 without picrd"] {
        let (_, events) =
            collect(&sou, user, ChatRequest { message: message.into(), ..Default::default() }).await;
        assert!(!events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))), "{message}: ran {events:?}");
        let ChatEvent::Plan { plan } = &events[0] else { panic!("{events:?}") };
        assert_eq!(plan.meta.confidence, Confidence::Low, "{message}");
        let ChatEvent::Clarify { clarification } = &events[1] else { panic!("{events:?}") };
        assert!(!clarification.suggestions.is_empty(), "{message}");
        for s in &clarification.suggestions {
            assert_eq!(s.plan.call.merchant(), None, "{message}: offers {}", s.label);
        }
        // The category alone is offered first.
        assert!(clarification.suggestions[0].plan.call.category().is_some(), "{message}");
        assert!(events.last().is_some_and(ChatEvent::is_terminal));
    }
}

/// A write request is proposed, never run: its effect waits for the user's approval.
/// One the parser cannot read (moving money) runs nothing, says what Sou does change,
/// and offers the read nearest to it.
#[tokio::test]
async fn a_write_request_is_proposed_and_an_unreadable_one_asked() {
    let (_dir, store, user) = demo_store().await;
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let (_, events) = collect(
        &sou,
        user,
        ChatRequest {
            message: "set my restaurant budget to 300 € from December 2026".into(),
            ..Default::default()
        },
    )
    .await;
    assert!(!events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))), "ran {events:?}");
    let approval = events
        .iter()
        .find_map(|e| match e {
            ChatEvent::ApprovalRequired { approval } => Some(approval),
            _ => None,
        })
        .expect("an approval");
    assert_eq!(approval.plan.call.name(), "set_budget");
    assert_eq!(approval.state, agent::ApprovalState::Pending);
    assert!(
        approval.effect.lines[0].contains("→ €300.00 a month from December 2026"),
        "{:?}",
        approval.effect
    );
    assert!(events.last().is_some_and(ChatEvent::is_terminal));

    for (message, words) in
        [("vire 100 € sur le livret", "jamais d'argent"), ("send 100 euros to Carrefour", "never money")]
    {
        let (_, events) =
            collect(&sou, user, ChatRequest { message: message.into(), ..Default::default() }).await;
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, ChatEvent::ToolResult(_) | ChatEvent::ApprovalRequired { .. })),
            "{message}: {events:?}"
        );
        let clarification = events.iter().find_map(|e| match e {
            ChatEvent::Clarify { clarification } => Some(clarification),
            _ => None,
        });
        let clarification = clarification.unwrap_or_else(|| panic!("{message}: {events:?}"));
        assert!(clarification.question.contains(words), "{message}: {}", clarification.question);
    }
}

#[tokio::test]
async fn chat_rejects_bad_input_before_streaming() {
    let (_dir, store, user) = demo_store().await;
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let bad = [
        ChatRequest { message: "   ".into(), ..Default::default() },
        ChatRequest { message: "x".repeat(5000), ..Default::default() },
        ChatRequest { message: "hi".into(), locale: Some("de".into()), ..Default::default() },
        ChatRequest {
            message: "hi".into(),
            plan: Some(json!({"tool": "delete_everything", "args": {}})),
            ..Default::default()
        },
    ];
    for req in bad {
        let err = sou.chat(user, req).await.err().expect("an error");
        assert!(matches!(err, BackendError::BadRequest(_) | BackendError::InvalidPlan(_)), "{err}");
    }
}

#[tokio::test]
async fn a_failed_migration_stops_opening() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    sqlx::query("UPDATE _sqlx_migrations SET checksum = x'00'").execute(store.pool()).await.unwrap();
    drop(store);
    let err = Store::open_in(dir.path()).await.expect_err("must fail");
    assert!(matches!(err, StoreError::Migrate(_)), "{err}");
    let err = Store::open("postgres://localhost/sou").await.expect_err("must fail");
    assert!(err.to_string().contains("postgres"), "{err}");
}

#[tokio::test]
async fn largest_first_lists_the_biggest_debits() {
    let (_dir, store, user) = demo_store().await;
    let call: ToolCall = serde_json::from_value(json!({"tool": "list_transactions", "args": {
        "period": {"start": "2025-01-01", "end": "2026-01-01", "label": "2025"},
        "direction": "debit", "order": "largest", "limit": 3
    }}))
    .unwrap();
    let ToolOutput::ListTransactions(r) = run(&store, user, &call, agent::Locale::En).await.unwrap() else {
        panic!()
    };
    let expected: Vec<i64> = sqlx::query_scalar(
        "SELECT amount_minor FROM transactions WHERE user_id = $1 AND amount_minor < 0
         AND date >= '2025-01-01' AND date < '2026-01-01' ORDER BY amount_minor ASC LIMIT 3",
    )
    .bind(user.0)
    .fetch_all(store.pool())
    .await
    .unwrap();
    let got: Vec<i64> = r.transactions.iter().map(|t| t.amount.minor).collect();
    assert_eq!(got, expected);
    assert_eq!(r.order, agent::ListOrder::Largest);
    assert!(r.truncated && r.count > 3);
}

/// On SQLite too, a read whose `BEGIN` is cancelled half-way leaves the next write on
/// the store working (as on PostgreSQL, `postgres::a_cancelled_begin_leaves_no_transaction_behind`).
#[tokio::test]
async fn a_cancelled_begin_leaves_no_transaction_behind_on_sqlite() {
    use futures::FutureExt;
    let dir = tempfile::tempdir().unwrap();
    let store = backend::Store::open_in(dir.path()).await.unwrap();
    let user = store.ensure_user("alice").await.unwrap();
    for round in 0..200 {
        drop(store.tenant_read(user).now_or_never());
        tokio::task::yield_now().await;
        let mut tx = store.tenant(user).await.unwrap();
        sqlx::query("INSERT INTO conversations (id, user_id, title) VALUES ($2, $1, $2)")
            .bind(user.0)
            .bind(format!("round {round}"))
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        tx.commit().await.unwrap();
    }
}
