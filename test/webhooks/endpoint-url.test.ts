import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/core/errors.ts";
import { classifyAddress, normalizeAddress } from "../../src/webhooks/addresses.ts";
import { checkEndpointUrl, type EndpointPolicy } from "../../src/webhooks/endpoint-url.ts";

const PUBLIC_V4 = "93.184.215.14";
const PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c";

/** A resolver that answers `addresses` for every name. */
const answering =
  (...addresses: string[]) =>
  async () =>
    addresses;

const production = (resolve = answering(PUBLIC_V4)): EndpointPolicy => ({
  allowHttpLocalhost: false,
  resolve,
});
const development = (resolve = answering(PUBLIC_V4)): EndpointPolicy => ({
  allowHttpLocalhost: true,
  resolve,
});

/** The 422 `checkEndpointUrl` throws for `url`; fails the test if it accepts it. */
async function refusal(url: string, policy: EndpointPolicy): Promise<ApiError> {
  try {
    await checkEndpointUrl(url, policy);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

// One address of each range no webhook may reach, with the address the refusal names.
const INTERNAL_V4 = [
  "0.0.0.0",
  "0.1.2.3",
  "10.0.0.1",
  "10.255.255.255",
  "100.64.0.1",
  "100.127.255.254",
  "127.0.0.1",
  "127.255.0.9",
  "169.254.169.254",
  "172.16.0.1",
  "172.31.255.255",
  "192.0.0.8",
  "192.0.2.10",
  "192.168.1.1",
  "198.18.0.1",
  "198.19.255.255",
  "198.51.100.7",
  "203.0.113.9",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
];
const INTERNAL_V6 = [
  "::",
  "::1",
  "fc00::1",
  "fd12:3456:789a::1",
  "fe80::1",
  "febf::1",
  "ff02::1",
  "2001:db8::1",
];
// IPv6 forms that carry (and route to) an internal IPv4 address.
const EMBEDDED_INTERNAL_V4 = [
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::ffff:169.254.169.254",
  "::ffff:a9fe:a9fe",
  "::ffff:10.0.0.1",
  "::ffff:0:192.168.0.1",
  "::127.0.0.1",
  "64:ff9b::127.0.0.1",
  "64:ff9b::a9fe:a9fe",
  "64:ff9b::10.1.2.3",
  "2002:a9fe:a9fe::1",
];

describe("addresses", () => {
  test("every IPv4 range a webhook may not reach is internal, or loopback for 127/8", () => {
    for (const address of INTERNAL_V4) {
      expect([address, classifyAddress(address)]).toEqual([
        address,
        address.startsWith("127.") ? "loopback" : "internal",
      ]);
    }
  });

  test("the IPv6 ranges (unspecified, unique and link-local, multicast, documentation) are internal, ::1 loopback", () => {
    for (const address of INTERNAL_V6) {
      expect([address, classifyAddress(address)]).toEqual([
        address,
        address === "::1" ? "loopback" : "internal",
      ]);
    }
  });

  test("mapped, compatible, NAT64 and 6to4 forms are judged by the IPv4 address they carry", () => {
    for (const address of EMBEDDED_INTERNAL_V4)
      expect([address, classifyAddress(address)]).not.toEqual([address, "public"]);
    expect(classifyAddress("::ffff:127.0.0.1")).toBe("loopback");
    expect(classifyAddress("64:ff9b::a9fe:a9fe")).toBe("internal");
    expect(classifyAddress("::ffff:93.184.215.14")).toBe("public");
    expect(classifyAddress("64:ff9b::8.8.8.8")).toBe("public");
  });

  test("IPv6 is normalized first: upper case, brackets and zone ids do not hide an address", () => {
    expect(normalizeAddress("[::FFFF:127.0.0.1]")).toBe("::ffff:127.0.0.1");
    expect(normalizeAddress("FE80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("0:0:0:0:0:0:0:1")).toBe("0:0:0:0:0:0:0:1");
    expect(classifyAddress("0:0:0:0:0:0:0:1")).toBe("loopback");
    expect(classifyAddress("[FE80::1%eth0]")).toBe("internal");
    expect(classifyAddress("FC00:0000::0001")).toBe("internal");
    expect(classifyAddress("0000:0000:0000:0000:0000:FFFF:0A00:0001")).toBe("internal");
    expect(classifyAddress("hooks.example.com")).toBeNull();
  });

  test("public addresses are public", () => {
    for (const address of [PUBLIC_V4, "8.8.8.8", "1.1.1.1", PUBLIC_V6, "2001:4860:4860::8888"]) {
      expect([address, classifyAddress(address)]).toEqual([address, "public"]);
    }
  });
});

describe("endpoint URL rules", () => {
  test("a public https URL whose name resolves only to public addresses is accepted", async () => {
    await checkEndpointUrl(
      "https://hooks.example.com/in?shop=1",
      production(answering(PUBLIC_V4, PUBLIC_V6)),
    );
    await checkEndpointUrl("https://93.184.215.14:8443/in", production());
    await checkEndpointUrl(`https://[${PUBLIC_V6}]/in`, production());
  });

  test("a refusal is a 422 UNPROCESSABLE on /body/url that says which rule", async () => {
    const error = await refusal("http://hooks.example.com/in", production());
    expect(error.toBody()).toEqual({
      error: "url must use https",
      code: "UNPROCESSABLE",
      status: 422,
      details: [{ path: "/body/url", message: "must use https" }],
    });
  });

  test("only absolute http(s) URLs: no relative URL, no other scheme", async () => {
    for (const url of [
      "hooks.example.com/in",
      "/in",
      "",
      "ftp://hooks.example.com/",
      "javascript:alert(1)",
    ]) {
      expect((await refusal(url, development())).message).toBe("url must be an absolute https URL");
    }
  });

  test("no user name or password in the URL", async () => {
    for (const url of ["https://user:secret@hooks.example.com/", "https://user@hooks.example.com/"]) {
      expect((await refusal(url, production())).message).toBe("url must not contain a user name or password");
    }
  });

  test("a literal internal address is refused in production, in every IPv4 and IPv6 form", async () => {
    const hosts = [
      ...INTERNAL_V4,
      ...[...INTERNAL_V6, ...EMBEDDED_INTERNAL_V4].map((address) => `[${address}]`),
      "[::FFFF:A9FE:A9FE]",
      "2130706433", // 127.0.0.1 as one number; the URL parser reads these forms as IPv4
      "0x7f.1",
      "0251.0376.0251.0376", // 169.254.169.254 in octal
    ];
    for (const host of hosts) {
      const error = await refusal(`https://${host}/in`, production());
      expect([host, error.status, error.message]).toEqual([
        host,
        422,
        expect.stringMatching(/^url points to an internal address \(.+\)$/),
      ]);
    }
    expect((await refusal("https://0251.0376.0251.0376/", production())).message).toContain(
      "169.254.169.254",
    );
    expect((await refusal("https://[::FFFF:A9FE:A9FE]/", production())).message).toContain(
      "::ffff:a9fe:a9fe",
    );
  });

  test("a name resolving to an internal address is refused, naming the address", async () => {
    for (const address of [...INTERNAL_V4, ...INTERNAL_V6, ...EMBEDDED_INTERNAL_V4]) {
      const error = await refusal("https://hooks.example.com/in", production(answering(address)));
      expect(error.message).toBe(`url points to an internal address (${address})`);
    }
  });

  test("one internal address among the name's records refuses it (all A and AAAA records are checked)", async () => {
    const policy = production(answering(PUBLIC_V4, PUBLIC_V6, "FE80::1%eth0"));
    expect((await refusal("https://hooks.example.com/", policy)).message).toBe(
      "url points to an internal address (fe80::1)",
    );
  });

  test("a name that does not resolve is refused", async () => {
    const failing = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    for (const resolve of [answering(), failing]) {
      expect((await refusal("https://gone.example.com/", production(resolve))).message).toBe(
        "url host gone.example.com does not resolve to any address",
      );
    }
    const system = { allowHttpLocalhost: false };
    expect((await refusal("https://nothing.invalid/", system)).details).toEqual([
      { path: "/body/url", message: "host nothing.invalid does not resolve to any address" },
    ]);
  });

  test("production refuses localhost over http and over https (the system resolver says loopback)", async () => {
    const system = { allowHttpLocalhost: false };
    expect((await refusal("http://localhost:3000/in", system)).message).toBe("url must use https");
    expect((await refusal("https://localhost:3000/in", system)).message).toMatch(
      /^url points to an internal address \((127\.0\.0\.1|::1)\)$/,
    );
  });

  test("development allows http only to localhost, 127.0.0.1 and [::1]", async () => {
    const system = { allowHttpLocalhost: true };
    for (const url of ["http://localhost:3000/in", "http://127.0.0.1:3000/in", "http://[::1]:3000/in"]) {
      await checkEndpointUrl(url, system);
    }
    expect((await refusal("http://hooks.example.com/", development())).message).toBe(
      "url must use https (http only to localhost, 127.0.0.1 or [::1])",
    );
    expect((await refusal("http://10.0.0.1/", development())).message).toMatch(/^url must use https/);
  });

  test("development allows loopback addresses but still refuses every other internal one", async () => {
    await checkEndpointUrl("https://receiver.test/in", development(answering("127.0.0.1", "::1")));
    for (const address of ["10.0.0.1", "169.254.169.254", "::ffff:192.168.0.1", "fd00::1"]) {
      const error = await refusal("https://receiver.test/in", development(answering(address)));
      expect(error.message).toBe(`url points to an internal address (${address})`);
    }
  });
});
