import { UsersView } from "@/components/auth/UsersView";
import { FIRST_ADMIN_EMAIL } from "@/lib/auth/first-admin";
import { getStudio } from "@/lib/studio/studio";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Users and tokens" };

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await pageDoor("/users");
  const studio = await getStudio();
  const [users, tokens, query] = await Promise.all([studio.users.list(), studio.identity.tokens.list(), searchParams]);
  return <UsersView users={users} tokens={tokens} me={principal.userId} welcome={query.welcome === "1"} firstAdminEmail={FIRST_ADMIN_EMAIL} />;
}
