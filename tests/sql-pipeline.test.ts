// A transaction of lib/db/sql.ts on PostgreSQL sends BEGIN with its first statement and COMMIT
// with its last, every value a bound parameter (node-postgres pipelining). Counted on the wire: a
// TCP relay between the pool and the server counts the client's flights (what it sends before it
// next hears from the server), so a statement that waited for BEGIN's answer would show as one more.
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPrisma, type Db } from "@/lib/db/client";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let target: TestDatabase;
let relay: net.Server;
let db: Db;
/** Client flights since the last reset: a flight ends when the server answers. */
let flights = 0;

beforeAll(async () => {
  target = await createTestDatabase();
  const upstream = new URL(target.url);
  relay = net.createServer((client) => {
    const server = net.connect(Number(upstream.port || 5432), upstream.hostname);
    let sending = false;
    client.on("data", (b) => {
      if (!sending) flights++;
      sending = true;
      server.write(b);
    });
    server.on("data", (b) => {
      sending = false;
      client.write(b);
    });
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
    client.on("error", () => server.destroy());
    server.on("error", () => client.destroy());
  });
  await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
  const via = new URL(target.url);
  via.port = String((relay.address() as net.AddressInfo).port);
  db = await createPrisma({ databaseUrl: via.toString() });
  await db.sql.exec(`CREATE TABLE wire_probe (id int PRIMARY KEY, v text)`);
}, 60_000);

afterAll(async () => {
  await db?.close();
  relay?.close();
  await target?.drop();
});

it("a transaction of three statements costs two flights: BEGIN rides with the first, COMMIT with the last", async () => {
  // A connection in the pool first (its start-up is not the transaction's cost).
  await db.sql.query(`SELECT 1`);
  flights = 0;
  const v = "it's $1 \\ ; DROP TABLE wire_probe; --";
  await db.sql.transaction(async (tx) => {
    await tx.exec(`INSERT INTO wire_probe (id, v) VALUES ($1::int, $2)`, [1, v]);
    return tx.commitWith(`UPDATE wire_probe SET v = v || $2 WHERE id = $1::int`, [1, "!"]);
  });
  expect(flights).toBe(2);
  expect(await db.sql.query(`SELECT v FROM wire_probe`)).toEqual([{ v: `${v}!` }]);
});

it("a value PostgreSQL cannot store is refused by the database, and nothing of the transaction stays", async () => {
  await expect(
    db.sql.transaction(async (tx) => {
      await tx.exec(`INSERT INTO wire_probe (id, v) VALUES ($1::int, 'kept?')`, [2]);
      return tx.commitWith(`INSERT INTO wire_probe (id, v) VALUES ($1::int, $2)`, [3, "a\u0000b"]);
    }),
  ).rejects.toThrow(/0x00|invalid byte sequence/);
  expect(await db.sql.query(`SELECT id FROM wire_probe WHERE id IN (2, 3)`)).toEqual([]);
});
