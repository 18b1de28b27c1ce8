// D5 (and T2): SSLProxyCheckPeerExpire defaults to On on 2.4: a reverse proxy to an HTTPS backend with an
// expired (or not yet valid) certificate answered with the backend's page on 2.2 (200) and 500 Proxy Error on
// 2.4.62 (fixtures case c1; the guide says 502).
import type { Rule } from "./rule.ts";
import { peerCheckDefaults, sslProxyRefusal } from "./ssl-proxy-refusal.ts";

export const D5: Rule = {
  id: "D5",
  seed: ["D5", "T2"],
  title: "SSLProxyCheckPeerExpire defaults to On on 2.4: an expired backend certificate is refused",
  severity: "behaviour",
  detect: (context) =>
    peerCheckDefaults(
      context,
      ["sslproxycheckpeerexpire"],
      "2.4 checks that an HTTPS backend's certificate is within its validity dates (SSLProxyCheckPeerExpire default On): a backend with an expired certificate gets 500 Proxy Error instead of its answer",
      "SSLProxyCheckPeerExpire off",
    ),
  recognise: (evidence) => {
    const reason = sslProxyRefusal(evidence);
    if (reason === "expired") return { summary: `2.4 refuses the backend: its certificate is expired or not yet valid (AH02004; ${evidence.status.candidate} Proxy Error)` };
    if (reason === "unknown") {
      return { summary: `2.4 refuses the HTTPS backend's certificate (${evidence.status.candidate} Proxy Error, AH00898); the reason (expiry: D5, name: D4) is logged only at LogLevel info` };
    }
    return null;
  },
  fix: "Renew the backend's certificate; or, to keep 2.2's behaviour, SSLProxyCheckPeerExpire off where SSLProxyEngine is on.",
  help: "Guide, changed defaults: SSLProxyCheckPeerExpire On. Real 2.4.62 answers 500, not 502 (fixtures case c).",
  sample: { config: "SSLProxyEngine on\nProxyPass /backend/ https://127.0.0.1:8443/", modules: ["ssl", "proxy", "proxy_http"], on24: "starts" },
};
