-- Every change of an agent job notifies on commit, so that processes caching job reads evict them
-- (src/agent-jobs/job-service.ts). The payload is the job id.

CREATE FUNCTION notify_agent_job_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('quire_agent_job_changed', NEW.id);
  RETURN NULL;
END;
$$;

CREATE TRIGGER agent_jobs_notify_change
AFTER UPDATE ON agent_jobs
FOR EACH ROW EXECUTE FUNCTION notify_agent_job_change();
