import type { PendingRow, Row } from "./row.js";
import type { SampleOptions } from "./sampler.js";

/** How hard to measure. `smoke`: a few iterations, no verdicts, seconds in all. */
export interface Profile {
  smoke: boolean;
  /** For in-process rows (tinybench). */
  inProcess: Omit<SampleOptions, "batch">;
  /** Calls per allocation count. */
  allocCalls: number;
  /** fire() calls in the memory row. */
  memoryFires: number;
  /** Spawns per side in the command-hook rows. */
  spawns: number;
  /** Sequential round trips per side in the remote rows. */
  roundTrips: number;
  /** Messages per side in the pipelined rows. */
  pipelined: number;
  /** Parks, and decisions waited for, per side and per store in the approval rows. */
  approvals: number;
}

export const profiles: Readonly<Record<"full" | "smoke", Profile>> = {
  full: {
    smoke: false,
    inProcess: { rounds: 12, time: 100, warmupTime: 20 },
    allocCalls: 200_000,
    memoryFires: 1_000_000,
    spawns: 120,
    roundTrips: 3000,
    pipelined: 30_000,
    approvals: 200,
  },
  smoke: {
    smoke: true,
    inProcess: { rounds: 1, time: 10, warmupTime: 5 },
    allocCalls: 5_000,
    memoryFires: 20_000,
    spawns: 4,
    roundTrips: 40,
    pipelined: 400,
    approvals: 5,
  },
};

export interface SuiteContext {
  profile: Profile;
  /** Progress for humans, on stderr. */
  log: (line: string) => void;
}

export interface SuiteResult {
  rows: Row[];
  pending: PendingRow[];
}

/** A group of rows measured together. */
export interface Suite {
  /** For `--only`. */
  id: string;
  title: string;
  run(ctx: SuiteContext): Promise<SuiteResult>;
}
