import { describeReadmeExamples } from "../../../../test-support/readme-examples.ts";

// The hook-server part of the README (the command-hook part runs in test/command/readme.test.ts).
describeReadmeExamples({
  readme: new URL("../../README.md", import.meta.url),
  part: (text) => text.split(/^## Hook server/m)[1] ?? "",
  scratch: new URL("./.readme-server-tmp/", import.meta.url),
});
