import { repoPath } from "../repo-paths.ts";

/** The repository's scenario catalogue: what `run`, `demo` and `catalogue` read when given no paths. */
export const CATALOGUE_DIR = repoPath("scenarios/catalogue/");
