import type { Model } from "./model.js";
import { OpenAiModel } from "./openai-model.js";
import { ScriptedModel } from "./scripted-model.js";

/**
 * The model a command line asks for: `scripted` (or nothing) is the offline scripted model;
 * any other name is a model behind the OpenAI-compatible API at `OPENAI_BASE_URL`, with the
 * key in `OPENAI_API_KEY`.
 */
export function createModel(name: string | undefined, env: NodeJS.ProcessEnv = process.env): Model {
  if (name === undefined || name === "scripted") return new ScriptedModel();
  return new OpenAiModel({
    model: name,
    baseURL: env.OPENAI_BASE_URL || undefined,
    apiKey: env.OPENAI_API_KEY || undefined,
  });
}
