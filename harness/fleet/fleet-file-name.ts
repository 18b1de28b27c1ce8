// The name of a fleet's own file, apart from its parser (fleet-file.ts), which a fleet loads only when it has one.
export const FLEET_FILE_NAME = "fleet.yaml";
