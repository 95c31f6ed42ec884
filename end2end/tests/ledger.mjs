// The expected numbers, computed straight from the SQLite file with the sqlite3
// command — independently of Sou's own code. Each test signs in to a new demo
// account (support.mjs), so the newest demo account is the test's own; demo ledgers
// made on the same day are identical anyway.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ME = "u.id = (SELECT MAX(id) FROM users WHERE name LIKE 'demo-%')";

export function spent(category, start, end) {
  const db = path.join(process.env.SOU_E2E_DATA_DIR, 'sou.db');
  const sql = `SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    JOIN categories c ON c.id = t.category_id JOIN users u ON u.id = t.user_id
    WHERE ${ME} AND c.key = '${category}' AND t.amount_minor < 0
      AND t.date >= '${start}' AND t.date < '${end}';`;
  return Number(execFileSync('sqlite3', ['-readonly', db, sql]).toString().trim());
}

// 123456 -> "1 234,56 €" as Sou writes it in French; "€1,234.56" in English.
export function euros(minor, locale) {
  const units = Math.floor(Math.abs(minor) / 100);
  const cents = String(Math.abs(minor) % 100).padStart(2, '0');
  const group = (sep) => String(units).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return locale === 'fr' ? `${group('\u202f')},${cents}\u00a0€` : `€${group(',')}.${cents}`;
}

function scalar(sql) {
  const db = path.join(process.env.SOU_E2E_DATA_DIR, 'sou.db');
  return Number(execFileSync('sqlite3', ['-readonly', db, sql]).toString().trim());
}

// Every account's opening balance plus every line booked up to `day` (inclusive).
export function balance(day) {
  return scalar(`SELECT
    (SELECT COALESCE(SUM(a.opening_balance_minor), 0) FROM accounts a JOIN users u ON u.id = a.user_id
       WHERE ${ME})
    + (SELECT COALESCE(SUM(t.amount_minor), 0) FROM transactions t JOIN users u ON u.id = t.user_id
       WHERE ${ME} AND t.date <= '${day}');`);
}

// Income minus spending: every line that is not a transfer between own accounts.
export function net(start, end) {
  return scalar(`SELECT COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    JOIN users u ON u.id = t.user_id LEFT JOIN categories c ON c.id = t.category_id
    WHERE ${ME} AND (c.kind IS NULL OR c.kind <> 'transfer')
      AND t.date >= '${start}' AND t.date < '${end}';`);
}

// What a category used of its budget: its lines' sum, refunds included.
export function used(category, start, end) {
  return scalar(`SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    JOIN categories c ON c.id = t.category_id JOIN users u ON u.id = t.user_id
    WHERE ${ME} AND c.key = '${category}' AND t.date >= '${start}' AND t.date < '${end}';`);
}

// A category's spending without one merchant's: "courses hors Picard".
export function spentExcept(category, merchant, start, end) {
  return scalar(`SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    JOIN categories c ON c.id = t.category_id JOIN users u ON u.id = t.user_id
    LEFT JOIN merchants m ON m.id = t.merchant_id
    WHERE ${ME} AND c.key = '${category}' AND t.amount_minor < 0
      AND (m.key IS NULL OR m.key <> '${merchant}')
      AND t.date >= '${start}' AND t.date < '${end}';`);
}

// Income from one payer: its credits in income categories (or uncategorised).
export function receivedFrom(merchant, start, end) {
  return scalar(`SELECT COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    JOIN users u ON u.id = t.user_id JOIN merchants m ON m.id = t.merchant_id
    LEFT JOIN categories c ON c.id = t.category_id
    WHERE ${ME} AND m.key = '${merchant}' AND t.amount_minor > 0
      AND (c.kind IS NULL OR c.kind = 'income')
      AND t.date >= '${start}' AND t.date < '${end}';`);
}

// One merchant's spending, whatever its category, and how many of its lines are not
// in `category`.
export function spentAt(merchant, start, end) {
  return scalar(`SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    JOIN merchants m ON m.id = t.merchant_id JOIN users u ON u.id = t.user_id
    WHERE ${ME} AND m.key = '${merchant}' AND t.amount_minor < 0
      AND t.date >= '${start}' AND t.date < '${end}';`);
}

export function linesOutside(merchant, category, start, end) {
  return scalar(`SELECT COUNT(*) FROM transactions t
    JOIN merchants m ON m.id = t.merchant_id JOIN users u ON u.id = t.user_id
    LEFT JOIN categories c ON c.id = t.category_id
    WHERE ${ME} AND m.key = '${merchant}' AND (c.key IS NULL OR c.key <> '${category}')
      AND t.date >= '${start}' AND t.date < '${end}';`);
}

// The ids of the test account's spending in `category` between `start` and `end`.
export function spendingIds(category, start, end) {
  const db = path.join(process.env.SOU_E2E_DATA_DIR, 'sou.db');
  const sql = `SELECT t.id FROM transactions t
    JOIN categories c ON c.id = t.category_id JOIN users u ON u.id = t.user_id
    WHERE ${ME} AND c.key = '${category}' AND t.amount_minor < 0
      AND t.date >= '${start}' AND t.date < '${end}' ORDER BY t.id;`;
  return execFileSync('sqlite3', ['-readonly', db, sql]).toString().trim().split('\n').filter(Boolean).map(Number);
}

// One merchant's debits, all of them: how many, and the ids of the newest day's.
export function paidAtEver(merchant) {
  const db = path.join(process.env.SOU_E2E_DATA_DIR, 'sou.db');
  const where = `FROM transactions t JOIN merchants m ON m.id = t.merchant_id JOIN users u ON u.id = t.user_id
    WHERE ${ME} AND m.key = '${merchant}' AND t.amount_minor < 0`;
  const count = scalar(`SELECT COUNT(*) ${where};`);
  const newest = execFileSync('sqlite3', ['-readonly', db,
    `SELECT t.id ${where} AND t.date = (SELECT MAX(t.date) ${where});`]).toString().trim().split('\n');
  return { count, newest };
}
