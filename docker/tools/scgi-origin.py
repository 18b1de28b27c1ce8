#!/usr/bin/env python3
"""A minimal SCGI origin: answers every request with the CGI variables it received (PATH_INFO, SCRIPT_NAME...),
so scenarios can see what mod_proxy_scgi passes on each httpd version."""
import socketserver, sys

class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        length = b""
        while (c := self.rfile.read(1)) != b":":
            if not c:
                return
            length += c
        headers = self.rfile.read(int(length))
        self.rfile.read(1)  # trailing comma
        fields = headers.split(b"\0")
        env = dict(zip(fields[0::2], fields[1::2]))
        body = "".join(f"{k.decode()}={env[k].decode(errors='replace')}\n" for k in sorted(env)
                       if k in (b"PATH_INFO", b"SCRIPT_NAME", b"REQUEST_URI", b"QUERY_STRING", b"REQUEST_METHOD"))
        payload = body.encode()
        self.wfile.write(b"Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(payload) + payload)

class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True

port = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
print(f"scgi origin listening on {port}", flush=True)
Server(("0.0.0.0", port), Handler).serve_forever()
