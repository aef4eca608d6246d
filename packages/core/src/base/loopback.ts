import { HookError } from "./hook-error.js";

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * True when `hostname` names this machine: `localhost`, an address in 127.0.0.0/8, or `::1`
 * (bare or in brackets, as `URL` writes it). Pass a hostname a URL parser has normalised, so
 * other spellings (`127.1`, `[0:0::1]`) arrive in these forms; anything else counts as
 * another machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "::1" || host === "[::1]") return true;
  const octets = IPV4_LOOPBACK.exec(host);
  return octets?.slice(1).every((o) => Number(o) <= 255) ?? false;
}

/**
 * Refuses a plaintext connection to another machine: it would carry the token and every hook
 * event unencrypted. This machine is always fine; another one only with the caller's explicit
 * `allowPlaintextRemote: true`. `remedy` says how to encrypt instead (TLS credentials, a
 * `wss://` address). Throws `INVALID_CONFIG` at `options.address`.
 */
export function checkPlaintextHost(
  hostname: string,
  options: { allowPlaintextRemote?: boolean | undefined },
  remedy: string,
): void {
  if (options.allowPlaintextRemote === true || isLoopbackHost(hostname)) return;
  throw new HookError(
    "INVALID_CONFIG",
    `options.address: ${hostname} is not this machine, and plaintext would send the token and every hook event unencrypted; ${remedy}, or set allowPlaintextRemote: true`,
    { path: ["options", "address"] },
  );
}
