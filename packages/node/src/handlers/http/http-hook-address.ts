import { BlockList, isIP, type LookupFunction } from "node:net";
import { HookError } from "@a3s-lab/hooks-core";
import { raceAbort } from "@a3s-lab/hooks-core/internal";

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to; the system resolver unless a host (or a test) gives one. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/**
 * The address ranges an http hook does not reach unless an `allowedHttpHookUrls` entry names
 * its host: private networks, link-local (where cloud metadata services answer), shared
 * (CGNAT), "this network", multicast and reserved, in IPv4 and IPv6, and the IPv6 forms that
 * carry an IPv4 address to wherever it leads (6to4, Teredo, IPv4-compatible, local-use NAT64).
 * An IPv4-mapped address (`::ffff:10.0.0.1`) and a NAT64 address of the well-known prefix
 * (`64:ff9b::10.0.0.1`, which an IPv6-only host behind NAT64 reaches as that IPv4 address) are
 * judged as the IPv4 address they hold. Loopback (127.0.0.0/8, `::1`, and the same inside
 * `::ffff:` or `64:ff9b::`) is not among them: a policy server on the same machine is the
 * common case.
 */
export const HTTP_HOOK_REFUSED_RANGES: readonly {
  readonly range: string;
  readonly kind: string;
}[] = [
  { range: "0.0.0.0/8", kind: '"this network", which reaches the machine itself' },
  { range: "10.0.0.0/8", kind: "private" },
  { range: "100.64.0.0/10", kind: "shared (CGNAT), where some cloud metadata services answer" },
  { range: "169.254.0.0/16", kind: "link-local, where cloud metadata services answer" },
  { range: "172.16.0.0/12", kind: "private" },
  { range: "192.0.0.0/24", kind: "reserved for IETF protocol assignments" },
  { range: "192.168.0.0/16", kind: "private" },
  { range: "198.18.0.0/15", kind: "reserved for benchmarking" },
  { range: "224.0.0.0/4", kind: "multicast" },
  { range: "240.0.0.0/4", kind: "reserved" },
  { range: "::/128", kind: "unspecified, which reaches the machine itself" },
  {
    range: "::/96",
    kind: "IPv4-compatible, deprecated, which some systems send to the IPv4 address it holds",
  },
  {
    range: "::ffff:0:0:0/96",
    kind: "IPv4-translated (SIIT), which a translator sends to the IPv4 address it holds",
  },
  { range: "64:ff9b:1::/48", kind: "local-use NAT64, which reaches private IPv4 networks" },
  { range: "100::/64", kind: "discard-only" },
  { range: "2001::/32", kind: "Teredo, which tunnels to an IPv4 address it holds" },
  { range: "2002::/16", kind: "6to4, which tunnels to the IPv4 address it holds" },
  { range: "fc00::/7", kind: "unique local (private)" },
  { range: "fe80::/10", kind: "link-local" },
  { range: "fec0::/10", kind: "site-local (private)" },
  { range: "ff00::/8", kind: "multicast" },
];

const RULES = HTTP_HOOK_REFUSED_RANGES.map(({ range, kind }) => {
  const [network, prefix] = range.split("/") as [string, string];
  const list = new BlockList();
  list.addSubnet(network, Number(prefix), network.includes(":") ? "ipv6" : "ipv4");
  return { range, kind, list };
});

// ::1 lies inside ::/96 but is loopback, which stays allowed.
const LOOPBACK_V6 = new BlockList();
LOOPBACK_V6.addAddress("::1", "ipv6");
const NAT64 = new BlockList();
NAT64.addSubnet("64:ff9b::", 96, "ipv6");

/**
 * The IPv4 address in the last 32 bits of an IPv6 address (`64:ff9b::a00:5` → `10.0.0.5`).
 * `address` must be one `isIP` accepts as version 6.
 */
