import { expect } from "vitest";
import { HarnessError } from "../../harness/errors.ts";

/** The HarnessError a promise rejects with (and that it does reject with one). */
export async function refusal(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  return error as HarnessError;
}
