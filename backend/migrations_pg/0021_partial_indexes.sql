-- The sweep looks only for running runs, and a widget's conversations are looked up by
-- their site: a quick answer's run (stored already ended) and a conversation outside
-- any widget need no entry in these indexes, which makes an answer's commit two pages
-- smaller.
DROP INDEX runs_status;
CREATE INDEX runs_running ON runs (heartbeat_at) WHERE status = 'running';
DROP INDEX conversations_site;
CREATE INDEX conversations_site ON conversations (site_id, created_at) WHERE site_id IS NOT NULL;
