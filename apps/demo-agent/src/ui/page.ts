/**
 * The page `a3s-demo-agent serve --ui` serves: an `A3sClient` that connects to the agent that
 * served it (over WebSocket, the browser default), a PermissionRequest hook that asks the
 * person at the page, and a live list of the hook events it observes.
 *
 * Everything shown comes from the agent and is untrusted: it is set as text, never as HTML.
 */
import {
  A3sClient,
  AuditTrail,
  formatAuditRecord,
  type HookEventMap,
  type HookEventName,
} from "@a3s-lab/box";

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state = element<HTMLSpanElement>("state");
const problem = element<HTMLSpanElement>("problem");
const login = element<HTMLFormElement>("login");
const events = element<HTMLTableSectionElement>("events");
const dialog = element<HTMLDialogElement>("permission");
const audit = element<HTMLOListElement>("audit");
const download = element<HTMLButtonElement>("audit-download");
const MAX_ROWS = 200;

/** The token handed over in the URL fragment (which never reaches a server), if any. */
function tokenFromFragment(): string | undefined {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return undefined;
  // Take it off the address bar and out of the history at once.
  history.replaceState(null, "", location.pathname + location.search);
  return decodeURIComponent(match[1]!);
}

function addRow(event: string, subject: string, decision = "", kind?: "allow" | "deny"): void {
  const tr = document.createElement("tr");
  const cells = [new Date().toLocaleTimeString(), event, subject, decision];
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  if (kind) tr.lastElementChild!.className = kind;
  tr.dataset.event = event;
  events.prepend(tr);
  while (events.rows.length > MAX_ROWS) events.deleteRow(-1);
}

/** A tool call in a line: the tool and its main argument. */
function subjectOf(event: { tool?: string; args?: Record<string, unknown> }): string {
  if (!event.tool) return "";
  const args = event.args ?? {};
  const main = args.command ?? args.file_path ?? args.path ?? args.pattern ?? args.prompt;
  return typeof main === "string" ? `${event.tool} ${main.slice(0, 200)}` : event.tool;
}

let queue: Promise<unknown> = Promise.resolve();

/** Ask the person, one question at a time. `gone` when the agent stopped waiting first. */
function confirmTool(
  event: HookEventMap["PermissionRequest"],
  signal: AbortSignal,
): Promise<"allow" | "deny" | "gone"> {
  const answer = queue.then(() => ask(event, signal));
  queue = answer.catch(() => {});
  return answer;
}

function ask(
  event: HookEventMap["PermissionRequest"],
  signal: AbortSignal,
): Promise<"allow" | "deny" | "gone"> {
  if (signal.aborted) return Promise.resolve("gone");
  element("permission-tool").textContent = event.tool;
  element("permission-reason").textContent = event.reason ?? "";
  element("permission-args").textContent = JSON.stringify(event.args, null, 2);
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    const done = (answer: "allow" | "deny" | "gone") => {
      dialog.removeEventListener("close", onClose);
      signal.removeEventListener("abort", onAbort);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    // Escape closes the dialog too: anything but a click on Allow is a no.
    const onClose = () => done(dialog.returnValue === "allow" ? "allow" : "deny");
    const onAbort = () => done("gone");
    dialog.addEventListener("close", onClose);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

type Shown = [decision: string, kind?: "allow" | "deny"];

/** What the live list shows of an event it only watches. */
const WATCHED: { [N in HookEventName]?: (event: HookEventMap[N]) => Shown } = {
  SessionStart: (e) => [`source ${e.source}`],
  UserPromptSubmit: () => [""],
  PreToolUse: () => [""],
  PermissionGranted: (e) => [`granted by ${e.decidedBy ?? "?"}`, "allow"],
  PermissionDenied: (e) => [`denied by ${e.decidedBy ?? "?"}: ${e.reason ?? ""}`, "deny"],
  PostToolUse: (e) => [e.result.success ? "ran" : "failed"],
  PostToolUseFailure: (e) => [`failed: ${e.error.slice(0, 200)}`, "deny"],
  SessionEnd: (e) => [`reason ${e.reason}`],
};

/**
 * The audit of this page's own hooks: the last records in a list (each one safe line of text)
 * and, on demand, all of them as a JSON Lines file.
 */
function showAudit(client: A3sClient): void {
  const trail = new AuditTrail(client, { limit: MAX_ROWS });
  trail.subscribe((record) => {
    const item = document.createElement("li");
    item.textContent = formatAuditRecord(record);
    item.dataset.type = record.type;
    audit.prepend(item);
    while (audit.children.length > MAX_ROWS) audit.lastElementChild!.remove();
  });
  download.addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([trail.toJSONL()], { type: "application/x-ndjson" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "hooks-audit.jsonl";
    link.click();
    // The download has its own copy once started.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  });
}

function connect(token: string): void {
  login.hidden = true;
  const client = new A3sClient({
    token,
    clientId: `page-${crypto.randomUUID().slice(0, 8)}`,
    // Decisions and failures of this page's hooks, for the audit list.
    auditLevel: "info",
  });
  showAudit(client);
  client.on("state", ({ state: now, error }) => {
    state.textContent = now;
    state.dataset.state = now;
    problem.textContent = now === "ready" || !error ? "" : error.message;
    if (now === "failed") login.hidden = false;
  });

  client.registerHook("PermissionRequest", {
    // Fail closed: with this page gone, nothing is approved behind the person's back.
    config: { timeoutMs: 120_000, failBehavior: "block", name: "browser confirmation" },
    handler: async (event, ctx) => {
      const answer = await confirmTool(event, ctx.signal);
      const said = { allow: "allowed here", deny: "denied here", gone: "no answer in time" };
      addRow(
        "PermissionRequest",
        subjectOf(event),
        said[answer],
        answer === "allow" ? "allow" : "deny",
      );
      return answer === "allow"
        ? { action: "continue", permission: "allow" }
        : { action: "block", reason: "denied in the browser" };
    },
  });
  for (const [name, describe] of Object.entries(WATCHED)) {
    client.registerHook(name as HookEventName, {
      // Watching only: the agent does not wait for these.
      config: { async: true },
      handler: (event) => {
        const [decision, kind] = (describe as (e: unknown) => Shown)(event);
        addRow(name, subjectOf(event as { tool?: string }), decision, kind);
      },
    });
  }
  enablePrompt(client);
}

/** The "Ask the agent" box: one session, created on the first prompt. */
function enablePrompt(client: A3sClient): void {
  const section = element("ask");
  const form = element<HTMLFormElement>("prompt-form");
  const input = element<HTMLInputElement>("prompt");
  const reply = element("reply");
  let session: Promise<string> | undefined;
  section.hidden = false;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const prompt = input.value;
    reply.textContent = "…";
    try {
      session ??= client.createSession({ metadata: { from: "browser page" } });
      const result = await client.generate(await session, prompt);
      reply.textContent = result.blocked ? `blocked: ${result.reason ?? ""}` : result.text;
    } catch (error) {
      session = undefined;
      reply.textContent = `error: ${(error as Error).message}`;
    }
  });
}

login.addEventListener("submit", (e) => {
  e.preventDefault();
  connect(element<HTMLInputElement>("token").value);
});

const token = tokenFromFragment();
if (token) connect(token);
else login.hidden = false;
