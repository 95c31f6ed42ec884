//! How long the values a query builds can get, read from its SQL before it runs.
//!
//! A time limit cannot stop one long function call, and the database holds every value
//! it builds in memory: `replace()` six deep over 60 rows once built 600 MB. So each
//! expression gets an upper bound, in characters, from the SQL alone: a dataset's
//! value is at most [`MAX_CELL_CHARS`] (uploads are refused past it), a literal its own
//! length, `||` and most functions the sum of their arguments, `replace(x, y, z)` `x`
//! times the longest `z` over the shortest `y`, a cast to `char(n)` at least `n`, a
//! number what PostgreSQL may write for it (`'1e100000'::numeric`, a division's or a
//! rounding's decimals); a
//! column of a subquery, CTE or derived table is bounded by what that query selects,
//! an alias by its expression. A query is refused when a value could pass
//! [`MAX_VALUE`], a row of its result [`MAX_ROW`], or a search (`LIKE`, `instr()`,
//! `replace()`…) could compare more than [`MAX_SEARCH`] pairs of characters in one call.
//! Aggregated text (`group_concat()`, `string_agg()`) grows with rows, not with SQL: it
//! may only be returned as it is, never computed on, and the checker cuts it just past
//! the result's byte cap (see `Resolver`), so it is shown whole or not at all.

use std::collections::HashMap;
use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, DataType, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments,
    ObjectNamePart, Query, Select, SelectItem, SetExpr, TableAlias, TableFactor, Value, Visit, Visitor,
};

use super::{ident_name, single_name, Refused, TableRef, AGGREGATE_CHARS, MAX_CELL_CHARS};

/// The longest value an expression may build, in characters.
pub const MAX_VALUE: u64 = 1_000_000;
/// The most characters one row of a result may hold.
pub const MAX_ROW: u64 = 4_000_000;
/// The most pairs of characters one search (`LIKE`, `instr()`, `replace()`…) may
/// compare: its text's bound times its pattern's. Two dataset values fit, with room
/// for what functions add (about 0.2 s at worst).
pub const MAX_SEARCH: u64 = 2 * (MAX_CELL_CHARS as u64) * (MAX_CELL_CHARS as u64);
/// What any computed value may have beyond its parts: a number's text, an average's
/// decimals.
const SLACK: u64 = 32;
/// The decimals a division or a rounding may add on PostgreSQL (its numeric display
/// and result scales).
const DECIMALS: u64 = 2_000;
/// How much longer a date format's output may be than the format (`%J` → 16 digits).
const FORMAT_GROWTH: u64 = 8;
/// The longest number PostgreSQL can make (131,072 digits before the point, 16,383
/// after): by `^`, or by a cast to `numeric` of a text such as `'1e100000'`.
const NUMERIC_CHARS: u64 = 150_000;

/// The names of aggregate functions whose result is text that grows with rows.
pub(super) fn aggregates_text(name: &str) -> bool {
    matches!(name, "group_concat" | "string_agg")
}

/// An upper bound of a value's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Size {
    Chars(u64),
    /// Aggregated text: only returned, never computed on.
    Aggregated,
}

impl Size {
    fn max(self, other: Size) -> Size {
        match (self, other) {
            (Size::Chars(a), Size::Chars(b)) => Size::Chars(a.max(b)),
            _ => Size::Aggregated,
        }
    }

    fn chars(self) -> u64 {
        match self {
            Size::Chars(n) => n,
            Size::Aggregated => AGGREGATE_CHARS as u64,
        }
    }
}

const CELL: Size = Size::Chars(MAX_CELL_CHARS as u64);

/// The columns a query selects, in order, by name when they have one.
type Columns = Vec<(Option<String>, Size)>;

/// A relation a column may come from.
#[derive(Clone, Debug)]
struct Rel {
    name: Option<String>,
    columns: Columns,
    /// Its columns are not known (not a dataset): any name is a dataset value.
    open: bool,
}

impl Rel {
    /// The bound of the column `name`, if this relation may have it.
    fn column(&self, name: &str) -> Option<Size> {
        let matching = self.columns.iter().filter(|(n, _)| n.as_deref() == Some(name));
        let unnamed = self.columns.iter().filter(|(n, _)| n.is_none());
        let found = matching.map(|(_, s)| *s).reduce(Size::max);
        found.or_else(|| unnamed.map(|(_, s)| *s).reduce(Size::max)).or(if self.open {
            Some(CELL)
        } else {
            None
        })
    }

