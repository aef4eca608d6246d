import { packageConfig } from "../vitest.shared.ts";

export default packageConfig({ name: "bench", testTimeout: 20_000 });
