import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUi, createUiHandler, type UiAssets } from "./ui-handler.js";

let assets: UiAssets;
let base: string;
const server = createServer((req, res) => createUiHandler(assets)(req, res));

beforeAll(async () => {
  assets = await buildUi();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the --ui page", () => {
  it("bundles the page with @a3s-lab/box's browser entry, nothing of Node's", () => {
    expect(assets.js).toContain("a3s.hooks.v1");
    expect(assets.js).not.toMatch(/node:|@grpc|process\.env/);
    expect(assets.html).toContain('<script type="module" src="/app.js">');
  });

  it("serves its three files with headers that keep other sites out", async () => {
    for (const [path, type] of [
      ["/", "text/html"],
      ["/index.html", "text/html"],
      ["/app.js", "text/javascript"],
      ["/app.css", "text/css"],
    ]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain(type);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    }
    const head = await fetch(`${base}/app.js`, { method: "HEAD" });
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(assets.js));
    expect(await head.text()).toBe("");
  });

  it("answers 404 for other paths and 405 for other methods", async () => {
    expect((await fetch(`${base}/../../etc/passwd`)).status).toBe(404);
    expect((await fetch(`${base}/app.js.map`)).status).toBe(404);
    const post = await fetch(`${base}/`, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});