    fn largest(&self) -> Size {
        let largest = self.columns.iter().map(|(_, s)| *s).fold(Size::Chars(0), Size::max);
        if self.open {
            largest.max(CELL)
        } else {
            largest
        }
    }
}

/// The relations in scope, innermost first.
struct Scope<'a> {
    rels: Vec<Rel>,
    outer: Option<&'a Scope<'a>>,
}

impl Scope<'_> {
    fn chain(&self) -> impl Iterator<Item = &Rel> {
        std::iter::successors(Some(self), |s| s.outer).flat_map(|s| s.rels.iter())
    }

    /// The bound of a column reference: the largest it may name; anything unknown is
    /// as large as anything in scope.
    fn column(&self, qualifier: Option<&str>, name: &str) -> Size {
        let named = |qualified: bool| {
            self.chain()
                .filter(|r| !qualified || r.name.as_deref() == qualifier)
                .filter_map(|r| r.column(name))
                .reduce(Size::max)
        };
        named(qualifier.is_some())
            .or_else(|| named(false))
            .unwrap_or_else(|| self.chain().map(Rel::largest).fold(CELL, Size::max))
    }
}

/// Checks the bounds of `query`, over the datasets `tables`.
pub(super) fn check(query: &Query, tables: &HashMap<String, TableRef>) -> Result<(), Refused> {
    let mut sizes = Sizes { tables, ctes: HashMap::new() };
    let columns = sizes.query(query, &Scope { rels: Vec::new(), outer: None })?;
    let row = columns.iter().map(|(_, s)| s.chars()).fold(0, u64::saturating_add);
    if row > MAX_ROW {
        return Err(Refused::WideRow { chars: row });
    }
    Ok(())
}

struct Sizes<'a> {
    tables: &'a HashMap<String, TableRef>,
    /// Every CTE by name (the guard refuses two with one name), once read.
    ctes: HashMap<String, Columns>,
}

