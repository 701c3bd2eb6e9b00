// The framework floor: a bare Next.js route handler doing what a captured run must at least do,
// one INSERT of the arguments and result, with no door, no validation, no audit.
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

export async function POST(req: Request): Promise<Response> {
  const args = (await req.json()) as { a: number; b: number };
  const result = { sum: args.a + args.b };
  const { rows } = await pool.query<{ id: string }>("INSERT INTO floor_runs (args, result) VALUES ($1, $2) RETURNING id::text", [args, result]);
  return Response.json({ id: rows[0]!.id, ...result });
}
