// D4 (and T2): SSLProxyCheckPeerCN defaults to On on 2.4: a reverse proxy to an HTTPS backend whose certificate
// names another host worked on 2.2 and is refused on 2.4 (500 Proxy Error on real 2.4, not the guide's 502).
// SSLProxyCheckPeerName (2.4 only, default On) is skipped while SSLProxyCheckPeerCN is off and it is unset
// (proxy-cn-check-off-wrong-name), so one line restores 2.2's behaviour.
import type { Rule } from "./rule.ts";
import { peerCheckDefaults, sslProxyRefusal } from "./ssl-proxy-refusal.ts";

export const D4: Rule = {
  id: "D4",
  seed: ["D4", "T2"],
  title: "SSLProxyCheckPeerCN defaults to On on 2.4: a backend certificate for another name is refused",
  severity: "behaviour",
  detect: (context) =>
    peerCheckDefaults(
      context,
      // SSLProxyCheckPeerName is 2.4's name check (it decides when set): either set is the author's choice.
      ["sslproxycheckpeercn", "sslproxycheckpeername"],
      "2.4 checks that an HTTPS backend's certificate names the host it is proxied to (SSLProxyCheckPeerCN default On): a backend whose certificate names another host gets 500 Proxy Error instead of its answer",
      "SSLProxyCheckPeerCN off",
    ),
  recognise: (evidence) => {
    const reason = sslProxyRefusal(evidence);
    if (reason === "name") return { summary: `2.4 refuses the backend: its certificate names another host (${evidence.status.candidate} Proxy Error)` };
    if (reason === "unknown") {
      return { summary: `2.4 refuses the HTTPS backend's certificate (${evidence.status.candidate} Proxy Error, AH00898); the reason (name: D4, expiry: D5) is logged only at LogLevel info` };
    }
    return null;
  },
  fix: "Give the backend a certificate for the name in ProxyPass; or, to keep 2.2's behaviour, SSLProxyCheckPeerCN off where SSLProxyEngine is on.",
  help: "Guide, changed defaults: SSLProxyCheckPeerCN On; a proxy request to an HTTPS host with a bad certificate fails (502 in the guide, 500 on real 2.4).",
  sample: { config: "SSLProxyEngine on\nProxyPass /backend/ https://127.0.0.1:8443/", modules: ["ssl", "proxy", "proxy_http"], on24: "starts" },
};
