//! The SQL a model (or a person) writes over datasets is checked here before anything
//! runs: parsed by a real SQL parser (sqlparser-rs, in the database's dialect), it must
//! be one `SELECT` — no other statement kind, no `INTO`, no locking clause, no
//! data-changing CTE — over the user's datasets only, with functions and casts from an
//! allowlist. Every table it names is rewritten to the dataset's own table, and every
//! CTE to a generated name, so the SQL that runs can name no other table: not the
//! ledger's, not the catalog's, not another user's — nor a dataset's own table, whose
//! `user_id` only the rewrite hides. The values it can build are bounded from the SQL
//! alone (`size.rs`), so no single call runs long or builds megabytes. What runs it adds
//! a read-only connection, a time limit and caps on rows and bytes (see `mod.rs`).

mod size;

use std::collections::HashMap;
use std::ops::ControlFlow;

use sqlparser::ast::{
    visit_relations, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentList, FunctionArguments,
    Ident, ObjectName, ObjectNamePart, Query, SetExpr, Statement, TableAlias, TableFactor, Value, Visit,
    VisitMut, Visitor, VisitorMut,
};
use sqlparser::dialect::{PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use crate::ids::{Dialect, UserId};

/// The longest SQL accepted, in characters.
pub const MAX_SQL: usize = 8_000;
/// The longest value a dataset holds, in characters: uploads are refused past it, and
/// the checker's bounds start from it.
pub const MAX_CELL_CHARS: usize = 10_000;
/// Where aggregated text is cut in the database: just past the result's byte cap, so
/// that a cut value never fits in a result and is never shown.
pub const AGGREGATE_CHARS: usize = super::RESULT_BYTES + 1;
/// How deep expressions and subqueries may nest.
const MAX_DEPTH: usize = 40;

/// Why a query was refused, in words for the model or the person who wrote it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the query is empty")]
    Empty,
    #[error("the query is longer than {MAX_SQL} characters")]
    TooLong,
    #[error("the SQL could not be parsed: {0}")]
    Syntax(String),
    #[error("only one statement is allowed")]
    Several,
    #[error("only SELECT queries are allowed, not {0}")]
    NotSelect(String),
    #[error("{0} is not allowed")]
    Construct(&'static str),
    #[error("there is no dataset named {name:?} (yours: {known})")]
    UnknownTable { name: String, known: String },
    #[error("the function {0}() is not allowed")]
    Function(String),
    #[error("casting to {0} is not allowed")]
    Cast(String),
    #[error("{what} could build a value of {chars} characters, more than the {} allowed", size::MAX_VALUE)]
    Grows { what: String, chars: u64 },
    #[error(
        "{what} could compare a text of {text} characters with a pattern of {pattern}: too long for one call"
    )]
    Search { what: String, text: u64, pattern: u64 },
    #[error("the result of group_concat() or string_agg() can only be returned as it is, not used in an expression")]
    Aggregated,
    #[error("a row of the result could hold {chars} characters, more than the {} allowed", size::MAX_ROW)]
    WideRow { chars: u64 },
}

/// Functions a query may call: aggregates, windows, arithmetic, text and dates.
/// Nothing that reads files, sleeps, makes large values, or touches settings.
const FUNCTIONS: &[&str] = &[
    "count",
    "sum",
    "avg",
    "min",
    "max",
    "total",
    "group_concat",
    "string_agg",
    "row_number",
    "rank",
    "dense_rank",
    "percent_rank",
    "cume_dist",
    "ntile",
    "lag",
    "lead",
    "first_value",
    "last_value",
    "abs",
    "round",
    "floor",
    "ceil",
    "ceiling",
    "sign",
    "mod",
    "coalesce",
    "ifnull",
    "nullif",
    "iif",
    "lower",
    "upper",
    "length",
    "char_length",
    "substr",
    "substring",
    "trim",
    "ltrim",
    "rtrim",
    "replace",
    "instr",
    "strpos",
    "date",
    "strftime",
    "julianday",
    "date_trunc",
    "date_part",
    "to_char",
    "extract",
    "greatest",
    "least",
];

