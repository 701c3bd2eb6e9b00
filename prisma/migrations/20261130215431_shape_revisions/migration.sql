-- CreateTable
CREATE TABLE "shape_revisions" (
    "tool_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "run_id" TEXT,
    "samples" INTEGER NOT NULL,
    "schema" JSONB NOT NULL,
    "changes" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shape_revisions_pkey" PRIMARY KEY ("tool_name","kind","revision")
);

-- CreateIndex
CREATE INDEX "shape_revisions_created_at_idx" ON "shape_revisions"("created_at");
