import { packageConfig } from "../vitest.shared.ts";

// The examples run against the demo agent in another process: allow for its start-up.
export default packageConfig({ name: "examples", testTimeout: 30_000 });
