// A replay context for the request and collector tests: one config with an access form, its identities and servers.
import { identityResolver, replayIdentities } from "../../../../harness/plan/replay/replay-identities.ts";
import type { ReplayContext } from "../../../../harness/plan/replay/replay-request.ts";
import { replayServers } from "../../../../harness/plan/replay/replay-targets.ts";
import { configOf } from "./replay-config.ts";

export const REPLAY_CONFIG = configOf([
  "Listen 80",
  "<Location /admin>",
  "  Order deny,allow",
  "  Deny from all",
  "  Allow from 10.0.0.0/8",
  "</Location>",
]);

export function replayContext(): ReplayContext {
  return { servers: replayServers([REPLAY_CONFIG], [], null), identityOf: identityResolver(replayIdentities([REPLAY_CONFIG])) };
}
