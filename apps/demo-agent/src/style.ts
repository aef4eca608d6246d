/** Text styles for the transcript; every function is the identity when colour is off. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
}

function sgr(open: number, close: number) {
  return (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
}

const identity = (text: string) => text;

/** ANSI styles when `enabled`, plain text otherwise. */
export function createStyle(enabled: boolean): Style {
  if (!enabled) {
    return {
      enabled,
      bold: identity,
      dim: identity,
      red: identity,
      green: identity,
      yellow: identity,
      blue: identity,
      magenta: identity,
      cyan: identity,
    };
  }
  return {
    enabled,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
  };
}

/**
 * Colour only for a terminal: off when `NO_COLOR` is set (any value but empty) or the stream
 * is not a TTY, on when `FORCE_COLOR` is set to anything but `0`.
 */
export function shouldColor(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0";
  return stream.isTTY === true;
}
