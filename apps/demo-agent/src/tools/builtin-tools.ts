import { bashTool } from "./bash-tool.js";
import { editTool } from "./edit-tool.js";
import { globTool } from "./glob-tool.js";
import { grepTool } from "./grep-tool.js";
import { readTool } from "./read-tool.js";
import { skillTool } from "./skill-tool.js";
import { taskTool } from "./task-tool.js";
import type { Tool } from "./tool.js";
import { writeTool } from "./write-tool.js";

/** Every tool the demo agent ships with, in the order a model sees them. */
export const builtinTools: readonly Tool[] = Object.freeze([
  bashTool,
  readTool,
  writeTool,
  editTool,
  globTool,
  grepTool,
  taskTool,
  skillTool,
] as Tool[]);
