import { type ChildProcess, fork } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { A3sClient } from "@a3s-lab/box";

const SCRIPT = fileURLToPath(new URL("test-agent.ts", import.meta.url));
const TOKEN = "examples-token";

/** The test agent in its own process, and an A3sClient (in this one) connected to it. */
export class AgentProcess {
  readonly process: ChildProcess;
  readonly address: string;
  readonly client: A3sClient;

  private constructor(child: ChildProcess, address: string) {
    this.process = child;
    this.address = address;
    this.client = new A3sClient({ address, token: TOKEN });
  }

  static async start(): Promise<AgentProcess> {
    const child = fork(SCRIPT, [TOKEN], {
      execArgv: ["--conditions=@a3s-lab/source", "--import", "tsx"],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    const address = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (line) =>
        resolve((JSON.parse(line) as { address: string }).address),
      );
      child.once("exit", (code) => reject(new Error(`the test agent exited with ${code}`)));
    });
    return new AgentProcess(child, address);
  }

  /** The commands the agent's (fake) Bash ran, in order. */
  ran(): Promise<string[]> {
    return new Promise((resolve) => {
      this.process.once("message", (m) => resolve((m as { ran: string[] }).ran));
      this.process.send({ op: "ran" });
    });
  }

  async stop(): Promise<void> {
    await this.client.close();
    const exited = new Promise((resolve) => this.process.once("exit", resolve));
    if (this.process.connected) this.process.disconnect();
    await exited;
  }
}
