-- A queued run that failed and is retried by the queue policy (lib/queue/policy.ts) leaves its
-- row as it ended; the retry is a new run that names it and counts its attempt (2, 3...).
ALTER TABLE "runs" ADD COLUMN "retry_of_id" UUID;
ALTER TABLE "runs" ADD COLUMN "attempt" INTEGER;
ALTER TABLE "runs" ADD CONSTRAINT "runs_retry_of_id_fkey" FOREIGN KEY ("retry_of_id") REFERENCES "runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "runs_retry_of_id_idx" ON "runs"("retry_of_id");