impl Sizes<'_> {
    fn query(&mut self, query: &Query, outer: &Scope) -> Result<Columns, Refused> {
        if let Some(with) = &query.with {
            for cte in &with.cte_tables {
                let mut columns = self.query(&cte.query, outer)?;
                rename(&mut columns, Some(&cte.alias));
                self.ctes.insert(ident_name(&cte.alias.name), columns);
            }
        }
        // ORDER BY, LIMIT, OFFSET and FETCH see the body's scope when it is one SELECT.
        let mut extra = top(&query.order_by, 0).0;
        extra.extend(top(&query.limit_clause, 0).0);
        extra.extend(top(&query.fetch, 0).0);
        match query.body.as_ref() {
            SetExpr::Select(select) => self.select(select, outer, &extra),
            body => {
                let columns = self.set_expr(body, outer)?;
                let rel = Rel { name: None, columns: columns.clone(), open: false };
                let scope = Scope { rels: vec![rel], outer: Some(outer) };
                for e in &extra {
                    self.expr(e, &scope)?;
                }
                Ok(columns)
            }
        }
    }

    fn set_expr(&mut self, body: &SetExpr, outer: &Scope) -> Result<Columns, Refused> {
        match body {
            SetExpr::Select(select) => self.select(select, outer, &[]),
            SetExpr::Query(query) => self.query(query, outer),
            SetExpr::SetOperation { left, right, .. } => {
                let mut columns = self.set_expr(left, outer)?;
                for (i, (name, size)) in self.set_expr(right, outer)?.into_iter().enumerate() {
                    match columns.get_mut(i) {
                        Some((_, s)) => *s = s.max(size),
                        None => columns.push((name, size)),
                    }
                }
                Ok(columns)
            }
            SetExpr::Values(values) => {
                let scope = Scope { rels: Vec::new(), outer: Some(outer) };
                let mut columns: Columns = Vec::new();
                for row in &values.rows {
                    for (i, e) in row.iter().enumerate() {
                        let size = self.expr(e, &scope)?;
                        match columns.get_mut(i) {
                            Some((_, s)) => *s = s.max(size),
                            None => columns.push((None, size)),
                        }
                    }
                }
                Ok(columns)
            }
            // Refused by the guard.
            _ => Ok(vec![(None, Size::Aggregated)]),
        }
    }

    fn select(&mut self, select: &Select, outer: &Scope, extra: &[Expr]) -> Result<Columns, Refused> {
        let mut rels = Vec::new();
        let mut conditions = Vec::new();
        for from in &select.from {
            self.factor(&from.relation, outer, &mut rels)?;
            for join in &from.joins {
                self.factor(&join.relation, outer, &mut rels)?;
                conditions.extend(top(&join.join_operator, 0).0);
            }
        }
        let scope = Scope { rels, outer: Some(outer) };
        for c in &conditions {
            self.expr(c, &scope)?;
        }
        let mut columns: Columns = Vec::new();
        for item in &select.projection {
            match item {
                SelectItem::UnnamedExpr(e) => {
                    let size = self.expr(e, &scope)?;
                    let name = match e {
                        Expr::Identifier(i) => Some(ident_name(i)),
                        Expr::CompoundIdentifier(parts) => parts.last().map(ident_name),
                        _ => None,
                    };
                    columns.push((name, size));
                }
                SelectItem::ExprWithAlias { expr, alias } => {
                    columns.push((Some(ident_name(alias)), self.expr(expr, &scope)?));
                }
                SelectItem::ExprWithAliases { expr, aliases } => {
                    let size = self.expr(expr, &scope)?;
                    columns.extend(aliases.iter().map(|a| (Some(ident_name(a)), size)));
                }
                SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => {
                    for rel in &scope.rels {
                        columns.extend(rel.columns.iter().cloned());
                        if rel.open {
                            columns.push((None, CELL));
                        }
                    }
                }
            }
        }
        // The other clauses may also name the projection's aliases.
        let mut rest = select.clone();
        rest.projection.clear();
        rest.from.clear();
        let aliases: Columns = columns.iter().filter(|(n, _)| n.is_some()).cloned().collect();
        let named =
            Scope { rels: vec![Rel { name: None, columns: aliases, open: false }], outer: Some(&scope) };
        let (exprs, queries) = top(&rest, 0);
        for e in exprs.iter().chain(extra) {
            self.expr(e, &named)?;
        }
        for q in &queries {
            self.query(q, &named)?;
        }
        Ok(columns)
    }

    fn factor(&mut self, factor: &TableFactor, outer: &Scope, rels: &mut Vec<Rel>) -> Result<(), Refused> {
        match factor {
            TableFactor::Table { name, alias, .. } => {
                let n = single_name(name);
                let known = n.as_ref().and_then(|n| {
                    self.ctes.get(n).cloned().or_else(|| {
                        self.tables
                            .get(n)
                            .map(|t| t.columns.iter().map(|c| (Some(c.clone()), CELL)).collect())
                    })
                });
                let open = known.is_none();
                let mut columns = known.unwrap_or_default();
                rename(&mut columns, alias.as_ref());
                let name = alias.as_ref().map(|a| ident_name(&a.name)).or(n);
                rels.push(Rel { name, columns, open });
            }
            TableFactor::Derived { subquery, alias, .. } => {
                let mut columns = self.query(subquery, outer)?;
                rename(&mut columns, alias.as_ref());
                rels.push(Rel { name: alias.as_ref().map(|a| ident_name(&a.name)), columns, open: false });
            }
            TableFactor::NestedJoin { table_with_joins, alias } => {
                let mut inner = Vec::new();
                let mut conditions = Vec::new();
                self.factor(&table_with_joins.relation, outer, &mut inner)?;
                for join in &table_with_joins.joins {
                    self.factor(&join.relation, outer, &mut inner)?;
                    conditions.extend(top(&join.join_operator, 0).0);
                }
                let scope = Scope { rels: inner, outer: Some(outer) };
                for c in &conditions {
                    self.expr(c, &scope)?;
                }
                match alias {
                    Some(a) => {
                        let columns = scope.rels.iter().flat_map(|r| r.columns.iter().cloned()).collect();
                        let open = scope.rels.iter().any(|r| r.open);
                        rels.push(Rel { name: Some(ident_name(&a.name)), columns, open });
                    }
                    None => rels.extend(scope.rels),
                }
            }
            // Refused by the guard.
            _ => rels.push(Rel { name: None, columns: vec![(None, Size::Aggregated)], open: false }),
        }
        Ok(())
    }

    fn expr(&mut self, expr: &Expr, scope: &Scope) -> Result<Size, Refused> {
        match expr {
            Expr::Identifier(ident) => return Ok(scope.column(None, &ident_name(ident))),
            Expr::CompoundIdentifier(parts) => {
                return Ok(match parts.as_slice() {
                    [.., table, column] => scope.column(Some(&ident_name(table)), &ident_name(column)),
                    [column] => scope.column(None, &ident_name(column)),
                    [] => Size::Chars(0),
                })
            }
            Expr::Value(v) => return Ok(Size::Chars(literal(&v.value))),
            Expr::Nested(inner) => return self.expr(inner, scope),
            Expr::Subquery(query) => {
                return Ok(self.query(query, scope)?.iter().map(|(_, s)| *s).fold(Size::Chars(0), Size::max))
            }
            _ => {}
        }
        // Anything else is bounded by the sum of its parts, unless it is known to grow.
        let (exprs, queries) = top(expr, 1);
        let mut parts: Vec<(&Expr, u64)> = Vec::with_capacity(exprs.len());
        let mut sum: u64 = 0;
        for e in &exprs {
            let Size::Chars(n) = self.expr(e, scope)? else { return Err(Refused::Aggregated) };
            parts.push((e, n));
            sum = sum.saturating_add(n);
        }
        for q in &queries {
            for (_, size) in self.query(q, scope)? {
                let Size::Chars(n) = size else { return Err(Refused::Aggregated) };
                sum = sum.saturating_add(n);
            }
        }
        let size = |e: &Expr| parts.iter().find(|(p, _)| *p == e).map_or(0, |(_, n)| *n);
        let search = |what: &str, text: &Expr, pattern: &Expr| {
            let (text, pattern) = (size(text), size(pattern));
            if text.saturating_mul(pattern) > MAX_SEARCH {
                Err(Refused::Search { what: what.to_string(), text, pattern })
            } else {
                Ok(())
            }
        };
        let bound = match expr {
            Expr::Function(f) => match function(f, sum, size, search)? {
                Size::Aggregated => return Ok(Size::Aggregated),
                Size::Chars(n) => n,
            },
            Expr::Like { expr: text, pattern, .. }
            | Expr::ILike { expr: text, pattern, .. }
            | Expr::SimilarTo { expr: text, pattern, .. }
            | Expr::RLike { expr: text, pattern, .. } => {
                search("LIKE", text, pattern)?;
                sum
            }
            Expr::BinaryOp { left, op, right } if searches(op) => {
                search(&op.to_string(), left, right)?;
                sum
            }
            Expr::BinaryOp { op: BinaryOperator::PGExp, .. } => sum.max(NUMERIC_CHARS),
            Expr::BinaryOp { op: BinaryOperator::Divide, .. } => sum.saturating_add(DECIMALS),
            Expr::Position { expr: pattern, r#in } => {
                search("POSITION", r#in, pattern)?;
                sum
            }
            Expr::Cast { data_type, .. } => sum.max(type_chars(data_type)),
            Expr::TypedString(t) => sum.max(type_chars(&t.data_type)),
            _ => sum,
        }
        .saturating_add(SLACK);
        if bound > MAX_VALUE {
            let shown: String = expr.to_string().chars().take(80).collect();
            return Err(Refused::Grows { what: shown, chars: bound });
        }
        Ok(Size::Chars(bound))
    }
}

