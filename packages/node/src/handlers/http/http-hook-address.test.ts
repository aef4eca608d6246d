import { describe, expect, it } from "vitest";
import { checkedAddresses, type HostResolver, refusedRange } from "./http-hook-address.js";

describe("refusedRange", () => {
  it.each([
    // NAT64 (64:ff9b::/96) is judged by the IPv4 address it holds, as ::ffff: is.
    ["64:ff9b::a00:5", "10.0.0.0/8"],
    ["64:ff9b::10.0.0.5", "10.0.0.0/8"],
    ["64:ff9b::a9fe:a9fe", "169.254.0.0/16"],
    ["64:ff9b::c0a8:101", "192.168.0.0/16"],
    ["64:ff9b::", "0.0.0.0/8"],
    ["64:ff9b:1::a00:5", "64:ff9b:1::/48"],
    ["64:ff9b:1:ffff::808:808", "64:ff9b:1::/48"],
    // IPv4-compatible (::/96) reaches the IPv4 address it holds on some stacks.
    ["::a00:5", "::/96"],
    ["::169.254.169.254", "::/96"],
    ["::7f00:1", "::/96"],
    ["::2", "::/96"],
    ["::", "::/128"],
    // IPv4-translated (SIIT, ::ffff:0:0:0/96), refused whole like 6to4.
    ["::ffff:0:a00:5", "::ffff:0:0:0/96"],
    ["::ffff:0:808:808", "::ffff:0:0:0/96"],
    ["2002:a00:5::", "2002::/16"],
    ["2002:808:808::1", "2002::/16"],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "2001::/32"],
    ["100::1", "100::/64"],
    ["100::ffff:ffff:ffff:ffff", "100::/64"],
    ["198.18.0.1", "198.18.0.0/15"],
    ["198.19.255.255", "198.18.0.0/15"],
    ["192.0.0.192", "192.0.0.0/24"],
    ["::ffff:198.18.0.1", "198.18.0.0/15"],
    ["::ffff:192.0.0.170", "192.0.0.0/24"],
    ["::ffff:a9fe:a9fe", "169.254.0.0/16"],
    ["fe80::1%eth0", "fe80::/10"],
    ["10.0.0.1", "10.0.0.0/8"],
    ["not-an-address", "not an IP address"],
  ])("refuses %s (%s)", (address, range) => {
    expect(refusedRange(address)).toContain(range);
  });

  it.each([
    "8.8.8.8",
    "127.0.0.1",
    "::1",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
    // Loopback inside NAT64 is allowed as it is inside ::ffff:.
    "64:ff9b::7f00:1",
    "64:ff9b::808:808",
    "64:ff9b::8.8.8.8",
    "64:ff9b:2::a00:5",
    "2001:1::1",
    "2003::1",
    "2606:4700::1111",
    "100:0:0:1::1",
    "198.17.255.255",
    "198.20.0.0",
    "192.0.1.1",
    "::ffff:8.8.8.8",
  ])("allows %s", (address) => {
    expect(refusedRange(address)).toBeUndefined();
  });

  it("names the NAT64 range and the IPv4 address it holds", () => {
    expect(refusedRange("64:ff9b::a9fe:a9fe")).toBe(
      "64:ff9b::/96 (NAT64) holding 169.254.169.254, in 169.254.0.0/16 (link-local, where cloud metadata services answer)",
    );
  });
});

describe("checkedAddresses", () => {
  const signal = new AbortController().signal;
  const resolving =
    (table: Record<string, string[]>): HostResolver =>
    async (hostname) =>
      (table[hostname] ?? []).map((address) => ({
        address,
        family: address.includes(":") ? 6 : 4,
      }));
  const check = (url: string, table: Record<string, string[]> = {}, allowPrivate = false) =>
    checkedAddresses(new URL(url), { resolve: resolving(table), allowPrivate, signal });

  it.each([
    ["http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "64:ff9b::a9fe:a9fe", "169.254.0.0/16"],
    ["http://[::169.254.169.254]/", "::a9fe:a9fe", "::/96"],
    ["http://[2002:a9fe:a9fe::]/", "2002:a9fe:a9fe::", "2002::/16"],
    ["http://198.18.0.1/", "198.18.0.1", "198.18.0.0/15"],
  ])(
    "refuses the literal %s without resolving, naming the address and range",
    async (url, address, range) => {
      await expect(check(url)).rejects.toMatchObject({
        code: "INVALID_CONFIG",
        path: ["url"],
        details: { address, range: expect.stringContaining(range) },
      });
    },
  );

  it("refuses a name that resolves to a NAT64 form of a private address", async () => {
    await expect(
      check("https://hooks.example.test/", {
        "hooks.example.test": ["2606:4700::1111", "64:ff9b::a00:5"],
      }),
    ).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      details: { host: "hooks.example.test", address: "64:ff9b::a00:5" },
    });
  });

  it("answers a name's public NAT64 address, and every address when private ones are allowed", async () => {
    expect(
      await check("https://hooks.example.test/", { "hooks.example.test": ["64:ff9b::808:808"] }),
    ).toEqual([{ address: "64:ff9b::808:808", family: 6 }]);
    expect(
      await check("https://hooks.example.test/", { "hooks.example.test": ["::a00:5"] }, true),
    ).toEqual([{ address: "::a00:5", family: 6 }]);
  });
});
