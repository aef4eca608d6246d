/**
 * The page `a3s-demo-agent serve --ui` serves: an `A3sClient` that connects to the agent that
 * served it (over WebSocket, the browser default), a PermissionRequest hook that asks the
 * person at the page, and a live list of the hook events it observes.
 *
 * Everything shown comes from the agent and is untrusted: it is set as text, never as HTML.
 *
 * A reload resumes the page's own client: the token, the client id and the agent's resume
 * secret stay in this tab's `sessionStorage` (never in the address), so F5 asks for nothing. A
 * page that goes away unregisters its hooks (and the browser closes its socket with 1001, which
 * the agent takes as "gone for good"), so a closed tab's fail-closed hook does not overrule
 * the next page's answers.
 */
import {
  A3sClient,
  AuditTrail,
  type ConnectionState,
  createWebSocketTransport,
  formatAuditRecord,
  type HookError,
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
const askFields = element<HTMLFieldSetElement>("ask-fields");
const MAX_ROWS = 200;

/** What this tab keeps across a reload: enough to resume, and nothing in the address. */
interface Saved {
  token: string;
  clientId: string;
  clientSecret?: string;
  /** Made after the agent refused a kept client id: not to be replaced again. */
  fresh?: boolean;
}

const STORAGE_KEY = "a3s-demo-page";

function loadSaved(): Saved | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Saved | null;
    return typeof saved?.token === "string" && typeof saved.clientId === "string"
      ? saved
      : undefined;
  } catch {
    return undefined;
  }
}

function save(saved: Saved | undefined): void {
  if (saved) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(saved));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** What went wrong, in the words of someone at the page rather than the protocol's. */
function describeProblem(now: ConnectionState, error: HookError | undefined): string {
  if (now === "ready" || now === "idle" || !error) return "";
  if (now === "failed" && error.code === "UNAUTHENTICATED")
    return "The agent did not accept this token. Paste the token that serve printed and connect again.";
  if (now === "failed" && error.code === "PERMISSION_DENIED")
    return "The agent does not let this page connect (its address is not allowed).";
  if (now === "failed") return `The agent refused this page: ${error.message}`;
  if (now === "reconnecting") return "Lost the connection to the agent; trying again…";
  return "";
}

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

/** The client of this page now, with what belongs to it. */
let current: { client: A3sClient; trail: AuditTrail; session?: Promise<string> } | undefined;

/**
 * The audit of this page's own hooks: the last records in a list (each one safe line of text)
 * and, on demand, all of them as a JSON Lines file.
 */
function auditTrailOf(client: A3sClient): AuditTrail {
  const trail = new AuditTrail(client, { limit: MAX_ROWS });
  trail.subscribe((record) => {
    const item = document.createElement("li");
    item.textContent = formatAuditRecord(record);
    item.dataset.type = record.type;
    audit.prepend(item);
    while (audit.children.length > MAX_ROWS) audit.lastElementChild!.remove();
  });
  return trail;
}

download.addEventListener("click", () => {
  if (!current) return;
  const jsonl = current.trail.toJSONL();
  const url = URL.createObjectURL(new Blob([jsonl], { type: "application/x-ndjson" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "hooks-audit.jsonl";
  link.click();
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 0);
});

const newClientId = () => `page-${crypto.randomUUID().slice(0, 8)}`;

function connect(first: Saved): void {
  let kept = first;
  save(kept);
  login.hidden = true;
  void current?.client.close();
  const client = new A3sClient({
    token: kept.token,
    clientId: kept.clientId,
    transport: (options) =>
      createWebSocketTransport({
        ...options,
        ...(kept.clientSecret ? { clientSecret: kept.clientSecret } : {}),
        // Kept beside the token, so a reload resumes this client.
        onClientSecret: (clientSecret) => {
          kept = { ...kept, clientSecret };
          if (current?.client === client) save(kept);
        },
      }),
    // Decisions and failures of this page's hooks, for the audit list.
    auditLevel: "info",
  });
  current = { client, trail: auditTrailOf(client) };
  client.on("state", ({ state: now, error }) => {
    if (current?.client !== client) return;
    // A copy of this page that did not leave cleanly still holds the kept client id (the
    // agent asks for a secret this tab no longer has): carry on as a new client.
    const idTaken = now === "failed" && error?.path?.[0] === "x-a3s-client-secret";
    if (idTaken && !kept.fresh) {
      connect({ token: kept.token, clientId: newClientId(), fresh: true });
      return;
    }
    state.textContent = now;
    state.dataset.state = now;
    problem.textContent = describeProblem(now, error);
    askFields.disabled = now !== "ready";
    if (now !== "failed") return;
    save(undefined);
    login.hidden = false;
  });

  client.registerHook("PermissionRequest", {
    // Readable ids: the audit list and the agent's transcript show them.
    id: "browser-confirmation",
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
      id: `watch-${name}`,
      // Watching only: the agent does not wait for these.
      config: { async: true, name: `watch ${name}` },
      handler: (event) => {
        const [decision, kind] = (describe as (e: unknown) => Shown)(event);
        addRow(name, subjectOf(event as { tool?: string }), decision, kind);
      },
    });
  }
  element("ask").hidden = false;
}

/** The "Ask the agent" box: one session per client, created on the first prompt. */
element<HTMLFormElement>("prompt-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const mine = current;
  if (!mine) return;
  const reply = element("reply");
  reply.textContent = "…";
  try {
    mine.session ??= mine.client.createSession({ metadata: { from: "browser page" } });
    const prompt = element<HTMLInputElement>("prompt").value;
    const result = await mine.client.generate(await mine.session, prompt);
    reply.textContent = result.blocked ? `blocked: ${result.reason ?? ""}` : result.text;
  } catch (error) {
    delete mine.session;
    reply.textContent = `error: ${(error as Error).message}`;
  }
});

login.addEventListener("submit", (e) => {
  e.preventDefault();
  connect({ token: element<HTMLInputElement>("token").value, clientId: newClientId() });
});

// Leaving (closed, reloaded, navigated away): unregister the hooks now rather than leave them
// to the agent's reconnect window. A page restored from the back/forward cache starts again.
addEventListener("pagehide", () => void current?.client.close());
addEventListener("pageshow", (e) => {
  if (e.persisted) location.reload();
});

const token = tokenFromFragment();
const kept = loadSaved();
if (token) connect({ token, clientId: newClientId() });
else if (kept) connect(kept);
else login.hidden = false;