/// Types a value may be cast to.
const CASTS: &[&str] = &[
    "int",
    "integer",
    "bigint",
    "smallint",
    "real",
    "double",
    "float",
    "numeric",
    "decimal",
    "text",
    "varchar",
    "char",
    "date",
    "boolean",
    "bool",
    "timestamp",
];

/// A dataset as the checker sees it: its own table and its columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRef {
    pub physical: String,
    pub columns: Vec<String>,
}

/// The SQL to run, and the datasets it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub sql: String,
    pub datasets: Vec<String>,
}

/// Checks `sql` and rewrites it for `user`, whose datasets are `tables` (by name): a
/// dataset named in the query becomes `(SELECT its columns FROM its table WHERE
/// user_id = user) AS name`, so that the query sees that user's rows and columns only.
pub fn check(
    sql: &str,
    dialect: Dialect,
    user: UserId,
    tables: &HashMap<String, TableRef>,
) -> Result<Checked, Refused> {
    let sql = sql.trim().trim_end_matches(';').trim();
    if sql.is_empty() {
        return Err(Refused::Empty);
    }
    if sql.chars().count() > MAX_SQL {
        return Err(Refused::TooLong);
    }
    let mut statement = match <[Statement; 1]>::try_from(parse(dialect, sql)?) {
        Ok([statement]) => statement,
        Err(v) if v.is_empty() => return Err(Refused::Empty),
        Err(_) => return Err(Refused::Several),
    };
    let Statement::Query(query) = &statement else {
        let kind = statement.to_string().split_whitespace().next().unwrap_or("?").to_uppercase();
        return Err(Refused::NotSelect(kind));
    };
    let mut guard = Guard { refused: None, ctes: Vec::new() };
    let _ = statement.visit(&mut guard);
    if let Some(r) = guard.refused {
        return Err(r);
    }
    size::check(query, tables)?;
    // Each CTE gets a generated name, each dataset its rows; any other name is refused.
    let ctes: HashMap<String, String> =
        guard.ctes.iter().enumerate().map(|(i, name)| (name.clone(), format!("sou_w{i}"))).collect();
    let mut resolver =
        Resolver { dialect, user, tables, ctes: &ctes, used: Vec::new(), inserted: None, refused: None };
    let _ = VisitMut::visit(&mut statement, &mut resolver);
    if let Some(r) = resolver.refused {
        return Err(r);
    }
    let used = resolver.used;
    // What runs names no table but the user's datasets' and the generated CTEs.
    let allowed: Vec<&str> =
        tables.values().map(|t| t.physical.as_str()).chain(ctes.values().map(String::as_str)).collect();
    let mut stray = None;
    let _ = visit_relations(&statement, |relation: &ObjectName| match single_name(relation) {
        Some(name) if allowed.contains(&name.as_str()) => ControlFlow::Continue(()),
        _ => {
            stray = Some(relation.to_string());
            ControlFlow::Break(())
        }
    });
    if let Some(name) = stray {
        return Err(unknown(name, tables));
    }
    Ok(Checked { sql: statement.to_string(), datasets: used })
}

fn unknown(name: String, tables: &HashMap<String, TableRef>) -> Refused {
    let mut known: Vec<&str> = tables.keys().map(String::as_str).collect();
    known.sort_unstable();
    let known = if known.is_empty() { "none yet".to_string() } else { known.join(", ") };
    Refused::UnknownTable { name, known }
}

fn parse(dialect: Dialect, sql: &str) -> Result<Vec<Statement>, Refused> {
    let parser = match dialect {
        Dialect::Sqlite => Parser::new(&SQLiteDialect {}),
        Dialect::Postgres => Parser::new(&PostgreSqlDialect {}),
    };
    parser
        .with_recursion_limit(MAX_DEPTH)
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_statements())
        .map_err(|e| Refused::Syntax(e.to_string()))
}

/// A one-part name, lower-cased when unquoted.
fn single_name(name: &ObjectName) -> Option<String> {
    match name.0.as_slice() {
        [ObjectNamePart::Identifier(ident)] => Some(ident_name(ident)),
        _ => None,
    }
}

