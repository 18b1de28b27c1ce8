// The kinds of server certificate a scenario may ask for: the scenario format's list (scenario-schema.ts) and the
// certificate factory's, in a module of its own so that a run that makes certificates does not load the schema's
// validator (zod) for one list.
export const CERTIFICATE_KINDS = ["valid", "expired", "not-yet-valid", "wrong-name", "self-signed"] as const;
