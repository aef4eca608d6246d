import { describe, expect, it } from "vitest";
import { checkHttpHook, createHttpHandler } from "./http-hook.js";
import { checkHttpUrl } from "./http-url-policy.js";

describe("checkHttpUrl: the http hook's URL policy in one place", () => {
  it("refuses what is not an absolute http(s) URL, or carries credentials", () => {
    expect(checkHttpUrl("not a url")).toMatchObject({
      url: undefined,
      problems: [{ severity: "error", field: "url", message: "expected an absolute URL" }],
    });
    expect(checkHttpUrl("ftp://h/x").problems.map((p) => p.message)).toEqual([
      "expected an http: or https: URL, got ftp:",
    ]);
    expect(checkHttpUrl("https://u:p@h/x").problems[0]?.message).toMatch(/^credentials in the URL/);
    expect(checkHttpUrl("https://h/x")).toMatchObject({ problems: [], allowPrivate: false });
  });

  it("lets a pattern that names the host, not a wildcard host, reach private addresses", () => {
    const named = { allowedUrls: ["http://10.0.0.5:*/hooks/*"] };
    expect(checkHttpUrl("http://10.0.0.5:8080/hooks/a", named)).toMatchObject({
      problems: [],
      allowPrivate: true,
    });
    const wildcard = { allowedUrls: ["http://*/hooks/*"] };
    expect(checkHttpUrl("http://10.0.0.5:8080/hooks/a", wildcard)).toMatchObject({
      problems: [],
      allowPrivate: false,
    });
    // Allowed by another pattern than the one naming the host: that one does not match.
    const other = { allowedUrls: ["http://*/x", "http://10.0.0.5/y"] };
    expect(checkHttpUrl("http://10.0.0.5/x", other).allowPrivate).toBe(false);
  });

  it("is what the settings check and the handler both refuse, with the same message", () => {
    const policy = { allowedUrls: ["https://hooks.example.com/*"] };
    const definition = {
      type: "http" as const,
      url: "https://evil.example/?https://hooks.example.com/",
    };
    const [problem] = checkHttpUrl(definition.url, policy).problems;
    expect(problem?.message).toMatch(/^not allowed by allowedHttpHookUrls/);
    expect(checkHttpHook(definition, policy)).toEqual([problem]);
    expect(() => createHttpHandler(definition, { policy })).toThrow(`url: ${problem!.message}`);
    expect(() => createHttpHandler(definition, { policy: { allowedUrls: [] } })).toThrow(
      "url: allowedHttpHookUrls is empty: no http hook may run",
    );
  });
});
