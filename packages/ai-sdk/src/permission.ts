/**
 * Permission questions are core's: `ask` is a `PermissionAnswerer`, and the question it gets is
 * core's `PermissionQuestion` (the AI SDK's `toolCallId` is its `toolUseId`).
 */
export type { PermissionAnswerer, PermissionQuestion } from "@a3s-lab/hooks-core";
/** A call whose permission was denied, by a hook, the asker, or the default (core's class). */
export { PermissionDeniedError } from "@a3s-lab/hooks-core";
