import { describeReadmeExamples } from "../../../test-support/readme-examples.ts";

// The approvals part of the README. Opening the embedded store compiles PGlite's WebAssembly
// and creates a database: tens of seconds on a loaded two-core machine, hence the hang guard.
describeReadmeExamples({
  readme: new URL("../README.md", import.meta.url),
  part: (text) => /^## Approvals that wait[\s\S]*?(?=^## )/m.exec(text)?.[0] ?? "",
  scratch: new URL("./.readme-approvals-tmp/", import.meta.url),
  timeoutMs: 240_000,
});
