/**
 * The http hook's URL policy, in one place. {@link checkHttpUrl} decides everything the URL text
 * decides (scheme, credentials, `allowedHttpHookUrls`, and whether that setting lets the hook
 * reach the host's private addresses); the settings check, the registration and the handler all
 * call it. What only the request can tell is checked where the request is made, from this
 * verdict: the addresses the host resolves to (`checkedAddresses`, given `allowPrivate`), and a
 * redirect, which is never followed.
 */

/**
 * The policy of Claude Code's `allowedHttpHookUrls` and `httpHookAllowedEnvVars` settings.
 * Left out, a key restricts nothing.
 */
export interface HttpHookPolicy {
  /**
   * URL patterns (`*` matches any run of characters); an http hook whose URL matches none does
   * not run. A matching pattern whose host has no `*` (`http://10.0.0.5:8080/*`,
   * `https://hooks.corp.example/*`) also lets the hook reach that host's private addresses,
   * which are refused otherwise.
   */
  allowedUrls?: readonly string[];
  /** Variables any http hook may use in its headers, on top of the hook's own `allowedEnvVars`. */
  allowedEnvVars?: readonly string[];
}

/** A problem with an http hook found before it runs; `field` names the definition field. */
export interface HttpHookProblem {
  severity: "error" | "warning";
  field: string;
  message: string;
}

/** What the URL policy says of one http hook's URL. */
export interface HttpUrlVerdict {
  /** The URL, parsed; undefined when the text is not an absolute URL. */
  readonly url: URL | undefined;
  /** What is wrong with it (field `url`, all errors): the hook must not run when there is one. */
  readonly problems: HttpHookProblem[];
  /** An `allowedHttpHookUrls` pattern names the host: its private addresses may be reached. */
  readonly allowPrivate: boolean;
}

/** Judge an http hook's URL against the scheme and credential rules and the policy's patterns. */
export function checkHttpUrl(text: string, policy: HttpHookPolicy = {}): HttpUrlVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      url: undefined,
      problems: [urlError("expected an absolute URL")],
      allowPrivate: false,
    };
  }
  const problems: HttpHookProblem[] = [];
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    problems.push(urlError(`expected an http: or https: URL, got ${url.protocol}`));
  }
  if (url.username !== "" || url.password !== "") {
    problems.push(
      urlError(
        "credentials in the URL are refused (they end up in logs); send them in a header that reads a variable listed in allowedEnvVars",
      ),
    );
  }
  const patterns = policy.allowedUrls;
  if (patterns !== undefined && !urlAllowed(text, patterns)) {
    problems.push(
      urlError(
        patterns.length === 0
          ? "allowedHttpHookUrls is empty: no http hook may run"
          : `not allowed by allowedHttpHookUrls (${patterns.map((p) => JSON.stringify(p)).join(", ")})`,
      ),
    );
  }
  const allowPrivate = patterns !== undefined && namesHost(text, url.hostname, patterns);
  return { url, problems, allowPrivate };
}

function urlError(message: string): HttpHookProblem {
  return { severity: "error", field: "url", message };
}

/** True when `url` matches one of the patterns (`*` is any run of characters, the rest literal). */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const parts = pattern.split("*");
    if (parts.length === 1) return url === pattern;
    // Linear: the pieces between stars are found left to right, first the anchored ends.
    const first = parts[0]!;
    const last = parts[parts.length - 1]!;
    if (url.length < first.length + last.length) return false;
    if (!url.startsWith(first) || !url.endsWith(last)) return false;
    let at = first.length;
    const end = url.length - last.length;
    for (const part of parts.slice(1, -1)) {
      const found = url.indexOf(part, at);
      if (found === -1 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  });
}

/**
 * True when a pattern that matches `url` names its host (`hostname`, as parsed) without a `*` (a
 * `:*` port aside): the explicit permission to reach that host at a private address.
 */
function namesHost(url: string, hostname: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const authority = /^(https?:)\/\/([^/?#]*)/i.exec(pattern);
    if (!authority) return false;
    const hostPart = authority[2]!.replace(/:\*$/, "");
    if (hostPart.includes("*") || !urlAllowed(url, [pattern])) return false;
    try {
      return new URL(`${authority[1]}//${hostPart}`).hostname === hostname;
    } catch {
      return false;
    }
  });
}
