//! [`Sou`], the bag of services every surface (API, chat page, plain forms) holds: the
//! store, the time zone, accounts, bank imports and, when configured, the language
//! models. What it does with them lives elsewhere: the chat pipeline in `chat/`,
//! conversation storage in `conversations.rs`.

use std::sync::Arc;

use agent::{Date, Parser, Vocabulary};

use crate::approvals::{Approvals, ApprovalsOf, WriteConfig};
use crate::auth::{Auth, AuthConfig};
use crate::bank_accounts::BankAccounts;
use crate::budgets::Budgets;
use crate::calendar::Calendar;
use crate::datasets::Datasets;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::imports::Imports;
use crate::providers::Providers;
use crate::reports::Reports;
use crate::rules::Rules;
use crate::runs::{Runs, RunsOf};
use crate::store::Store;
use crate::vocabulary::Parsers;
use crate::widgets::{Widgets, DEFAULT_VISITOR_PERCENT};

/// Sou's server-side core, shared by every surface.
#[derive(Clone)]
pub struct Sou {
    pub(crate) store: Store,
    calendar: Calendar,
    pub(crate) providers: Option<Providers>,
    auth: Auth,
    imports: Imports,
    bank_accounts: BankAccounts,
    budgets: Budgets,
    rules: Rules,
    datasets: Datasets,
    pub(crate) approvals: Approvals,
    pub(crate) runs: Runs,
    parsers: Parsers,
    pub(crate) widgets: Widgets,
    reports: Reports,
}

impl Sou {
    /// On PostgreSQL, within a Tokio runtime, this starts the server's listener for
    /// other servers' runs (`runs/notify.rs`); it ends with the last clone.
    pub fn new(store: Store, timezone: chrono_tz::Tz) -> Sou {
        let auth = Auth::new(store.clone(), AuthConfig::default());
        let calendar = Calendar::new(timezone);
        let parsers = Parsers::default();
        let runs = Runs::new(store.clone(), calendar, parsers.clone());
        let imports = Imports::new(store.clone());
        let bank_accounts = BankAccounts::new(store.clone());
        let budgets = Budgets::new(store.clone(), calendar);
        let reports = Reports::new(store.clone(), calendar, parsers.clone());
        let widgets = Widgets::new(store.clone(), parsers.clone(), DEFAULT_VISITOR_PERCENT);
        let rules = Rules::new(store.clone());
        let datasets = Datasets::new(store.clone());
        let approvals = Approvals::new(store.clone(), parsers.clone());
        Sou {
            store,
            calendar,
            providers: None,
            auth,
            imports,
            bank_accounts,
            budgets,
            rules,
            datasets,
            approvals,
            runs,
            parsers,
            widgets,
            reports,
        }
    }

    /// The same, with these session lifetimes and sign-in limits.
    pub fn with_auth(mut self, config: AuthConfig) -> Sou {
        self.auth = Auth::new(self.store.clone(), config);
        self
    }

    /// Accounts, sessions and API tokens.
    pub fn auth(&self) -> &Auth {
        &self.auth
    }

    /// Bank file uploads and imports.
    pub fn imports(&self) -> &Imports {
        &self.imports
    }

    /// The user's bank accounts: listed with their balances, renamed.
    pub fn bank_accounts(&self) -> &BankAccounts {
        &self.bank_accounts
    }

    /// Budgets as Settings lists them, and the ledger's currency.
    pub fn budgets(&self) -> &Budgets {
        &self.budgets
    }

    /// Widget sites: their owner's settings, a visitor's token and rate.
    pub fn widgets(&self) -> &Widgets {
        &self.widgets
    }

    /// Shared reports: made from answers, listed, changed, revoked, and their pages.
    pub fn reports(&self) -> &Reports {
        &self.reports
    }

    /// Categorisation rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Datasets (analyst mode).
    pub fn datasets(&self) -> &Datasets {
        &self.datasets
    }

    /// The same, with this approval lifetime (and, for crash tests, a pause before a
    /// write runs).
    pub fn with_writes(mut self, config: WriteConfig) -> Sou {
        self.approvals.config = config;
        self
    }

