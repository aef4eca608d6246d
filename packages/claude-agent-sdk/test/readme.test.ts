import { describeReadmeExamples } from "../../../test-support/readme-examples.ts";

// The examples of the offline section: `query()` needs the Claude Code CLI and an account.
describeReadmeExamples({
  readme: new URL("../README.md", import.meta.url),
  part: (text) =>
    text.slice(
      text.indexOf("## What a session's callback answers"),
      text.indexOf("## Remote hooks"),
    ),
  scratch: new URL("./.readme-tmp/", import.meta.url),
});
