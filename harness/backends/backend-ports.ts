// The port each kind of helper backend listens on: fixed, so a plan can name it before anything starts.
import type { BackendKind } from "../scenario/scenario.ts";

export function backendPort(kind: BackendKind): number {
  switch (kind) {
    case "scgi-origin":
      return 4000;
    case "https-origin":
      return 443;
    case "http-origin":
    case "forward-proxy-target":
      return 80;
  }
}
