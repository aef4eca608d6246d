import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { defineTool } from "./tool.js";

export const skillInputSchema = z.strictObject({
  /** The skill's name: a file `<name>.md` (or `<name>/SKILL.md`) in the skills folder. */
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w-]+$/, "a skill name is letters, digits, _ and -"),
});

/**
 * Loads a skill for the rest of the response: its instructions join the context and the hooks
 * in its frontmatter are registered until the response ends.
 */
export const skillTool = defineTool({
  name: "Skill",
  description: "Load a skill by name: its instructions and hooks apply until this response ends.",
  inputSchema: skillInputSchema,
  readOnly: true,
  async run(input, ctx) {
    if (!ctx.loadSkill) throw new AgentError("NOT_FOUND", "Skill: this session has no skills");
    return { output: await ctx.loadSkill(input.name) };
  },
});