fn ident_name(ident: &Ident) -> String {
    if ident.quote_style.is_some() {
        ident.value.clone()
    } else {
        ident.value.to_lowercase()
    }
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Renames CTEs and replaces datasets by their rows.
struct Resolver<'a> {
    dialect: Dialect,
    user: UserId,
    tables: &'a HashMap<String, TableRef>,
    ctes: &'a HashMap<String, String>,
    used: Vec<String>,
    /// The table of the dataset just replaced by its rows: the next table visited,
    /// inside those rows, and the only way a dataset's table may be named.
    inserted: Option<String>,
    refused: Option<Refused>,
}

impl VisitorMut for Resolver<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        if let Some(with) = &mut query.with {
            for cte in &mut with.cte_tables {
                if let Some(new) = self.ctes.get(&ident_name(&cte.alias.name)) {
                    cte.alias.name = Ident::with_quote('"', new.clone());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        let TableFactor::Table { name, alias, .. } = factor else { return ControlFlow::Continue(()) };
        let Some(n) = single_name(name) else {
            self.refused = Some(unknown(name.to_string(), self.tables));
            return ControlFlow::Break(());
        };
        if self.inserted.take().is_some_and(|inserted| inserted == n) {
            return ControlFlow::Continue(());
        }
        if let Some(cte) = self.ctes.get(&n) {
            *name = ObjectName(vec![ObjectNamePart::Identifier(Ident::with_quote('"', cte.clone()))]);
            return ControlFlow::Continue(());
        }
        let Some(table) = self.tables.get(&n) else {
            self.refused = Some(unknown(n, self.tables));
            return ControlFlow::Break(());
        };
        let columns = table.columns.iter().map(|c| quoted(c)).collect::<Vec<_>>().join(", ");
        let inner =
            format!("SELECT {columns} FROM {} WHERE user_id = {}", quoted(&table.physical), self.user.0);
        let subquery = match parse(self.dialect, &inner).map(|v| v.into_iter().next()) {
            Ok(Some(Statement::Query(q))) => q,
            _ => {
                self.refused = Some(Refused::Syntax(format!("dataset {n:?} could not be read")));
                return ControlFlow::Break(());
            }
        };
        let alias = alias.take().unwrap_or(TableAlias {
            explicit: true,
            name: Ident::with_quote('"', n.clone()),
            columns: Vec::new(),
            at: None,
        });
        if !self.used.contains(&n) {
            self.used.push(n);
        }
        self.inserted = Some(table.physical.clone());
        *factor = TableFactor::Derived { lateral: false, subquery, alias: Some(alias), sample: None };
        ControlFlow::Continue(())
    }

    /// Aggregated text is cut just past the result's byte cap, in the database.
    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = expr else { return ControlFlow::Continue(()) };
        let name = f.name.0.last().and_then(ObjectNamePart::as_ident).map(|i| i.value.to_lowercase());
        if name.is_some_and(|n| size::aggregates_text(&n)) {
            let whole = std::mem::replace(expr, Expr::value(Value::Null));
            let arg = |e: Expr| FunctionArg::Unnamed(FunctionArgExpr::Expr(e));
            let number = |n: usize| Expr::value(Value::Number(n.to_string(), false));
            *expr = Expr::Function(Function {
                name: ObjectName(vec![ObjectNamePart::Identifier(Ident::new("substr"))]),
                uses_odbc_syntax: false,
                parameters: FunctionArguments::None,
                args: FunctionArguments::List(FunctionArgumentList {
                    duplicate_treatment: None,
                    args: vec![arg(whole), arg(number(1)), arg(number(AGGREGATE_CHARS))],
                    clauses: Vec::new(),
                }),
                within_group: Vec::new(),
                filter: None,
                null_treatment: None,
                over: None,
            });
        }
        ControlFlow::Continue(())
    }
}

/// Walks the query and remembers the first thing not allowed.
struct Guard {
    refused: Option<Refused>,
    ctes: Vec<String>,
}

impl Guard {
    fn refuse(&mut self, r: Refused) -> ControlFlow<()> {
        self.refused.get_or_insert(r);
        ControlFlow::Break(())
    }

