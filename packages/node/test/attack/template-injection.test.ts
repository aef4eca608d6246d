import { afterAll, it } from "vitest";
import { assertNoInjection, injectionLab } from "../command/template-injection.js";

const lab = injectionLab();
afterAll(() => lab.dispose());

// The unit suite runs 200 of these; this one runs enough to reach the rarer constructs.
it("runs no hostile value through sh or bash in 5000 random templates the load check accepts", () => {
  assertNoInjection(lab, 5000);
  // Each run starts sh and bash; on a busy two-core machine 5000 of them take minutes.
}, 600_000);
