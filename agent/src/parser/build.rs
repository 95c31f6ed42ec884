//! The plan builder: a tool call from the slots a message filled, the plan around it,
//! and the period a question about now means when it names none.

use super::entities::Unplaced;
use super::intent::Kind;
use crate::args::{Direction, GroupBy, Period, DEFAULT_LIST_LIMIT};
use crate::date::Date;
use crate::locale::Locale;
use crate::period;
use crate::plan::{PlanMeta, ToolCallPlan};
use crate::reason::{confidence_of, Reason, ReasonCode};
use crate::tool::ToolCall;
use crate::tool::{
    activity::ActivityArgs, balances::BalancesArgs, budget_status::BudgetArgs, cash_flow::CashFlowArgs,
    list_transactions::ListTransactionsArgs, recurring_payments::RecurringArgs,
    spending_summary::SummaryArgs,
};

pub(crate) fn plan(call: ToolCall, reasons: Vec<Reason>, locale: Locale, today: Date) -> ToolCallPlan {
    let confidence = confidence_of(&reasons);
    ToolCallPlan { call, meta: PlanMeta { confidence, confidence_reasons: reasons, locale, today } }
}

impl super::Parser {
    /// `call` offered as one of a question's answers: picking it is the user's choice.
    pub(super) fn picked(&self, call: ToolCall, locale: Locale, today: Date) -> crate::plan::Suggestion {
        let label = self.describe(&call, locale);
        let reasons = vec![Reason::new(ReasonCode::UserSelected, locale, &label)];
        crate::plan::Suggestion { label, plan: plan(call, reasons, locale, today) }
    }
}

/// The slots a plan fills, whatever its tool.
pub(crate) struct Slots {
    pub(crate) period: Period,
    pub(crate) category: Option<String>,
    pub(crate) merchant: Option<String>,
    pub(crate) account: Option<String>,
    pub(crate) amount_min: Option<crate::money::Money>,
    pub(crate) amount_max: Option<crate::money::Money>,
    pub(crate) group_by: GroupBy,
    pub(crate) top: Option<u32>,
    pub(crate) direction: Option<Direction>,
    /// A category and a merchant to leave out ("hors Picard").
    pub(crate) exclude: (Option<String>, Option<String>),
    /// "average monthly spend": what a summary's average divides by.
    pub(crate) average: Option<crate::args::AveragePer>,
}

impl Slots {
    /// A whole period, no filter, no grouping.
    pub(crate) fn over(period: Period) -> Slots {
        Slots {
            period,
            category: None,
            merchant: None,
            account: None,
            amount_min: None,
            amount_max: None,
            group_by: GroupBy::None,
            top: None,
            direction: None,
            exclude: (None, None),
            average: None,
        }
    }
}

impl Kind {
    /// Questions about now (a balance, a budget, what repeats): no period means the
    /// current one, not a guess.
    pub(crate) fn is_current(self) -> bool {
        matches!(self, Kind::Balance | Kind::Budget | Kind::Recurring)
    }
}

/// The period a point-in-time question means when it names none.
pub(crate) fn current_period(kind: Kind, today: Date, locale: Locale) -> Period {
    match kind {
        Kind::Balance => period::today(today, locale),
        Kind::Recurring => period::last_months(today, LOOKBACK_MONTHS, locale),
        _ => period::month(today, locale),
    }
}

/// How far back recurring payments and "my latest transactions" look when the message
/// does not say.
pub const LOOKBACK_MONTHS: u32 = 12;

/// The call of the tool that answers `kind`, with these slots. Slots a tool has no
/// place for are dropped.
pub(crate) fn call_for(kind: Kind, s: Slots) -> ToolCall {
    let summary = || SummaryArgs {
        period: s.period.clone(),
        category: s.category.clone(),
        merchant: s.merchant.clone(),
        account: s.account.clone(),
        amount_min: s.amount_min,
        amount_max: s.amount_max,
        group_by: s.group_by,
        top: s.top,
        exclude_category: s.exclude.0.clone(),
        exclude_merchant: s.exclude.1.clone(),
        average: s.average,
    };
    match kind {
        Kind::Spending => ToolCall::SpendingSummary(summary()),
        Kind::Income => ToolCall::IncomeSummary(summary()),
        Kind::List => ToolCall::ListTransactions(ListTransactionsArgs {
            period: s.period,
            category: s.category,
            merchant: s.merchant,
            account: s.account,
            direction: s.direction,
            amount_min: s.amount_min,
            amount_max: s.amount_max,
            exclude_category: s.exclude.0,
            exclude_merchant: s.exclude.1,
            text: None,
            order: crate::args::ListOrder::Newest,
            limit: DEFAULT_LIST_LIMIT,
        }),
        Kind::CashFlow => ToolCall::CashFlow(CashFlowArgs {
            period: s.period,
            account: s.account,
            group_by: if s.group_by.is_time() { s.group_by } else { GroupBy::None },
        }),
        Kind::Balance => ToolCall::Balances(BalancesArgs { period: s.period, account: s.account }),
        Kind::Budget => ToolCall::BudgetStatus(BudgetArgs { period: s.period, category: s.category }),
        Kind::Recurring => ToolCall::RecurringPayments(RecurringArgs {
            period: s.period,
            category: s.category,
            merchant: s.merchant,
        }),
        Kind::Activity => ToolCall::Activity(ActivityArgs {
            period: s.period,
            category: s.category,
            merchant: s.merchant,
            account: s.account,
            // Money going out is the tool's own default.
            direction: s.direction.filter(|d| *d == Direction::Credit),
        }),
    }
}

/// The previous call, answered by another tool ("et les transactions ?") over `period`.
pub(crate) fn convert(call: ToolCall, kind: Kind, group_by: Option<GroupBy>, period: Period) -> ToolCall {
    let same = matches!(
        (kind, &call),
        (Kind::Spending, ToolCall::SpendingSummary(_))
            | (Kind::Income, ToolCall::IncomeSummary(_))
            | (Kind::List, ToolCall::ListTransactions(_))
            | (Kind::CashFlow, ToolCall::CashFlow(_))
            | (Kind::Balance, ToolCall::Balances(_))
            | (Kind::Budget, ToolCall::BudgetStatus(_))
            | (Kind::Recurring, ToolCall::RecurringPayments(_))
            | (Kind::Activity, ToolCall::Activity(_))
    );
    if same {
        return call;
    }
    let (amount_min, amount_max) = call.amounts();
    let (c, m) = call.excluded();
    let excluded = (c.map(str::to_string), m.map(str::to_string));
    call_for(
        kind,
        Slots {
            period,
            category: call.category().map(str::to_string),
            merchant: call.merchant().map(str::to_string),
            account: call.account().map(str::to_string),
            amount_min,
            amount_max,
            group_by: group_by.unwrap_or_default(),
            top: None,
            direction: None,
            exclude: excluded,
            average: None,
        },
    )
}

pub(crate) fn push_unrecognized(reasons: &mut Vec<Reason>, words: &[Unplaced], locale: Locale) {
    // A word that would change the calculation stops the run; any other is harmless.
    let (meaning, harmless): (Vec<&Unplaced>, Vec<&Unplaced>) = words.iter().partition(|w| w.changes_meaning);
    let quote =
        |words: &[&Unplaced]| words.iter().map(|w| format!("« {} »", w.words)).collect::<Vec<_>>().join(", ");
    if !meaning.is_empty() {
        reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &quote(&meaning)));
    }
    if !harmless.is_empty() {
        reasons.push(Reason::new(ReasonCode::UnrecognizedWords, locale, &quote(&harmless)));
    }
}
