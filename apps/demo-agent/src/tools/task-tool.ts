import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { defineTool } from "./tool.js";

export const taskInputSchema = z.strictObject({
  /** A short title for the subagent's job (hooks may rewrite it at SubagentStart). */
  description: z.string().min(1).max(1000),
  /** What the subagent is asked to do. */
  prompt: z.string().min(1).max(100_000),
  subagent_type: z.string().min(1).max(100).optional(),
});

/**
 * Runs a subagent: a fresh agent loop with its own message history, in the same working
 * directory, that answers with its final text. Subagents cannot start subagents.
 */
export const taskTool = defineTool({
  name: "Task",
  description:
    "Start a subagent with its own conversation to do a self-contained job; answers with its final text.",
  inputSchema: taskInputSchema,
  readOnly: true,
  async run(input, ctx) {
    if (!ctx.runSubagent) {
      throw new AgentError("TOOL_FAILED", "Task: a subagent cannot start another subagent");
    }
    const output = await ctx.runSubagent({
      description: input.description,
      prompt: input.prompt,
      subagentType: input.subagent_type ?? "general-purpose",
    });
    return { output };
  },
});