    /// Proposed writes, their decisions, the changes they made and their undoing.
    pub fn approvals(&self) -> ApprovalsOf<'_> {
        ApprovalsOf::new(&self.approvals, self)
    }

    /// The user's conversations: read, listed, renamed, deleted, purged.
    pub fn conversations(&self) -> crate::conversations::Conversations<'_> {
        crate::conversations::Conversations {
            store: &self.store,
            runs: &self.runs,
            approvals: &self.approvals,
            widgets: &self.widgets,
        }
    }

    /// Answers as runs: their traces, sources and plans, usage, following one.
    pub fn runs(&self) -> RunsOf<'_> {
        RunsOf::new(&self.runs, self)
    }

    /// The same, recording runs this way (how long before a silent run is taken for
    /// stopped, the usage limits).
    pub fn with_runs(mut self, config: crate::runs::record::RunConfig) -> Sou {
        self.runs.config = config;
        self
    }

    /// The same, answering with language models too.
    pub fn with_providers(mut self, providers: Providers) -> Sou {
        self.providers = Some(providers);
        self
    }

    pub fn providers(&self) -> Option<&Providers> {
        self.providers.as_ref()
    }

    /// Closes the store's connections (at shutdown, after the answers in flight).
    pub async fn close(&self) {
        self.store.pool().close().await;
    }

    /// The periodic upkeep: SQLite's statistics and write-ahead log (pages checkpointed),
    /// then at most `months` months whose roll-up changed compared with their rows
    /// (how many were equal). Each part's failure is its own.
    pub async fn upkeep(&self, months: u32) -> (Result<u64, sqlx::Error>, Result<u64, BackendError>) {
        (self.store.maintain().await, crate::tools::check_months(&self.store, months).await)
    }

    /// The user's model settings (keys, the chosen model), when models are enabled.
    pub fn model_settings(&self) -> Option<crate::providers::ModelSettings<'_>> {
        self.providers.as_ref().map(|p| crate::providers::ModelSettings::new(p, &self.store))
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The configured time zone.
    pub fn timezone(&self) -> chrono_tz::Tz {
        self.calendar.timezone
    }

    /// The same, one widget visitor asking at most `percent` % of its site's hourly
    /// questions (1 to 100; at least one question).
    pub fn with_widget_visitor_percent(mut self, percent: u32) -> Sou {
        self.widgets.visitor_percent = percent.clamp(1, 100);
        self
    }

    /// The same, one shared link serving at most `limit` requests a minute (`0`: every
    /// one).
    pub fn with_report_views_per_minute(mut self, limit: usize) -> Sou {
        self.reports.views_per_minute = limit;
        self
    }

    /// The same, taking `today` for today.
    pub fn with_today(mut self, today: Date) -> Sou {
        self.calendar.pinned = Some(today);
        // Every service that counts days holds a copy of the calendar.
        (self.runs.calendar, self.budgets.calendar, self.reports.calendar) =
            (self.calendar, self.calendar, self.calendar);
        self
    }

    /// Today in the configured time zone (or the pinned date).
    pub fn today(&self) -> Date {
        self.calendar.today()
    }

    /// The time zone and the date taken for today.
    pub(crate) fn calendar(&self) -> Calendar {
        self.calendar
    }

    /// The user's parser, kept while their vocabulary does not change.
    pub async fn parser(&self, user: UserId) -> Result<Arc<Parser>, BackendError> {
        self.parsers.get(&self.store, user, None).await
    }

    /// The same for a signed-in account, whose session's lookup read the version.
    pub(crate) async fn parser_for(
        &self,
        account: &crate::auth::Account,
    ) -> Result<Arc<Parser>, BackendError> {
        self.parser_stamped(account.user, account.vocabulary.clone()).await
    }

    /// The parser kept for `user`, with the stamp it was built at, not checked.
    pub(crate) fn parser_kept(&self, user: UserId) -> Option<((i64, String), Arc<Parser>)> {
        self.parsers.cached(user)
    }

    /// The same when the caller just read the user's vocabulary stamp (version and
    /// currency); read here if `None`.
    pub(crate) async fn parser_stamped(
        &self,
        user: UserId,
        stamp: Option<(i64, String)>,
    ) -> Result<Arc<Parser>, BackendError> {
        self.parsers.get(&self.store, user, stamp).await
    }

    /// The user's categories, merchants, accounts and datasets (those of their parser).
    pub async fn vocabulary(&self, user: UserId) -> Result<Vocabulary, BackendError> {
        Ok(self.parser(user).await?.vocabulary().clone())
    }
}
