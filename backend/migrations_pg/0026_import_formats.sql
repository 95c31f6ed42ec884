-- The formats an import may be in are the list Sou's readers are made from
-- (`agent::for_each_format!`), checked where the row is read back (`Format::parse`):
-- a new format needs no migration (SQLite: 0022_import_formats.sql).
ALTER TABLE imports DROP CONSTRAINT imports_format_check;
ALTER TABLE imports ADD CONSTRAINT imports_format_length CHECK (length(format) BETWEEN 1 AND 16);
