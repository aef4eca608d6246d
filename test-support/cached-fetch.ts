import { expect } from "vitest";

/** Runs a WebFetch of `url` through the hooks; `tool` is the tool itself. */
type FetchThroughHooks = (
  url: string,
  tool: () => { output: string },
) => Promise<{ output: string }>;

/**
 * Checks that the hooks answer a WebFetch of https://example.com with "<h1>cached</h1>" in place
 * of the tool (which must not run), and let a fetch of https://example.org run the tool.
 */
export async function expectCachedFetch(fetchThroughHooks: FetchThroughHooks): Promise<void> {
  let fetched = 0;
  const fetch = (url: string) =>
    fetchThroughHooks(url, () => {
      fetched++;
      return { output: `fetched ${url}` };
    });
  expect((await fetch("https://example.com")).output).toBe("<h1>cached</h1>");
  expect(fetched).toBe(0);
  expect((await fetch("https://example.org")).output).toBe("fetched https://example.org");
  expect(fetched).toBe(1);
}
