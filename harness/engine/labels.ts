// Every container, network and image the harness makes carries these labels, so that cleanup can find them
// without testcontainers' reaper (which cannot be pulled here).
export const LABEL_APP = "io.httpd-upgrade-harness";
export const LABEL_RUN_ID = "io.httpd-upgrade-harness.run-id";
export const LABEL_ROLE = "io.httpd-upgrade-harness.role";
export const LABEL_SCENARIO = "io.httpd-upgrade-harness.scenario";
export const LABEL_RECIPE_HASH = "io.httpd-upgrade-harness.recipe-hash";
/** The pid of the process that owns the run, so a sweep can tell a crashed run's leftovers from a live run. */
export const LABEL_OWNER_PID = "io.httpd-upgrade-harness.owner-pid";

export type ResourceRole = "server" | "backend" | "client" | "probe";

export function resourceLabels(runId: string, role: ResourceRole, scenario?: string): Record<string, string> {
  return {
    [LABEL_APP]: "true",
    [LABEL_RUN_ID]: runId,
    [LABEL_ROLE]: role,
    [LABEL_OWNER_PID]: String(process.pid),
    ...(scenario === undefined ? {} : { [LABEL_SCENARIO]: scenario }),
  };
}

/** The engine's list filter for what the harness made: one run's resources, or every run's. */
export function harnessResourceFilters(runId?: string): { label: string[] } {
  return { label: [runId ? `${LABEL_RUN_ID}=${runId}` : `${LABEL_APP}=true`] };
}
