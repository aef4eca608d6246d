import type { CliIo } from "../../src/cli/cli-context.js";

/** A `CliIo` for running the CLI in-process, keeping what it writes. */
export type MemoryIo = CliIo & { out: string; err: string };

/**
 * The CLI's input and output in memory: empty stdin, no system-wide policy files (tests never
 * read /etc) and an empty environment unless `io` says otherwise.
 */
export function memoryIo(io: Pick<CliIo, "cwd"> & Partial<CliIo>): MemoryIo {
  const memory: MemoryIo = {
    out: "",
    err: "",
    stdout: { write: (s: string) => (memory.out += s) },
    stderr: { write: (s: string) => (memory.err += s) },
    stdin: (async function* () {})(),
    managedSettings: [],
    env: {},
    ...io,
  };
  return memory;
}
