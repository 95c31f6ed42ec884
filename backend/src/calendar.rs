//! Which day it is for Sou: the configured time zone, or a date pinned by tests (answers
//! about "this month" that do not change with the day they run).

use agent::Date;

/// The time zone Sou's days are counted in, and the date taken for today when pinned.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Calendar {
    pub(crate) timezone: chrono_tz::Tz,
    pub(crate) pinned: Option<Date>,
}

impl Calendar {
    pub(crate) fn new(timezone: chrono_tz::Tz) -> Calendar {
        Calendar { timezone, pinned: None }
    }

    /// Today in the time zone (or the pinned date).
    pub(crate) fn today(&self) -> Date {
        use chrono::Datelike;
        if let Some(d) = self.pinned {
            return d;
        }
        let now = chrono::Utc::now().with_timezone(&self.timezone);
        Date::new(now.year(), now.month(), now.day()).unwrap_or_else(|| Date::from_days(0))
    }
}
