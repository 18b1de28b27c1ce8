// What an image of the official layout holds when there is no inspection to ask: the module files of each
// release line as real official-layout builds list them (2.2.34 and 2.4.62, `ls modules/`), and what their httpd
// has compiled in. The plan stage uses this for `plan --versions 2.2.34,2.4.68` with no engine, and says so.
import type { Family, HttpdVersion } from "../versions/httpd-version.ts";
import { OFFICIAL_PROFILE } from "./httpd-profile.ts";
import type { ImageInspection } from "./image-inspection.ts";

const MODULE_FILES: Record<Family, readonly string[]> = {
  // 68 files of an official-layout 2.2.34 build.
  "2.2": [
    "mod_actions.so", "mod_alias.so", "mod_asis.so", "mod_auth_basic.so", "mod_auth_digest.so",
    "mod_authn_alias.so", "mod_authn_anon.so", "mod_authn_dbd.so", "mod_authn_dbm.so", "mod_authn_default.so",
    "mod_authn_file.so", "mod_authnz_ldap.so", "mod_authz_dbm.so", "mod_authz_default.so",
    "mod_authz_groupfile.so", "mod_authz_host.so", "mod_authz_owner.so", "mod_authz_user.so", "mod_autoindex.so",
    "mod_cache.so", "mod_cern_meta.so", "mod_cgi.so", "mod_charset_lite.so", "mod_dav.so", "mod_dav_fs.so",
    "mod_dav_lock.so", "mod_dbd.so", "mod_deflate.so", "mod_dir.so", "mod_disk_cache.so", "mod_dumpio.so",
    "mod_env.so", "mod_expires.so", "mod_ext_filter.so", "mod_file_cache.so", "mod_filter.so", "mod_headers.so",
    "mod_ident.so", "mod_imagemap.so", "mod_include.so", "mod_info.so", "mod_ldap.so", "mod_log_config.so",
    "mod_log_forensic.so", "mod_logio.so", "mod_mem_cache.so", "mod_mime.so", "mod_mime_magic.so",
    "mod_negotiation.so", "mod_proxy.so", "mod_proxy_ajp.so", "mod_proxy_balancer.so", "mod_proxy_connect.so",
    "mod_proxy_ftp.so", "mod_proxy_http.so", "mod_proxy_scgi.so", "mod_reqtimeout.so", "mod_rewrite.so",
    "mod_setenvif.so", "mod_speling.so", "mod_ssl.so", "mod_status.so", "mod_substitute.so", "mod_unique_id.so",
    "mod_userdir.so", "mod_usertrack.so", "mod_version.so", "mod_vhost_alias.so"
  ],
  // 130 files of an official-layout 2.4.62 build.
  "2.4": [
    "mod_access_compat.so", "mod_actions.so", "mod_alias.so", "mod_allowmethods.so", "mod_asis.so",
    "mod_auth_basic.so", "mod_auth_digest.so", "mod_auth_form.so", "mod_authn_anon.so", "mod_authn_core.so",
    "mod_authn_dbd.so", "mod_authn_dbm.so", "mod_authn_file.so", "mod_authn_socache.so", "mod_authnz_fcgi.so",
    "mod_authnz_ldap.so", "mod_authz_core.so", "mod_authz_dbd.so", "mod_authz_dbm.so", "mod_authz_groupfile.so",
    "mod_authz_host.so", "mod_authz_owner.so", "mod_authz_user.so", "mod_autoindex.so", "mod_brotli.so",
    "mod_bucketeer.so", "mod_buffer.so", "mod_cache.so", "mod_cache_disk.so", "mod_cache_socache.so",
    "mod_case_filter.so", "mod_case_filter_in.so", "mod_cern_meta.so", "mod_cgi.so", "mod_cgid.so",
    "mod_charset_lite.so", "mod_data.so", "mod_dav.so", "mod_dav_fs.so", "mod_dav_lock.so", "mod_dbd.so",
    "mod_deflate.so", "mod_dialup.so", "mod_dir.so", "mod_dumpio.so", "mod_echo.so", "mod_env.so",
    "mod_example_hooks.so", "mod_example_ipc.so", "mod_expires.so", "mod_ext_filter.so", "mod_file_cache.so",
    "mod_filter.so", "mod_headers.so", "mod_heartbeat.so", "mod_heartmonitor.so", "mod_http2.so", "mod_ident.so",
    "mod_imagemap.so", "mod_include.so", "mod_info.so", "mod_isapi.so", "mod_lbmethod_bybusyness.so",
    "mod_lbmethod_byrequests.so", "mod_lbmethod_bytraffic.so", "mod_lbmethod_heartbeat.so", "mod_ldap.so",
    "mod_log_config.so", "mod_log_debug.so", "mod_log_forensic.so", "mod_logio.so", "mod_lua.so", "mod_macro.so",
    "mod_md.so", "mod_mime.so", "mod_mime_magic.so", "mod_mpm_event.so", "mod_mpm_prefork.so",
    "mod_mpm_worker.so", "mod_negotiation.so", "mod_optional_fn_export.so", "mod_optional_fn_import.so",
    "mod_optional_hook_export.so", "mod_optional_hook_import.so", "mod_proxy.so", "mod_proxy_ajp.so",
    "mod_proxy_balancer.so", "mod_proxy_connect.so", "mod_proxy_express.so", "mod_proxy_fcgi.so",
    "mod_proxy_fdpass.so", "mod_proxy_ftp.so", "mod_proxy_hcheck.so", "mod_proxy_html.so", "mod_proxy_http.so",
    "mod_proxy_http2.so", "mod_proxy_scgi.so", "mod_proxy_uwsgi.so", "mod_proxy_wstunnel.so", "mod_ratelimit.so",
    "mod_reflector.so", "mod_remoteip.so", "mod_reqtimeout.so", "mod_request.so", "mod_rewrite.so", "mod_sed.so",
    "mod_session.so", "mod_session_cookie.so", "mod_session_crypto.so", "mod_session_dbd.so", "mod_setenvif.so",
    "mod_slotmem_plain.so", "mod_slotmem_shm.so", "mod_socache_dbm.so", "mod_socache_memcache.so",
    "mod_socache_redis.so", "mod_socache_shmcb.so", "mod_speling.so", "mod_ssl.so", "mod_status.so",
    "mod_substitute.so", "mod_suexec.so", "mod_unique_id.so", "mod_unixd.so", "mod_userdir.so",
    "mod_usertrack.so", "mod_version.so", "mod_vhost_alias.so", "mod_watchdog.so", "mod_xml2enc.so"
  ],
};

/** Logical names compiled into httpd (`httpd -l`): 2.2 has its MPM built in; 2.4 loads it. */
const BUILTIN_MODULES: Record<Family, readonly string[]> = {
  "2.2": [
    "core", "mpm_prefork", "http", "so"
  ],
  "2.4": [
    "core", "http", "so"
  ],
};

/** The module files an official-layout build of this line has. */
export function officialModuleFiles(family: Family): readonly string[] {
  return MODULE_FILES[family];
}

/** An inspection made of the official layout's defaults for `version`: no stock config is known. */
export function officialDefaults(image: string, version: HttpdVersion): ImageInspection {
  return {
    image,
    profile: OFFICIAL_PROFILE,
    version,
    modules: new Set(MODULE_FILES[version.family]),
    builtinModules: new Set(BUILTIN_MODULES[version.family]),
    stockConfig: null,
    source: "defaults",
  };
}
