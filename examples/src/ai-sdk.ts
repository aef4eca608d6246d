/**
 * The AI SDK adapter's offline example: a scripted `generateText` agent whose tools, model
 * calls and Stop go through A3S hooks. It lives beside the package (it imports `ai`, the
 * package's peer dependency), and runs from here with the other examples:
 *
 *   pnpm --filter @a3s-lab/examples start ai-sdk
 */
export { offlineAgent } from "../../packages/ai-sdk/examples/offline-agent.js";
