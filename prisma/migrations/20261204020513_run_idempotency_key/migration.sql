-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "idempotency_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "runs_actor_idempotency_key_key" ON "runs"("actor", "idempotency_key");
