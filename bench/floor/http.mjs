// The physical floor: a plain node:http handler doing one INSERT (the same as the bare Next
// route), so the bench can say what the framework and the studio each add on top.
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const port = Number(process.env.PORT);

http
  .createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      try {
        const args = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const result = { sum: args.a + args.b };
        const { rows } = await pool.query("INSERT INTO floor_runs (args, result) VALUES ($1, $2) RETURNING id::text", [args, result]);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: rows[0].id, ...result }));
      } catch (err) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(err?.message ?? err));
      }
    });
  })
  .listen(port, "127.0.0.1", () => console.log(`floor http on ${port}`));
