import { fileURLToPath } from "node:url";
import { HookEngine } from "@a3s-lab/hooks-core";
import { commandHookRegistration, toHookInput } from "@a3s-lab/hooks-node";
import { shellQuote } from "@a3s-lab/hooks-node/internal";
import { BenchError } from "../bench-error.js";
import { alternate } from "../cross/alternate.js";
import { rawSpawn, rawSpawnAll } from "../cross/raw-spawn.js";
import { eventOfSize } from "../payload.js";
import { goals, makeRow, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

// The same two levels up from src/suites/ and from the bundle in .tmp/dist/.
const benchRoot = fileURLToPath(new URL("../..", import.meta.url));
const script = fileURLToPath(new URL("../../fixtures/approve.sh", import.meta.url));

/** The command every contender runs: a small policy script that reads stdin and allows. */
function approveCommand(): string {
  return `sh ${shellQuote(script)}`;
}

const HOOKS = 8;

/** Command hooks through the engine against raw `spawn` of the same script with the same stdin. */
export const commandSuite: Suite = {
  id: "command",
  title: "command hooks",
  async run({ profile }) {
    const command = approveCommand();
    const event = eventOfSize(1024);
    // The exact bytes our executor writes to the hook's stdin, so both sides pipe the same.
    const stdin = JSON.stringify(toHookInput(event, { cwd: benchRoot }));
    const options = { projectDir: benchRoot };
    const one = new HookEngine();
    one.register(
      commandHookRegistration({ event: "PreToolUse", command, name: "approve" }, options),
    );
    const many = new HookEngine();
    for (let i = 0; i < HOOKS; i++) {
      many.register(
        commandHookRegistration({ event: "PreToolUse", command, name: `approve-${i}` }, options),
      );
    }

    const probe = await rawSpawn(command, stdin);
    if (probe.code !== 0 || !probe.stdout.includes('"continue"')) {
      throw new BenchError(
        "TASK_FAILED",
        `approve.sh: exit ${probe.code}, stdout ${JSON.stringify(probe.stdout)}, stderr ${JSON.stringify(probe.stderr)}`,
      );
    }
    for (const engine of [one, many]) {
      const result = await engine.fire(event);
      const bad = result.outcomes.find((o) => o.status !== "ok");
      if (result.action !== "continue" || bad) {
        throw new BenchError(
          "TASK_FAILED",
          `command hook: ${bad?.error?.message ?? result.action}`,
        );
      }
    }

    const single = await alternate(
      {
        ours: () => one.fire(event),
        raw: () => rawSpawn(command, stdin),
        detached: () => rawSpawn(command, stdin, 10_000, { detached: true }),
      },
      profile.spawns,
    );
    const parallel = await alternate(
      { ours: () => many.fire(event), raw: () => rawSpawnAll(HOOKS, command, stdin) },
      Math.max(2, Math.ceil(profile.spawns / 4)),
    );
    const stdinNote = `The hook reads ${stdin.length.toLocaleString("en-US")} bytes on stdin: the 1 KB event in Claude Code's fields and in ours.`;
    return {
      rows: [
        makeRow({
          id: "command.1kb",
          what: "command hook, 1 KB event",
          ours: side("`fire()` → command hook", summarize(single.ours!)),
          baseline: side("raw `spawn` of the same script, same stdin", summarize(single.raw!)),
          goal: goals.overheadBelow(1e6, "overhead < 1 ms median"),
          smoke: profile.smoke,
          note: stdinNote,
        }),
        makeRow({
          id: "command.1kb.detached",
          what: "command hook, 1 KB event, against a detached spawn",
          ours: side("`fire()` → command hook", summarize(single.ours!)),
          baseline: side(
            "raw `spawn`, own process group (`detached`)",
            summarize(single.detached!),
          ),
          goal: goals.none(),
          smoke: profile.smoke,
          note: "The executor starts every hook in a process group of its own (setsid) so a timeout can kill the whole tree. This row takes that requirement out of the comparison: what is left is the executor's own overhead.",
        }),
        makeRow({
          id: "command.8x",
          what: `${HOOKS} command hooks on one event`,
          ours: side("`fire()` → 8 command hooks", summarize(parallel.ours!)),
          baseline: side("8 raw spawns in parallel", summarize(parallel.raw!)),
          goal: goals.ratioAtMost(1.2, "≤ 1.2×"),
          smoke: profile.smoke,
          note: stdinNote,
        }),
      ],
      pending: [],
    };
  },
};
