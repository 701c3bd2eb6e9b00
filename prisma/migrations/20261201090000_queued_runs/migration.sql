-- Runs sent to the job queue (`"mode": "async"`) wait as `queued` until a worker claims them
-- (lib/queue). `queued_at` keeps when the run was asked for; `started_at` is when it began.
ALTER TYPE "RunStatus" ADD VALUE IF NOT EXISTS 'queued' BEFORE 'running';
ALTER TABLE "runs" ADD COLUMN "queued_at" TIMESTAMPTZ(3);
ALTER TABLE "runs" ADD COLUMN "priority" INTEGER;
