import { fileURLToPath } from "node:url";

/** The repository's scenario catalogue: what `run`, `demo` and `catalogue` read when given no paths. */
export const CATALOGUE_DIR = fileURLToPath(new URL("../../scenarios/catalogue/", import.meta.url));
