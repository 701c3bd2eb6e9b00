-- CreateTable
CREATE TABLE "config_revisions" (
    "id" SERIAL NOT NULL,
    "hash" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "config_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "config_revisions_hash_idx" ON "config_revisions"("hash");
