#!/usr/bin/env python3
"""Raw requests from a client container's own address: sends the bytes read from stdin (optionally one byte
every DELAY_MS, for slow-client checks), writes every byte the server sends back to stdout as it arrives
(nothing held: a body of any size passes), and to stderr `@@local-port <port>` once it connected and at the
end one line `@@outcome <ok|reset|timeout|refused|tls>`.

    raw-client.py HOST PORT DELAY_MS TIMEOUT_S [tls SERVERNAME|- CERT_FILE|- KEY_FILE|-]

HOST may be an IPv6 address (::1). With `tls`, the bytes go over TLS without verifying the server (as the other
clients do), SERVERNAME is sent as SNI (`-`: none), and CERT_FILE/KEY_FILE are the client certificate."""
import socket, ssl, sys, time

host, port, delay_ms, timeout_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
use_tls = len(sys.argv) > 5 and sys.argv[5] == "tls"
data = sys.stdin.buffer.read()
out = sys.stdout.buffer
outcome = "ok"


def given(arg_index):
    value = sys.argv[arg_index] if len(sys.argv) > arg_index else "-"
    return None if value == "-" else value


try:
    s = socket.create_connection((host, port), timeout=timeout_s)
    # The local port pins the server's `[client a:port]` error-log lines to this request
    # (harness/observe/send-attribution.ts).
    sys.stderr.write(f"@@local-port {s.getsockname()[1]}\n")
    sys.stderr.flush()
    if use_tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        if given(7):
            context.load_cert_chain(given(7), given(8))
        s = context.wrap_socket(s, server_hostname=given(6))
    if delay_ms > 0:
        for i in range(len(data)):
            s.sendall(data[i:i + 1])
            time.sleep(delay_ms / 1000)
    else:
        s.sendall(data)
    while (chunk := s.recv(262144)):
        out.write(chunk)
except ConnectionRefusedError:
    outcome = "refused"
except (ConnectionResetError, BrokenPipeError):
    outcome = "reset"
except socket.timeout:
    outcome = "timeout"
except (ssl.SSLEOFError, ssl.SSLZeroReturnError):
    # The server closed the TLS connection without close_notify: the end of its answer, as for a plain socket.
    pass
except ssl.SSLError as error:
    outcome = "tls"
    sys.stderr.write(f"{error}\n")
out.flush()
sys.stderr.write(f"@@outcome {outcome}\n")
