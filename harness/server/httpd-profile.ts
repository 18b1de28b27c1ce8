// How one image lays httpd out. Version differences are not here (see family-traits.ts and module-map.ts):
// a profile is only about where things are, so the official 2.2 and 2.4 images share one.

export interface HttpdProfile {
  id: "official" | "debian";
  description: string;
  /** A file whose presence identifies the layout inside an image. */
  probe: string;
  serverRoot: string;
  /** The main config file, absolute. */
  configFile: string;
  docRoot: string;
  modulesDir: string;
  /** Runs httpd with arguments appended (a shell fragment). */
  binary: string;
  /** Shell that sets up the environment the binary needs (Debian's envvars), or empty. */
  environment: string;
  /** Shell run before the config test and the foreground start (pid file removal, environment). */
  preStart: string;
  /** Where the minimal base puts the pid file (a directory that exists in that layout). */
  pidFile: string;
  /** User and group the generated minimal base runs children as. */
  runUser: string;
  runGroup: string;
  /** Where the minimal base sends the error log and the access log: the container's stderr and stdout. */
  errorLogTarget: string;
  accessLogTarget: string;
  mimeTypes: string;
}

export const OFFICIAL_PROFILE: HttpdProfile = {
  id: "official",
  description: "official httpd image layout (/usr/local/apache2), also the harness's local 2.4 image",
  probe: "/usr/local/apache2/bin/httpd",
  serverRoot: "/usr/local/apache2",
  configFile: "/usr/local/apache2/conf/httpd.conf",
  docRoot: "/usr/local/apache2/htdocs",
  modulesDir: "/usr/local/apache2/modules",
  binary: "/usr/local/apache2/bin/httpd",
  environment: "",
  preStart: "rm -f /usr/local/apache2/logs/httpd.pid",
  pidFile: "logs/httpd.pid",
  runUser: "daemon",
  runGroup: "daemon",
  errorLogTarget: "/proc/self/fd/2",
  accessLogTarget: "/proc/self/fd/1",
  mimeTypes: "conf/mime.types",
};

export const DEBIAN_PROFILE: HttpdProfile = {
  id: "debian",
  description: "Debian's apache2 binary package (/etc/apache2)",
  probe: "/usr/sbin/apache2",
  serverRoot: "/etc/apache2",
  configFile: "/etc/apache2/apache2.conf",
  docRoot: "/var/www/html",
  modulesDir: "/usr/lib/apache2/modules",
  binary: "/usr/sbin/apache2",
  environment: ". /etc/apache2/envvars",
  preStart: "mkdir -p \"$APACHE_RUN_DIR\" \"$APACHE_LOCK_DIR\" \"$APACHE_LOG_DIR\" && rm -f \"$APACHE_PID_FILE\"",
  pidFile: "/var/run/apache2/apache2.pid",
  runUser: "www-data",
  runGroup: "www-data",
  errorLogTarget: "/proc/self/fd/2",
  accessLogTarget: "/proc/self/fd/1",
  mimeTypes: "/etc/mime.types",
};

/** Tried in order when an image is inspected. */
export const PROFILES: readonly HttpdProfile[] = [OFFICIAL_PROFILE, DEBIAN_PROFILE];
