import type { PreToolUseEvent } from "@a3s-lab/hooks-core";
import { alternate } from "../cross/alternate.js";
import { startEcho } from "../cross/echo-host.js";
import { startRawWsHost } from "../cross/raw-ws.js";
import { eventOfSize } from "../payload.js";
import { goals, makeRow, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";
import { checkedRoundTrip, firing, probe, startOurs } from "./remote-peers.js";

/**
 * The text frame our hook server sends for one firing of `event`: the HookEvent message as
 * JSON with the event as its payload (what `ws-event-sink` writes, field for field).
 */
export function hookEventFrame(event: PreToolUseEvent): string {
  return JSON.stringify({
    type: "HookEvent",
    // A UUID, as the client makes them.
    hookId: "00000000-0000-4000-8000-000000000001",
    eventType: event.eventType,
    sessionId: event.sessionId,
    timestamp: event.timestamp,
    eventId: event.eventId,
    deadlineMs: Date.now() + 5000,
    payload: event,
  });
}

/** Remote hooks over WebSocket, against a raw `ws` echo of the same text frame. */
export const remoteWsSuite: Suite = {
  id: "remote-ws",
  title: "remote hooks over WebSocket",
  async run({ profile }) {
    const template = eventOfSize(1024);
    // The frame of a firing like the ones timed below (their ids differ only in the counter).
    const bytes = new TextEncoder().encode(hookEventFrame(firing(template, 1, "sequential")));
    const raw = await startEcho(() => startRawWsHost({ text: true }), "ws-echo-client");
    try {
      // The server's default frame-rate guard stays on: answers to its firings are not counted.
      const ours = await startOurs("websocket");
      try {
        await checkedRoundTrip(raw.host, bytes);
        await probe(ours.engine, template);
        let n = 1;
        const sequential = await alternate(
          {
            ours: () => ours.engine.fire(firing(template, n++, "sequential")),
            raw: () => raw.host.roundTrip(bytes),
          },
          profile.roundTrips,
        );
        return {
          rows: [
            makeRow({
              id: "remote.ws.1kb",
              what: "remote hook round trip over WebSocket, 1 KB event",
              ours: side(
                "`fire()` → server → `A3sClient` (WebSocket)",
                summarize(sequential.ours!),
              ),
              baseline: side("raw `ws` echo, same bytes", summarize(sequential.raw!)),
              goal: goals.ratioAtMost(1.3, "≤ 1.3×"),
              smoke: profile.smoke,
              note: `One PreToolUse hook in an A3sClient (\`createWebSocketTransport\`, on \`ws\`) in another process, connected to the gRPC port; the echo sends the same ${bytes.byteLength.toLocaleString("en-US")}-byte HookEvent text frame both ways. The server's frame-rate guard keeps its defaults (answers to the server's own firings do not count against it).`,
            }),
          ],
          pending: [],
        };
      } finally {
        await ours.close();
      }
    } finally {
      await raw.close();
    }
  },
};
