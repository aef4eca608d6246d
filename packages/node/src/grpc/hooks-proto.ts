import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HookError } from "@a3s-lab/hooks-core";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

let protoPath: string | undefined;

/**
 * The absolute path of `hooks.proto` inside the installed `@a3s-lab/hooks-node`, for stub
 * generators (`protoc -I "$(dirname path)" hooks.proto`).
 *
 * @example
 * ```ts
 * execFileSync("python3", ["-m", "grpc_tools.protoc", `-I${dirname(hooksProtoPath())}`,
 *   "--python_out=.", "--grpc_python_out=.", "hooks.proto"]);
 * ```
 */
export function hooksProtoPath(): string {
  if (protoPath !== undefined) return protoPath;
  // The file sits in the package's proto/ folder; this module runs from src/grpc/ (source)
  // or from dist/ (published build), so look upwards instead of hard-coding the depth.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, "proto", "hooks.proto");
    if (existsSync(candidate)) return (protoPath = candidate);
    dir = dirname(dir);
  }
  throw new HookError(
    "INTERNAL",
    `hooks.proto not found above ${fileURLToPath(import.meta.url)}: is @a3s-lab/hooks-node installed whole?`,
  );
}

/** The loaded services of `hooks.proto`. */
export interface HooksProto {
  /** The hook service (RegisterHook, HookStream, …), for `server.addService`. */
  HookService: grpc.ServiceDefinition;
  /** The agent service (sessions, Generate, ExecuteTool), for `server.addService`. */
  AgentService: grpc.ServiceDefinition;
  /** A client class for the hook service. */
  HookServiceClient: grpc.ServiceClientConstructor;
  /** A client class for the agent service. */
  AgentServiceClient: grpc.ServiceClientConstructor;
}

let loaded: HooksProto | undefined;

/** Load `hooks.proto` once (lazily: importing this package reads no file). */
export function loadHooksProto(): HooksProto {
  if (loaded) return loaded;
  const definition = protoLoader.loadSync(hooksProtoPath(), {
    // lowerCamelCase names and string enums: the objects are close to core's wire form.
    keepCase: false,
    longs: Number,
    enums: String,
    defaults: false,
    oneofs: false,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    a3s: { hooks: { v1: Record<string, grpc.ServiceClientConstructor> } };
  };
  const v1 = pkg.a3s.hooks.v1;
  const HookServiceClient = v1.HookService!;
  const AgentServiceClient = v1.AgentService!;
  loaded = {
    HookService: HookServiceClient.service,
    AgentService: AgentServiceClient.service,
    HookServiceClient,
    AgentServiceClient,
  };
  return loaded;
}
