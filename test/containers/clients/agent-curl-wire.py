# The far end of test/containers/clients/agent-curl.test.ts: a server that answers with the request it read, byte
# for byte (and on its TLS port the server name, protocol, ALPN and cipher it negotiated), and with the awkward
# answers a client has to cope with, chosen by the path's first segment.
import gzip
import socket
import ssl
import struct
import sys
import threading
import time


# Answers that are the same bytes every time, by the path's first segment.
GZIPPED = gzip.compress(b"compressed hello\n", mtime=0)
CANNED = {
    b"http09": b"no status line here\n",
    b"bad": b"HTTP/1.1 abc Weird\r\nContent-Length: 2\r\n\r\nok",
    b"chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: yes\r\n\r\n",
    b"gzip": b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s" % (len(GZIPPED), GZIPPED),
    b"interim": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal",
    b"close": b"HTTP/1.0 200 OK\r\nX-Length: none\r\n\r\nbody until the connection closes\n",
}


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    return head + b"\r\n\r\n" + rest


def answer(conn, tls):
    request = read_request(conn)
    line = request.split(b"\r\n", 1)[0].split(b" ")
    method, path = line[0], (line[1] if len(line) > 1 else b"/")
    mode = path.lstrip(b"/").split(b"/")[0].split(b"?")[0]
    if mode == b"silent":
        time.sleep(4)
        return
    if mode == b"empty":
        return
    if mode in CANNED:
        conn.sendall(CANNED[mode])
        return
    if mode == b"reset":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return
    body = request
    if tls is not None:
        body += b"\n-- tls: name=%s version=%s alpn=%s cipher=%s\n" % (
            (tls.get("name") or "-").encode(), conn.version().encode(), (conn.selected_alpn_protocol() or "-").encode(), conn.cipher()[0].encode())
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n" % len(body))
    if method != b"HEAD":
        conn.sendall(body)


def serve(port, context):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=one, args=(conn, context), daemon=True).start()


def one(conn, context):
    tls = None
    try:
        if context is not None:
            tls = {}
            conn = context.wrap_socket(conn, server_side=True)
            tls["name"] = getattr(conn, "sni", None)
        answer(conn, tls)
    except (OSError, ssl.SSLError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def tls_context(cert, key):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["http/1.1"])

    def remember(sock, name, _ctx):
        sock.sni = name

    context.sni_callback = remember
    return context


if __name__ == "__main__":
    plain, secure, cert, key = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    context = tls_context(cert, key)
    threading.Thread(target=serve, args=(secure, context), daemon=True).start()
    serve(plain, None)
