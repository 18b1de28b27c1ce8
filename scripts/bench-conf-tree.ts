// The tree scripts/bench-conf.ts measures the configuration model on: a Debian-style /etc/apache2 written for
// 2.2 as a hosting provider would have it (apache2.conf, envvars, ports.conf, mods-available/ with the enabled
// ones linked from mods-enabled/, sites-available/ linked from sites-enabled/), with many site files of many
// name-based <VirtualHost *:80> each. Deterministic: the same shape writes the same bytes, so figures from
// different days compare.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface BenchTreeShape {
  siteFiles: number;
  vhostsPerFile: number;
}

export interface BenchTree {
  /** Regular files written (links not counted). */
  files: number;
  /** Bytes of those files. */
  bytes: number;
  /** <VirtualHost> sections written. */
  vhosts: number;
}

export const BENCH_TREE_SHAPE: BenchTreeShape = { siteFiles: 1_000, vhostsPerFile: 10 };

/** Modules enabled by links in mods-enabled/ (a .conf beside the .load when the module has settings). All
 * exist under these names on 2.2 and 2.4. */
const MODULES: Array<{ name: string; conf?: string }> = [
  { name: "alias", conf: "<IfModule alias_module>\n    Alias /icons/ \"/usr/share/apache2/icons/\"\n</IfModule>\n" },
  { name: "auth_basic" },
  { name: "authn_file" },
  { name: "authz_groupfile" },
  { name: "authz_host" },
  { name: "authz_user" },
  { name: "autoindex", conf: "<IfModule mod_autoindex.c>\n    IndexOptions FancyIndexing VersionSort HTMLTable NameWidth=*\n    IndexIgnore .??* *~ *# RCS CVS *,v *,t\n</IfModule>\n" },
  { name: "cgi" },
  { name: "deflate", conf: "<IfModule mod_deflate.c>\n    AddOutputFilterByType DEFLATE text/html text/plain text/css application/javascript\n</IfModule>\n" },
  { name: "dir", conf: "<IfModule mod_dir.c>\n    DirectoryIndex index.html index.php index.htm\n</IfModule>\n" },
  { name: "env" },
  { name: "headers" },
  { name: "mime", conf: "<IfModule mod_mime.c>\n    TypesConfig /etc/mime.types\n    AddType application/x-gzip .tgz\n    AddLanguage en .en\n</IfModule>\n" },
  { name: "negotiation" },
  { name: "rewrite" },
  { name: "setenvif", conf: "<IfModule mod_setenvif.c>\n    BrowserMatch \"Mozilla/2\" nokeepalive\n    BrowserMatch \"^WebDAV-MiniRedir\" redirect-carefully\n</IfModule>\n" },
  {
    name: "ssl",
    conf: [
      "<IfModule mod_ssl.c>",
      "    SSLRandomSeed startup builtin",
      "    SSLRandomSeed connect builtin",
      "    AddType application/x-x509-ca-cert .crt",
      "    SSLPassPhraseDialog builtin",
      "    SSLSessionCache shmcb:${APACHE_RUN_DIR}/ssl_scache(512000)",
      "    SSLSessionCacheTimeout 300",
      "    SSLCipherSuite HIGH:MEDIUM:!aNULL:!MD5",
      "    SSLProtocol all -SSLv2",
      "</IfModule>",
      "",
    ].join("\n"),
  },
  { name: "status", conf: "<IfModule mod_status.c>\n    <Location /server-status>\n        SetHandler server-status\n        Order deny,allow\n        Deny from all\n        Allow from 127.0.0.1\n    </Location>\n</IfModule>\n" },
];

const ENVVARS = `# envvars: what apache2ctl exports before it starts httpd (APACHE_CONFDIR is set by then)
if [ "\${APACHE_CONFDIR##/etc/apache2-}" != "\${APACHE_CONFDIR}" ] ; then
    SUFFIX="-\${APACHE_CONFDIR##/etc/apache2-}"
else
    SUFFIX=
fi
export APACHE_RUN_USER=www-data
export APACHE_RUN_GROUP=www-data
export APACHE_PID_FILE=/var/run/apache2$SUFFIX.pid
export APACHE_RUN_DIR=/var/run/apache2$SUFFIX
export APACHE_LOCK_DIR=/var/lock/apache2$SUFFIX
export APACHE_LOG_DIR=/var/log/apache2$SUFFIX
export LANG=C
export LANG
`;