    fn set_expr(&mut self, body: &SetExpr) -> ControlFlow<()> {
        match body {
            SetExpr::Select(select) => {
                if select.into.is_some() {
                    return self.refuse(Refused::Construct("SELECT … INTO"));
                }
                if !select.lateral_views.is_empty() || !select.connect_by.is_empty() {
                    return self.refuse(Refused::Construct("this clause"));
                }
                ControlFlow::Continue(())
            }
            SetExpr::Query(_) | SetExpr::Values(_) => ControlFlow::Continue(()),
            SetExpr::SetOperation { left, right, .. } => {
                self.set_expr(left)?;
                self.set_expr(right)
            }
            SetExpr::Insert(_) => self.refuse(Refused::NotSelect("INSERT".into())),
            SetExpr::Update(_) => self.refuse(Refused::NotSelect("UPDATE".into())),
            SetExpr::Delete(_) => self.refuse(Refused::NotSelect("DELETE".into())),
            SetExpr::Merge(_) => self.refuse(Refused::NotSelect("MERGE".into())),
            SetExpr::Table(_) => self.refuse(Refused::Construct("TABLE …")),
        }
    }
}

impl Visitor for Guard {
    type Break = ();

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        if !query.locks.is_empty() {
            return self.refuse(Refused::Construct("FOR UPDATE / FOR SHARE"));
        }
        if query.for_clause.is_some() || query.settings.is_some() || query.format_clause.is_some() {
            return self.refuse(Refused::Construct("this clause"));
        }
        if !query.pipe_operators.is_empty() {
            return self.refuse(Refused::Construct("pipe syntax"));
        }
        if let Some(with) = &query.with {
            if with.recursive {
                return self.refuse(Refused::Construct("WITH RECURSIVE"));
            }
            for cte in &with.cte_tables {
                if cte.materialized.is_some() || cte.from.is_some() {
                    return self.refuse(Refused::Construct("this CTE form"));
                }
                let name = ident_name(&cte.alias.name);
                if self.ctes.contains(&name) {
                    return self.refuse(Refused::Construct("two CTEs with one name"));
                }
                self.ctes.push(name);
            }
        }
        self.set_expr(&query.body)
    }

    fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
        match factor {
            TableFactor::Table {
                args,
                with_hints,
                version,
                with_ordinality,
                partitions,
                json_path,
                sample,
                index_hints,
                ..
            } => {
                if args.is_some() {
                    return self.refuse(Refused::Construct("a table function"));
                }
                if !with_hints.is_empty()
                    || version.is_some()
                    || *with_ordinality
                    || !partitions.is_empty()
                    || json_path.is_some()
                    || sample.is_some()
                    || !index_hints.is_empty()
                {
                    return self.refuse(Refused::Construct("this table modifier"));
                }
                ControlFlow::Continue(())
            }
            TableFactor::Derived { lateral: false, sample: None, .. } | TableFactor::NestedJoin { .. } => {
                ControlFlow::Continue(())
            }
            TableFactor::Derived { .. } => self.refuse(Refused::Construct("LATERAL")),
            _ => self.refuse(Refused::Construct("a table function")),
        }
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        match expr {
            Expr::Function(f) => {
                let name = match f.name.0.as_slice() {
                    [ObjectNamePart::Identifier(ident)] => ident.value.to_lowercase(),
                    _ => return self.refuse(Refused::Function(f.name.to_string())),
                };
                if !FUNCTIONS.contains(&name.as_str()) {
                    return self.refuse(Refused::Function(name));
                }
                if !matches!(f.parameters, FunctionArguments::None) {
                    return self.refuse(Refused::Function(name));
                }
                ControlFlow::Continue(())
            }
            Expr::Cast { data_type, .. } => {
                let target = data_type.to_string().to_lowercase();
                let base = target.split(['(', ' ']).next().unwrap_or_default();
                if CASTS.contains(&base) {
                    ControlFlow::Continue(())
                } else {
                    self.refuse(Refused::Cast(target))
                }
            }
            Expr::TypedString(t) => {
                let target = t.data_type.to_string().to_lowercase();
                if CASTS.contains(&target.split(['(', ' ']).next().unwrap_or_default()) {
                    ControlFlow::Continue(())
                } else {
                    self.refuse(Refused::Cast(target))
                }
            }
            _ => ControlFlow::Continue(()),
        }
    }
}
