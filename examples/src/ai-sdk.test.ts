import { expect, it } from "vitest";
import { offlineAgent } from "./ai-sdk.js";

it("the offline example: a delete blocked, arguments clamped, a key redacted, a Stop continuation", async () => {
  const lines = await offlineAgent(() => undefined);
  expect(lines).toEqual([
    "> Tidy up, then plan a week in Paris",
    "  [GenerateEnd] 28 tokens",
    "  [GenerateEnd] 28 tokens",
    "  [GenerateEnd] 28 tokens",
    "  [GenerateEnd] 28 tokens",
    '  shell({"command":"rm -rf node_modules"}) → blocked: recursive deletes need a human',
    '  weather({"city":"Paris","days":10}) → 7 days of sun in Paris',
    "  readEnv({}) → API_KEY=[redacted] REGION=eu",
    "  I skipped the delete, found sun in Paris and read the settings.",
    "> before you stop, summarise what you did",
    "  [GenerateEnd] 28 tokens",
    "  Summary: no files deleted; 7 days of sun in Paris; the API key stays secret.",
    "2 turns",
  ]);
});
