-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "lease_until" TIMESTAMPTZ(3),
ADD COLUMN     "owner" TEXT;

-- CreateIndex
CREATE INDEX "runs_status_lease_until_idx" ON "runs"("status", "lease_until");