function lastIpv4(address: string): string {
  const bare = address.split("%")[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  if (dotted) return dotted.slice(1).join(".");
  const [head = "", tail] = bare.split("::");
  const groups = (tail ?? head).split(":");
  const low = Number.parseInt(groups.at(-1) || "0", 16);
  // "x::y" leaves one group after "::": the one before it is zero.
  const high = groups.length > 1 ? Number.parseInt(groups.at(-2) || "0", 16) : 0;
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/**
 * The refused range an address falls in, as `"10.0.0.0/8 (private)"`, or undefined when an
 * http hook may reach it. A string that is not an IP address is refused: nothing can tell
 * where a connection to it would go.
 */
export function refusedRange(address: string): string | undefined {
  const version = isIP(address);
  if (version === 0) return "not an IP address";
  if (version === 6) {
    if (LOOPBACK_V6.check(address, "ipv6")) return undefined;
    if (NAT64.check(address, "ipv6")) {
      const ipv4 = lastIpv4(address);
      const inner = refusedRange(ipv4);
      return inner && `64:ff9b::/96 (NAT64) holding ${ipv4}, in ${inner}`;
    }
  }
  const family = version === 4 ? "ipv4" : "ipv6";
  const rule = RULES.find((r) => r.list.check(address, family));
  return rule && `${rule.range} (${rule.kind})`;
}

/** The system resolver: every address, in the order the system gives them. */
export const systemResolver: HostResolver = async (hostname) =>
  // node:dns/promises loads on the first name to resolve, not when the CLI starts.
  (await (await import("node:dns/promises")).lookup(hostname, { all: true })).map(
    ({ address, family }) => ({
      address,
      family: family === 6 ? 6 : 4,
    }),
  );

const WHY =
  "http hooks do not reach private, link-local, metadata or reserved addresses (loopback is allowed); an allowedHttpHookUrls entry in a managed, user or explicit settings file that names this host allows it";

/**
 * The addresses an http hook may connect to for `url`: the host itself when it is an address
 * (as WHATWG URL normalised it: `http://0xa9.0xfe.0xa9.0xfe/` is 169.254.169.254), else every
 * address the name resolves to. One refused address refuses the host, so a name cannot mix a
 * public address with a private one; the error (`INVALID_CONFIG`) names the host and the address.
 * Connect only to what this returns (see `pinnedLookup`): resolving again could answer otherwise.
 */
export async function checkedAddresses(
  url: URL,
  options: { resolve: HostResolver; allowPrivate: boolean; signal: AbortSignal },
): Promise<ResolvedAddress[]> {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(host);
  const addresses: ResolvedAddress[] =
    literal !== 0
      ? [{ address: host, family: literal === 6 ? 6 : 4 }]
      : [...(await raceAbort(options.resolve(host), options.signal))];
  if (addresses.length === 0) {
    throw new HookError("HANDLER_FAILED", `the request failed: ${host} resolves to no address`);
  }
  if (options.allowPrivate) return addresses;
  for (const { address } of addresses) {
    const range = refusedRange(address);
    if (range === undefined) continue;
    const where =
      literal !== 0 ? `${host} is in ${range}` : `${host} resolves to ${address}, in ${range}`;
    throw new HookError("INVALID_CONFIG", `url: ${where}; ${WHY}`, {
      path: ["url"],
      details: { host, address, range },
    });
  }
  return addresses;
}

/**
 * A `lookup` for `node:http`'s `request` that answers with the checked addresses only, so the
 * connection goes to an address that was checked and the name is never resolved a second time.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const wanted =
      options.family === 4 || options.family === "IPv4"
        ? 4
        : options.family === 6 || options.family === "IPv6"
          ? 6
          : 0;
    const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
    // Node expects the answer after the call returns, as a real resolver gives it.
    process.nextTick(() => {
      const first = usable[0];
      if (!first) {
        const error: NodeJS.ErrnoException = new Error(`no IPv${wanted} address for ${hostname}`);
        error.code = "ENOTFOUND";
        callback(error, "");
      } else if (options.all === true)
        callback(
          null,
          usable.map((a) => ({ ...a })),
        );
      else callback(null, first.address, first.family);
    });
  };
}
