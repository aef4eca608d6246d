import { describeReadmeExamples } from "../../../test-support/readme-examples.ts";

describeReadmeExamples({
  readme: new URL("../README.md", import.meta.url),
  scratch: new URL("./.readme-tmp/", import.meta.url),
  minExamples: 4,
});
