import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import {
  accepted,
  hostileValue,
  injectionLab,
  templateSource,
} from "../command/template-injection.js";

const lab = injectionLab();
afterAll(() => lab.dispose());

// The unit suite runs 200 of these; this one runs enough to reach the rarer constructs.
it("runs no hostile value through sh or bash in 5000 random templates the load check accepts", () => {
  fc.assert(
    fc.property(templateSource, hostileValue, (source, value) => {
      const template = accepted(source);
      if (!template) return;
      for (const shell of ["sh", "bash"]) {
        expect({ source, value, shell, ran: lab.run(template, value, shell) }).toEqual({
          source,
          value,
          shell,
          ran: false,
        });
      }
    }),
    { numRuns: 5000 },
  );
});