/// A function's bound from its arguments' (`sum` of all of them, or each by `size`).
fn function(
    f: &Function,
    sum: u64,
    size: impl Fn(&Expr) -> u64,
    search: impl Fn(&str, &Expr, &Expr) -> Result<(), Refused>,
) -> Result<Size, Refused> {
    let name = f
        .name
        .0
        .last()
        .and_then(ObjectNamePart::as_ident)
        .map(|i| i.value.to_lowercase())
        .unwrap_or_default();
    let args: Vec<&Expr> = match &f.args {
        FunctionArguments::List(list) => list
            .args
            .iter()
            .filter_map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e))
                | FunctionArg::Named { arg: FunctionArgExpr::Expr(e), .. }
                | FunctionArg::ExprNamed { arg: FunctionArgExpr::Expr(e), .. } => Some(e),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(Size::Chars(match (name.as_str(), args.as_slice()) {
        (name, _) if aggregates_text(name) => return Ok(Size::Aggregated),
        ("replace", [text, from, to]) => {
            search("replace()", text, from)?;
            // Each match of `from` (at least one character, or nothing is replaced)
            // becomes `to`.
            let from = literal_text(from).map_or(1, |s| s.chars().count() as u64);
            let ratio = if from == 0 { 1 } else { size(to).div_ceil(from).max(1) };
            size(text).saturating_mul(ratio).saturating_add(sum - size(text))
        }
        ("instr" | "strpos", [text, pattern]) => {
            search(&format!("{name}()"), text, pattern)?;
            sum
        }
        ("strftime" | "to_char", _) => sum.saturating_mul(FORMAT_GROWTH).saturating_add(64),
        ("round" | "trunc", _) => sum.saturating_add(DECIMALS),
        _ => sum,
    }))
}

