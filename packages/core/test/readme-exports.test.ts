import { describe } from "vitest";
import { itListsTheExports } from "../../../test-support/readme-exports.ts";

describe("the README's reference", () => {
  itListsTheExports(
    new URL("../README.md", import.meta.url),
    new URL("../src/index.ts", import.meta.url),
  );
  itListsTheExports(
    new URL("../README.md", import.meta.url),
    new URL("../src/wire.ts", import.meta.url),
    "#### Exports of `./wire`",
  );
});
