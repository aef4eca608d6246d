import type { ToolArgs } from "@a3s-lab/hooks-core";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

type Validate = (input: unknown) => { valid: boolean; errorMessage?: string | undefined };

/** Lists the real server's tools (every page); the proxy's way to learn a schema it missed. */
export type ListTools = (signal: AbortSignal) => Promise<Tool[]>;

/**
 * The input schemas of the real server's tools, learnt from the `tools/list` answers that
 * pass through the proxy (or fetched once when a call comes first), compiled on first use.
 * Only arguments a hook rewrote are checked: what the client sent is the server's to judge.
 */
export class ToolSchemas {
  readonly #validator = new AjvJsonSchemaValidator();
  readonly #schemas = new Map<string, Tool["inputSchema"]>();
  readonly #compiled = new Map<string, Validate>();
  readonly #list: ListTools;

  constructor(list: ListTools) {
    this.#list = list;
  }

  /** Remember the tools of one `tools/list` page. */
  learn(tools: readonly Tool[]): void {
    for (const tool of tools) {
      this.#schemas.set(tool.name, tool.inputSchema);
      this.#compiled.delete(tool.name);
    }
  }

  /** Why `args` do not fit the tool's input schema, or undefined when they do. */
  async check(tool: string, args: ToolArgs, signal: AbortSignal): Promise<string | undefined> {
    if (!this.#schemas.has(tool)) this.learn(await this.#list(signal));
    let validate = this.#compiled.get(tool);
    if (validate === undefined) {
      const schema = this.#schemas.get(tool);
      if (schema === undefined) return `the server lists no tool named ${JSON.stringify(tool)}`;
      try {
        validate = this.#validator.getValidator(
          schema as Parameters<AjvJsonSchemaValidator["getValidator"]>[0],
        );
      } catch (error) {
        return `the tool's input schema does not compile (${(error as Error).message})`;
      }
      this.#compiled.set(tool, validate);
    }
    const result = validate(args);
    return result.valid ? undefined : (result.errorMessage ?? "invalid");
  }
}
