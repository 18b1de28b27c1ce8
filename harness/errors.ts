// Every failure the harness reports to a user is a HarnessError with a stable `code`. Callers match on `code`
// (values cross worker and reporter boundaries, where `instanceof` does not hold); the CLI maps codes to exit
// statuses in one place (cli/exit-status.ts).

export type HarnessErrorCode =
  | "HARNESS_USAGE"
  | "HARNESS_SCENARIO_PARSE"
  | "HARNESS_SCENARIO_INVALID"
  | "HARNESS_SCENARIO_NOT_FOUND"
  | "HARNESS_CONFIG_FILE"
  | "HARNESS_IGNORE_FILE"
  | "HARNESS_ACCESS_LOG"
  | "HARNESS_MODULE_UNKNOWN"
  | "HARNESS_ENGINE_UNAVAILABLE"
  | "HARNESS_ENGINE_MISMATCH"
  | "HARNESS_FLEET_FILE"
  | "HARNESS_MATRIX_FILE"
  | "HARNESS_BLOB"
  | "HARNESS_IMAGE_MISSING"
  | "HARNESS_IMAGE_BUILD"
  | "HARNESS_IMAGE_UNSUPPORTED"
  | "HARNESS_CONTAINER"
  | "HARNESS_CLIENT_ADDRESS"
  | "HARNESS_REPORT_WRITE"
  | "HARNESS_INTERRUPTED"
  | "HARNESS_DEADLINE"
  | "HARNESS_INTERNAL";

export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  /** Where in a user's file the problem is, when it comes from one. */
  readonly position: SourcePosition | undefined;
  /** What the user can do about it, printed after the message. */
  readonly hint: string | undefined;

  constructor(
    code: HarnessErrorCode,
    message: string,
    options: { cause?: unknown; position?: SourcePosition; hint?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HarnessError";
    this.code = code;
    this.position = options.position;
    this.hint = options.hint;
  }
}

export function isHarnessError(value: unknown): value is HarnessError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    (value as { code: string }).code.startsWith("HARNESS_")
  );
}

export function formatPosition(position: SourcePosition): string {
  return `${position.file}:${position.line}:${position.column}`;
}
