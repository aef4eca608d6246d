/**
 * The inbox page of `a3s-hooks approvals serve`: one HTML document with its style and script
 * inline, each carrying the response's CSP nonce. Every value from the store is written with
 * `textContent`; nothing from the API is ever parsed as HTML.
 */

const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: #1b1b1b; background: #f5f5f2; }
main { max-width: 48rem; margin: 0 auto; padding: 0.75rem; }
h1 { font-size: 1.25rem; margin: 0.25rem 0 0.75rem; }
h2 { font-size: 1.05rem; margin: 1.25rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0 0 0.4rem; overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin: 0.4rem 0 0.2rem; }
input, textarea { width: 100%; max-width: 100%; font: inherit; padding: 0.4rem; border: 1px solid #999; border-radius: 4px; }
textarea { min-height: 5rem; font-family: ui-monospace, monospace; font-size: 0.85rem; }
pre { margin: 0.3rem 0; padding: 0.5rem; background: #fff; border: 1px solid #ddd; border-radius: 4px;
  white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; font-size: 0.85rem; }
dl { display: grid; grid-template-columns: minmax(5rem, max-content) minmax(0, 1fr); gap: 0.1rem 0.6rem; margin: 0.3rem 0; }
dt { color: #555; }
dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
.approval { background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 0.75rem; margin: 0 0 0.75rem; min-width: 0; }
.approval.decided { background: #fafafa; color: #333; }
.buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.6rem; }
button { font: inherit; padding: 0.5rem 1rem; border-radius: 4px; border: 1px solid #555; cursor: pointer; min-width: 0; max-width: 100%; }
button.approve { background: #1d6b2f; color: #fff; border-color: #1d6b2f; }
button.deny { background: #9b1c1c; color: #fff; border-color: #9b1c1c; }
button:disabled { opacity: 0.6; cursor: default; }
details { margin-top: 0.4rem; }
.message { margin: 0.4rem 0 0; font-weight: 600; overflow-wrap: anywhere; }
.message:empty { display: none; }
.error { color: #9b1c1c; }
.ok { color: #1d6b2f; }
#banner { padding: 0.5rem 0.75rem; border-radius: 4px; background: #fde8e8; color: #7a1010; margin-bottom: 0.75rem; overflow-wrap: anywhere; }
#banner:empty { display: none; }
.status-allowed { color: #1d6b2f; font-weight: 600; }
.status-denied { color: #9b1c1c; font-weight: 600; }
.empty { color: #555; }
`;

const SCRIPT = `
"use strict";
const TOKEN_KEY = "a3s-inbox-token";
const NAME_KEY = "a3s-inbox-name";
const banner = document.getElementById("banner");
const nameInput = document.getElementById("name");
const pendingList = document.getElementById("pending");
const decidedList = document.getElementById("decided");

// The token arrives in the fragment (never sent to a server, never in a log), is kept for this
// tab only, and leaves the address bar at once.
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.has("token")) {
  sessionStorage.setItem(TOKEN_KEY, hash.get("token"));
  history.replaceState(null, "", location.pathname + location.search);
}
const token = sessionStorage.getItem(TOKEN_KEY);

nameInput.value = localStorage.getItem(NAME_KEY) || "";
nameInput.addEventListener("input", () => localStorage.setItem(NAME_KEY, nameInput.value.trim()));

function say(text) { banner.textContent = text; }

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function pretty(value) {
  try { return JSON.stringify(value, null, 2); } catch { return String(value); }
}

function rows(dl, pairs) {
  for (const [k, v] of pairs) {
    if (v === undefined || v === "") continue;
    dl.append(el("dt", "", k), el("dd", "", v));
  }
}

async function api(path, init) {
  const headers = Object.assign({ authorization: "Bearer " + token }, (init && init.headers) || {});
  const response = await fetch(path, Object.assign({}, init, { headers, cache: "no-store" }));
  let body;
  try { body = await response.json(); } catch { body = undefined; }
  return { status: response.status, body };
}

const WRONG_TOKEN = "Wrong or missing token: open the address that \\"a3s-hooks approvals serve\\" printed (the part after #token= is the token).";

function card(a) {
  const article = el("article", "approval");
  article.dataset.id = a.id;
  article.append(el("h3", "", a.toolName));
  const dl = el("dl");
  rows(dl, [
    ["reason", a.reason],
    ["session", a.sessionId],
    ["parked", when(a.createdAt)],
    ["deadline", a.deadline ? when(a.deadline) + " (then " + a.onDeadline + ")" : "none"],
    ["deciders", a.deciders.length ? a.deciders.join(", ") : "anyone with the token"],
  ]);
  article.append(dl, el("label", "", "input"), el("pre", "input", pretty(a.toolInput)));
  return article;
}

function pendingCard(a) {
  const article = card(a);
  const original = pretty(a.toolInput);
  const reasonLabel = el("label", "", "reason (optional)");
  const reason = el("input", "reason");
  reason.id = "reason-" + a.id;
  reasonLabel.htmlFor = reason.id;
  const details = el("details");
  details.append(el("summary", "", "edit input (for Approve)"));
  const edit = el("textarea", "edit");
  edit.value = original;
  edit.setAttribute("aria-label", "edited input (JSON)");
  details.append(edit);
  const buttons = el("div", "buttons");
  const approve = el("button", "approve", "Approve");
  const deny = el("button", "deny", "Deny");
  approve.type = deny.type = "button";
  buttons.append(approve, deny);
  const message = el("p", "message");
  message.setAttribute("role", "status");
  article.append(reasonLabel, reason, details, buttons, message);

  const decide = async (decision) => {
    message.className = "message error";
    const by = nameInput.value.trim();
    if (!by) { message.textContent = "Type your name in \\"deciding as\\" first."; nameInput.focus(); return; }
    const body = { decision, by };
    if (reason.value.trim()) body.reason = reason.value.trim();
    if (decision === "allow" && edit.value !== original) {
      try { body.editedInput = JSON.parse(edit.value); }
      catch (e) { message.textContent = "The edited input is not JSON: " + e.message; return; }
    }
    approve.disabled = deny.disabled = true;
    message.className = "message";
    message.textContent = "Sending…";
    try {
      const { status, body: answer } = await api("/api/approvals/" + encodeURIComponent(a.id) + "/decision", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (status === 200) {
        message.className = "message ok";
        message.textContent = (answer.status === "allowed" ? "Approved" : "Denied") + " by " + answer.decidedBy + ".";
        return;
      }
      message.className = "message error";
      const error = (answer && answer.error) || {};
      if (status === 401) { say(WRONG_TOKEN); message.textContent = WRONG_TOKEN; }
      else if (status === 409 && error.details && error.details.decidedBy) {
        message.textContent = "Already decided by " + error.details.decidedBy + " (" + error.details.status + ").";
      } else message.textContent = error.message || "The inbox answered " + status + ".";
      approve.disabled = deny.disabled = status === 409;
    } catch (e) {
      message.className = "message error";
      message.textContent = "The inbox is unreachable: " + e.message;
      approve.disabled = deny.disabled = false;
    }
  };
  approve.addEventListener("click", () => decide("allow"));
  deny.addEventListener("click", () => decide("deny"));
  return article;
}

function decidedCard(a) {
  const article = card(a);
  article.classList.add("decided");
  const line = el("p", "status-" + a.status, a.status + " by " + a.decidedBy + " " + when(a.decidedAt));
  article.insertBefore(line, article.children[1]);
  const dl = el("dl");
  rows(dl, [
    ["decision reason", a.decisionReason],
    ["edited input", a.editedInput === undefined ? undefined : pretty(a.editedInput)],
    ["resumed", when(a.resumedAt)],
  ]);
  article.append(dl);
  return article;
}

// Pending cards are kept while their approval stays pending, so an update never wipes what the
// person is typing; decided ones are drawn again each time.
const shown = new Map();
function render(approvals) {
  const pending = approvals.filter((a) => a.status === "pending");
  const decided = approvals.filter((a) => a.status !== "pending").reverse();
  const keep = new Set(pending.map((a) => a.id));
  for (const [id, node] of shown) if (!keep.has(id)) { node.remove(); shown.delete(id); }
  for (const a of pending) {
    let node = shown.get(a.id);
    if (!node) { node = pendingCard(a); shown.set(a.id, node); }
    pendingList.append(node);
  }
  const none = pendingList.querySelector(".empty");
  if (pending.length === 0 && !none) pendingList.append(el("p", "empty", "Nothing waits for a decision."));
  if (pending.length > 0 && none) none.remove();
  decidedList.replaceChildren(...(decided.length ? decided.map(decidedCard) : [el("p", "empty", "No decisions yet.")]));
}

// Live updates by long polling: each request carries the token in its Authorization header and
// the version the page has; the server answers at once when the list changed, else when it does.
async function follow() {
  let since;
  for (;;) {
    try {
      const query = since === undefined ? "" : "&since=" + since;
      const { status, body } = await api("/api/approvals?status=all" + query);
      if (status === 401) { say(WRONG_TOKEN); document.body.dataset.state = "unauthorized"; return; }
      if (status !== 200) { say((body && body.error && body.error.message) || "The inbox answered " + status + "."); await new Promise((r) => setTimeout(r, 2000)); continue; }
      say("");
      since = body.version;
      render(body.approvals);
      document.body.dataset.state = "live";
    } catch (e) {
      say("The inbox is unreachable (" + e.message + "); trying again.");
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

// A token of one's own proves who decides: the name is the token's, not typed.
async function whoAmI() {
  try {
    const { status, body } = await api("/api/me");
    if (status !== 200 || !body || typeof body.name !== "string") return;
    nameInput.value = body.name;
    nameInput.readOnly = true;
    nameInput.title = "This token is " + body.name + "'s";
    document.body.dataset.decider = body.name;
  } catch {
    // The list's own requests say when the inbox is unreachable.
  }
}

if (!token) { say(WRONG_TOKEN); document.body.dataset.state = "unauthorized"; }
else { whoAmI(); follow(); }
`;

/** The inbox page, its inline style and script carrying `nonce`. */
export function inboxPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Approvals inbox</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body data-state="loading">
<main>
<h1>Approvals inbox</h1>
<div id="banner" role="alert"></div>
<label for="name">deciding as</label>
<input id="name" autocomplete="name" placeholder="your name">
<h2>Waiting for a decision</h2>
<section id="pending" aria-live="polite"></section>
<h2>Decided</h2>
<section id="decided"></section>
</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`;
}
