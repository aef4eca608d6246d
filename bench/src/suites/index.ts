import type { Suite } from "../suite.js";
import { aiSdkSuite } from "./ai-sdk.js";
import { approvalsSuite } from "./approvals.js";
import { claudeAgentSdkSuite } from "./claude-agent-sdk.js";
import { cliStartSuite } from "./cli-start.js";
import { commandSuite } from "./command.js";
import { fireHooksSuite } from "./fire-hooks.js";
import { fireNoMatchSuite } from "./fire-no-match.js";
import { matchersSuite } from "./matchers.js";
import { mcpProxySuite } from "./mcp-proxy.js";
import { memorySuite } from "./memory.js";
import { otelSuite } from "./otel.js";
import { remoteGrpcSuite } from "./remote-grpc.js";
import { remoteWsSuite } from "./remote-ws.js";
import { sdkWeightSuite } from "./sdk-weight.js";

/** Every suite, in the order of the table. */
export const suites: readonly Suite[] = [
  fireNoMatchSuite,
  fireHooksSuite,
  matchersSuite,
  commandSuite,
  remoteGrpcSuite,
  remoteWsSuite,
  memorySuite,
  sdkWeightSuite,
  otelSuite,
  aiSdkSuite,
  claudeAgentSdkSuite,
  mcpProxySuite,
  cliStartSuite,
  approvalsSuite,
];
