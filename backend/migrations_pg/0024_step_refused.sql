-- A model's tool call the registry refused is a step of the trace: status 'refused'.
ALTER TABLE run_steps DROP CONSTRAINT run_steps_status_check;
ALTER TABLE run_steps ADD CONSTRAINT run_steps_status_check
    CHECK (status IN ('done', 'failed', 'stopped', 'refused'));
