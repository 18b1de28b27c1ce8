// The httpd images a run compares when the command line and the environment (HTTPD_BASELINE_IMAGE,
// HTTPD_CANDIDATE_IMAGE) name none. Data only, so the CLI can name them without loading the runner.

export const DEFAULT_BASELINE_IMAGE = "httpd:2.2.34";
export const DEFAULT_CANDIDATE_IMAGE = "httpd:2.4";
