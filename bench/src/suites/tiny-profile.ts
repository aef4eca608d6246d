import type { Profile } from "../suite.js";

/** For the suites' tests: enough to run every line of a suite, far too little to mean anything. */
export const tinyProfile: Profile = {
  smoke: true,
  inProcess: { rounds: 1, time: 2, warmupTime: 1 },
  allocCalls: 1000,
  memoryFires: 2000,
  spawns: 2,
  roundTrips: 4,
  pipelined: 64,
  approvals: 3,
};
