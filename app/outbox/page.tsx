import Link from "next/link";
import { getStudio } from "@/lib/studio/studio";
import { formatTime } from "@/components/runs/RunTable";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Outbox" };

export default async function OutboxPage() {
  await pageDoor("/outbox");
  const messages = await (await getStudio()).outbox.list(200);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Outbox</h1>
        <p className="text-muted-foreground">
          Messages the built-in messaging tools (
          <Link className="text-primary hover:underline" href="/tools/send_message">
            send_message
          </Link>
          ,{" "}
          <Link className="text-primary hover:underline" href="/tools/notify_group">
            notify_group
          </Link>
          ) delivered. They stay on this machine.
        </p>
      </div>
      <Card bodyClassName="p-0">
        {messages.length === 0 ? (
          <p className="p-6 text-center text-muted-foreground">The outbox is empty. Run send_message to deliver one.</p>
        ) : (
          <ul className="divide-y" data-testid="outbox">
            {messages.map((m) => (
              <li key={m.id} className="flex flex-col gap-1 px-4 py-2.5" data-testid="outbox-message">
                <div className="flex flex-wrap items-center gap-2 text-[12px]">
                  <Badge tone="primary" className="font-mono">
                    {m.channel}
                  </Badge>
                  <span>→</span>
                  <span className="font-medium">{m.target}</span>
                  {m.agent && <span className="text-muted-foreground">from {m.agent}</span>}
                  <span className="ml-auto tabular-nums text-muted-foreground">{formatTime(m.createdAt)}</span>
                  {m.runId && (
                    <Link href={`/runs/${m.runId}`} className="font-mono text-primary hover:underline">
                      run {m.runId.slice(0, 8)}
                    </Link>
                  )}
                </div>
                <p className="whitespace-pre-wrap break-words">{m.text}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
