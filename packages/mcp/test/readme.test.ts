import { delimiter, resolve } from "node:path";
import { describeReadmeExamples } from "../../../test-support/readme-examples.ts";

// The example starts `mcp-server-filesystem` by name, as a user who installed it would.
process.env.PATH = `${resolve(import.meta.dirname, "../node_modules/.bin")}${delimiter}${process.env.PATH ?? ""}`;

describeReadmeExamples({
  readme: new URL("../README.md", import.meta.url),
  scratch: new URL("./.readme-tmp/", import.meta.url),
  minExamples: 1,
});
