-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "agent" TEXT;

-- CreateTable
CREATE TABLE "outbox_messages" (
    "id" UUID NOT NULL,
    "run_id" UUID,
    "agent" TEXT,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbox_messages_created_at_id_idx" ON "outbox_messages"("created_at" DESC, "id" DESC);
