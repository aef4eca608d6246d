import { cpus, loadavg, release, totalmem } from "node:os";

/** Where a run happened: numbers from different machines are not comparable. */
export interface Machine {
  cpuModel: string;
  cores: number;
  node: string;
  os: string;
  memoryGB: number;
  /** 1-minute load average when the run started: above `cores`, expect noise. */
  loadAverage: number;
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() || "unknown",
    cores: list.length,
    node: process.version,
    os: `${process.platform} ${release()}`,
    memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
  };
}
