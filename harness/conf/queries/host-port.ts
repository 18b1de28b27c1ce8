// `addr[:port]` as Listen and <VirtualHost> take it (apr_parse_addr_port): an IPv6 address in brackets, `*` or
// `_default_` for any address, a port number or `*`.

export interface HostPort {
  /** The address as written, brackets kept (`[::1]`, `*`, `_default_`, `192.0.2.7`, `www.example.test`); null
   * when only a port was given (Listen 80). */
  host: string | null;
  /** The port, or null when none was given or it is `*`. */
  port: number | null;
  /** Whether the port was written as `*`. */
  anyPort: boolean;
}

export function parseHostPort(text: string): HostPort {
  const bracketed = /^(\[[^\]]*\])(?::(\S*))?$/.exec(text);
  const [host, portText] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : /^\d+$/.test(text)
      ? [null, text]
      : text.includes(":")
        ? [text.slice(0, text.lastIndexOf(":")), text.slice(text.lastIndexOf(":") + 1)]
        : [text, undefined];
  const port = portText !== undefined && /^\d+$/.test(portText) ? Number(portText) : null;
  return { host: host === "" ? null : host, port, anyPort: portText === "*" };
}

/** Whether `host` stands for every address (`*`, `_default_`, 0.0.0.0, `[::]`, or none given). */
export function isWildcardHost(host: string | null): boolean {
  return host === null || host === "*" || host === "_default_" || host === "0.0.0.0" || host === "[::]";
}
