// The images a run uses when none is named (flags and HTTPD_BASELINE_IMAGE / HTTPD_CANDIDATE_IMAGE win).
export const DEFAULT_BASELINE_IMAGE = "httpd:2.2.34";
export const DEFAULT_CANDIDATE_IMAGE = "httpd:2.4";
