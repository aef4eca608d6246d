import { describeReadmeExamples } from "../../../test-support/readme-examples.ts";

// The README's Audit section: its ts example runs in Node against a real HookEngine (the page
// example around it is js, for a browser, and is not run).
describeReadmeExamples({
  readme: new URL("../README.md", import.meta.url),
  part: (text) => text.split(/^## Audit/m)[1]?.split(/^## /m)[0] ?? "",
  scratch: new URL("./.readme-tmp/", import.meta.url),
});
