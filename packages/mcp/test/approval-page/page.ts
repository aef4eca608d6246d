/**
 * An approval page for the MCP proxy's tool calls: an `A3sClient` (the browser build, over
 * WebSocket) registers a PermissionRequest hook on the proxy's hook server, shows each request
 * with Deny and Allow buttons, and answers what the person clicks.
 *
 * The hook server's address comes in the query string (it is no secret); the token in the
 * fragment, which browsers never send, and which the page removes from the address bar at once.
 * Everything shown comes from the MCP client and is untrusted: it is set as text, never as HTML.
 */
import { A3sClient, type HookEventMap } from "@a3s-lab/box";

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state = element<HTMLSpanElement>("state");
const problem = element<HTMLSpanElement>("problem");
const requests = element<HTMLElement>("requests");
const decisions = element<HTMLOListElement>("decisions");

function tokenFromFragment(): string {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  history.replaceState(null, "", location.pathname + location.search);
  return match ? decodeURIComponent(match[1]!) : "";
}

/** A card per waiting call, each with its own buttons, so concurrent calls never mix up. */
function ask(
  event: HookEventMap["PermissionRequest"],
  signal: AbortSignal,
): Promise<"allow" | "deny" | "gone"> {
  if (signal.aborted) return Promise.resolve("gone");
  const card = document.createElement("section");
  card.className = "request";
  const intro = document.createElement("p");
  const tool = document.createElement("strong");
  tool.className = "tool";
  tool.textContent = event.tool;
  intro.append("The MCP client wants to call ", tool, ":");
  const args = document.createElement("pre");
  args.className = "args";
  args.textContent = JSON.stringify(event.args, null, 2);
  const button = (answer: "allow" | "deny", label: string) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = answer;
    b.textContent = label;
    return b;
  };
  const deny = button("deny", "Deny");
  const allow = button("allow", "Allow");
  card.append(intro, args, deny, allow);
  requests.append(card);
  return new Promise((resolve) => {
    const controller = new AbortController();
    const done = (answer: "allow" | "deny" | "gone") => {
      controller.abort();
      card.remove();
      const item = document.createElement("li");
      item.textContent = `${event.tool}: ${answer === "gone" ? "no answer in time" : answer}`;
      item.className = answer === "allow" ? "allow" : "deny";
      decisions.append(item);
      resolve(answer);
    };
    const options = { signal: controller.signal, once: true };
    allow.addEventListener("click", () => done("allow"), options);
    deny.addEventListener("click", () => done("deny"), options);
    signal.addEventListener("abort", () => done("gone"), options);
  });
}

const address = new URLSearchParams(location.search).get("hooks") ?? undefined;
const client = new A3sClient({ token: tokenFromFragment(), ...(address ? { address } : {}) });
client.on("state", ({ state: now, error }) => {
  state.textContent = now;
  state.dataset.state = now;
  problem.textContent = now === "ready" || !error ? "" : error.message;
});
client.registerHook("PermissionRequest", {
  matcher: "mcp__*",
  // Fail closed: with this page closed or gone, nothing is approved behind the person's back.
  config: { timeoutMs: 120_000, failBehavior: "block", name: "approval page" },
  handler: async (event, ctx) =>
    (await ask(event, ctx.signal)) === "allow"
      ? { action: "continue", permission: "allow" }
      : { action: "block", reason: "denied in the browser" },
});
// Calls made before this are answered without the page; say when its hook is in place.
client.ready().then(
  () => {
    document.body.dataset.hooks = "registered";
  },
  (error: Error) => {
    problem.textContent = error.message;
  },
);