/// Operators that search a text for a pattern.
fn searches(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::Match
            | B::Regexp
            | B::Glob
            | B::PGRegexMatch
            | B::PGRegexIMatch
            | B::PGRegexNotMatch
            | B::PGRegexNotIMatch
            | B::PGLikeMatch
            | B::PGILikeMatch
            | B::PGNotLikeMatch
            | B::PGNotILikeMatch
    )
}

/// A literal's length as a value: a string's characters, a number's
/// digits including those its exponent adds (`1e100000`).
fn literal(value: &Value) -> u64 {
    match value {
        Value::Number(n, _) => {
            let exponent = n.split_once(['e', 'E']).map_or(Some(0), |(_, e)| {
                e.trim_start_matches('+').parse::<i64>().ok().map(i64::unsigned_abs)
            });
            exponent.map_or(u64::MAX, |e| e.saturating_add(n.len() as u64))
        }
        other => match other.clone().into_string() {
            Some(text) => text.chars().count() as u64,
            None => other.to_string().chars().count() as u64,
        },
    }
}

fn literal_text(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Value(v) => v.value.clone().into_string(),
        Expr::Nested(e) => literal_text(e),
        _ => None,
    }
}

/// The length a cast to `data_type` may give any value: `char(n)` pads to `n`,
/// `numeric(p, s)` writes up to `p + s` digits, `numeric` as many as PostgreSQL can.
fn type_chars(data_type: &DataType) -> u64 {
    let text = data_type.to_string().to_lowercase();
    let Some((_, args)) = text.split_once('(') else {
        let numeric = ["numeric", "decimal", "dec"].iter().any(|t| text.starts_with(t));
        return if numeric { NUMERIC_CHARS } else { 0 };
    };
    args.split(|c: char| !c.is_ascii_digit())
        .filter(|d| !d.is_empty())
        .map(|d| d.parse::<u64>().unwrap_or(u64::MAX))
        .fold(0, u64::saturating_add)
}

/// Names the columns of a relation as its alias does, in order.
fn rename(columns: &mut Columns, alias: Option<&TableAlias>) {
    let Some(alias) = alias else { return };
    if alias.columns.is_empty() {
        return;
    }
    let sizes: Vec<Size> = columns.iter().map(|(_, s)| *s).collect();
    let largest = sizes.iter().copied().fold(CELL, Size::max);
    *columns = alias
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (Some(ident_name(&c.name)), sizes.get(i).copied().unwrap_or(largest)))
        .collect();
}

/// The outermost expressions in `node` (below `base` levels of expressions) and the
/// queries found there outside any expression.
fn top<V: Visit>(node: &V, base: usize) -> (Vec<Expr>, Vec<Query>) {
    let mut top = Top { base, depth: 0, queries: 0, exprs: Vec::new(), subqueries: Vec::new() };
    let _ = node.visit(&mut top);
    (top.exprs, top.subqueries)
}

struct Top {
    base: usize,
    depth: usize,
    queries: usize,
    exprs: Vec<Expr>,
    subqueries: Vec<Query>,
}

impl Visitor for Top {
    type Break = ();

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        if self.queries == 0 && self.depth == self.base {
            self.subqueries.push(query.clone());
        }
        self.queries += 1;
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        self.queries -= 1;
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        if self.queries == 0 && self.depth == self.base {
            self.exprs.push(expr.clone());
        }
        self.depth += 1;
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, _: &Expr) -> ControlFlow<()> {
        self.depth -= 1;
        ControlFlow::Continue(())
    }
}
