// The expected numbers, computed straight from the SQLite file with the sqlite3
// command — independently of Sou's own code.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export function spent(category, start, end) {
  const db = path.join(process.env.SOU_E2E_DATA_DIR, 'sou.db');
  const sql = `SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    JOIN categories c ON c.id = t.category_id JOIN users u ON u.id = t.user_id
    WHERE u.name = 'local' AND c.key = '${category}' AND t.amount_minor < 0
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
