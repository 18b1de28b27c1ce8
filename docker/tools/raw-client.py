#!/usr/bin/env python3
"""Raw requests from a client container's own address: sends the bytes read from stdin (optionally one byte
every DELAY_MS, for slow-client checks), writes every byte the server sends back to stdout as it arrives
(nothing held: a body of any size passes), and at the end one line `@@outcome <ok|reset|timeout|refused>` to
stderr."""
import socket, sys, time

host, port, delay_ms, timeout_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
data = sys.stdin.buffer.read()
out = sys.stdout.buffer
outcome = "ok"
try:
    s = socket.create_connection((host, port), timeout=timeout_s)
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
out.flush()
sys.stderr.write(f"@@outcome {outcome}\n")
