import { nodeAndBrowserConfig } from "../../vitest.shared.ts";

// Core's unit tests run in Node and again in real Chromium: proof that core is platform-free.
export default nodeAndBrowserConfig({
  name: "core",
  // These define events in the process-wide event catalogue, which the other files read ("has
  // the 20 events of the design" would see theirs): the README test runs the README's examples
  // in-process, and one defines an event. Named by file name: they may move folders.
  ownModules: [
    "**/answer-fields.test.ts",
    "**/event-spec.test.ts",
    "**/matcher.test.ts",
    "**/readme.test.ts",
  ],
});