const APACHE2_CONF = `# The main file: global settings, then modules, ports and the enabled sites.
ServerRoot "/etc/apache2"
LockFile \${APACHE_LOCK_DIR}/accept.lock
PidFile \${APACHE_PID_FILE}
Timeout 300
KeepAlive On
MaxKeepAliveRequests 100
KeepAliveTimeout 15

<IfModule mpm_prefork_module>
    StartServers          5
    MinSpareServers       5
    MaxSpareServers      10
    MaxClients          150
    MaxRequestsPerChild   0
</IfModule>

User \${APACHE_RUN_USER}
Group \${APACHE_RUN_GROUP}
AccessFileName .htaccess

<Files ~ "^\\.ht">
    Order allow,deny
    Deny from all
    Satisfy all
</Files>

DefaultType text/plain
HostnameLookups Off
ErrorLog \${APACHE_LOG_DIR}/error.log
LogLevel warn

Include mods-enabled/*.load
Include mods-enabled/*.conf
Include ports.conf

LogFormat "%v:%p %h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\"" vhost_combined
LogFormat "%h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined
LogFormat "%h %l %u %t \\"%r\\" %>s %O" common
CustomLog \${APACHE_LOG_DIR}/other_vhosts_access.log vhost_combined

Include conf.d/
Include sites-enabled/
`;

const PORTS_CONF = `# Ports the server listens on; the sites are name-based on *:80.
NameVirtualHost *:80
Listen 80

<IfModule mod_ssl.c>
    Listen 443
</IfModule>
`;

const SECURITY_CONF = `ServerTokens Prod
ServerSignature Off
TraceEnable Off
`;

/** One site's name: site 42's third host is h3.s0042.example.test. */
function hostName(site: number, vhost: number): string {
  return `h${vhost}.s${String(site).padStart(4, "0")}.example.test`;
}

function virtualHost(site: number, vhost: number): string {
  const name = hostName(site, vhost);
  const id = `s${String(site).padStart(4, "0")}-h${vhost}`;
  const root = `/srv/www/${id}`;
  return `<VirtualHost *:80>
    ServerName ${name}
    ServerAlias www.${name} static.${name}
    ServerAdmin webmaster@${name}
    DocumentRoot ${root}/htdocs
    ErrorLog \${APACHE_LOG_DIR}/${id}-error.log
    CustomLog \${APACHE_LOG_DIR}/${id}-access.log combined
    LogLevel warn

    <Directory ${root}/htdocs>
        Options -Indexes +FollowSymLinks
        AllowOverride FileInfo AuthConfig
        Order allow,deny
        Allow from all
    </Directory>

    RewriteEngine On
    RewriteRule ^/old/(.*)$ /new/$1 [R=301,L]

    <IfModule mod_ssl.c>
        RewriteCond %{HTTPS} !=on
        RewriteRule ^/account/(.*)$ https://%{HTTP_HOST}/account/$1 [R=302,L]
    </IfModule>

    <Location /admin>
        AuthType Basic
        AuthName "${id} administration"
        AuthUserFile /etc/apache2/htpasswd
        Require valid-user
        Order deny,allow
        Deny from all
        Allow from 10.0.0.0/8 192.168.0.0/16
        Satisfy any
    </Location>
</VirtualHost>
`;
}

function siteFile(site: number, vhostsPerFile: number): string {
  const hosts = Array.from({ length: vhostsPerFile }, (_, i) => virtualHost(site, i + 1));
  return `# Customer ${site}: ${vhostsPerFile} name-based hosts\n\n${hosts.join("\n")}`;
}

/** Writes the tree into `dir` (which must be empty or absent); sites-enabled/ and mods-enabled/ hold relative
 * links, as a2ensite and a2enmod make them. */
export function writeBenchTree(dir: string, shape: BenchTreeShape = BENCH_TREE_SHAPE): BenchTree {
  const tree: BenchTree = { files: 0, bytes: 0, vhosts: 0 };
  const write = (path: string, text: string): void => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
    tree.files++;
    tree.bytes += Buffer.byteLength(text);
  };
  const link = (path: string, target: string): void => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    symlinkSync(target, join(dir, path));
  };

  write("apache2.conf", APACHE2_CONF);
  write("envvars", ENVVARS);
  write("ports.conf", PORTS_CONF);
  write("conf.d/security", SECURITY_CONF);
  write("htpasswd", "admin:$apr1$benchsal$0123456789abcdefghijk.\n");
  for (const module of MODULES) {
    write(`mods-available/${module.name}.load`, `LoadModule ${module.name}_module /usr/lib/apache2/modules/mod_${module.name}.so\n`);
    link(`mods-enabled/${module.name}.load`, `../mods-available/${module.name}.load`);
    if (module.conf !== undefined) {
      write(`mods-available/${module.name}.conf`, module.conf);
      link(`mods-enabled/${module.name}.conf`, `../mods-available/${module.name}.conf`);
    }
  }
  for (let site = 1; site <= shape.siteFiles; site++) {
    const name = `s${String(site).padStart(4, "0")}.example.test`;
    write(`sites-available/${name}`, siteFile(site, shape.vhostsPerFile));
    link(`sites-enabled/${name}`, `../sites-available/${name}`);
    tree.vhosts += shape.vhostsPerFile;
  }
  return tree;
}
