-- Whether a run's samples are in the shape statistics (lib/inference/storage.ts). Runs captured
-- before this column are in them already (or a rebuild recounts them): they read true, at no
-- cost (a constant default does not rewrite the table). New runs start false.
ALTER TABLE "runs" ADD COLUMN "shape_counted" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "runs" ALTER COLUMN "shape_counted" SET DEFAULT false;
