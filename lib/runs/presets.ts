import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../db/generated/client";

export interface Preset {
  id: string;
  tool: string;
  name: string;
  arguments: unknown;
  agent: string | null;
  createdBy: string;
  createdAt: string;
}

/** Named arguments per tool; saving a name again replaces it. */
export class PresetStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(tool: string): Promise<Preset[]> {
    const rows = await this.prisma.runPreset.findMany({ where: { toolName: tool }, orderBy: { name: "asc" } });
    return rows.map(toPreset);
  }

  async save(p: { tool: string; name: string; arguments: unknown; agent?: string | null; createdBy: string }): Promise<Preset> {
    const data = { arguments: p.arguments as Prisma.InputJsonValue, agent: p.agent ?? null, createdBy: p.createdBy };
    const row = await this.prisma.runPreset.upsert({
      where: { toolName_name: { toolName: p.tool, name: p.name } },
      create: { id: randomUUID(), toolName: p.tool, name: p.name, ...data },
      update: { ...data, createdAt: new Date() },
    });
    return toPreset(row);
  }

  /**
   * Gives a preset another name, keeping its arguments. "missing": no preset by that name;
   * "taken": another preset of the tool already has the new name (it is not replaced).
   */
  async rename(tool: string, from: string, to: string): Promise<Preset | "missing" | "taken"> {
    return this.prisma.$transaction(async (tx) => {
      if (from !== to && (await tx.runPreset.findUnique({ where: { toolName_name: { toolName: tool, name: to } } }))) return "taken";
      const { count } = await tx.runPreset.updateMany({ where: { toolName: tool, name: from }, data: { name: to } });
      if (!count) return "missing";
      return toPreset(await tx.runPreset.findUniqueOrThrow({ where: { toolName_name: { toolName: tool, name: to } } }));
    });
  }

  async remove(tool: string, name: string): Promise<boolean> {
    const { count } = await this.prisma.runPreset.deleteMany({ where: { toolName: tool, name } });
    return count > 0;
  }
}

function toPreset(r: { id: string; toolName: string; name: string; arguments: unknown; agent: string | null; createdBy: string; createdAt: Date }): Preset {
  return { id: r.id, tool: r.toolName, name: r.name, arguments: r.arguments, agent: r.agent, createdBy: r.createdBy, createdAt: r.createdAt.toISOString() };
}
