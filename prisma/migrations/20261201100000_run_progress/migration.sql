-- The last progress a running tool reported ({progress, total?, message?}), written by the process
-- running it (at most every 250 ms), so any instance can show it: GET /api/runs/{id}.
ALTER TABLE "runs" ADD COLUMN "progress" JSONB;
