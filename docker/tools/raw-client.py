#!/usr/bin/env python3
"""Raw requests from a client container's own address: sends the given bytes (optionally one byte every
DELAY_MS, for slow-client checks), then prints one line `@@outcome <ok|reset|timeout|refused>` followed by
every byte the server sent back (latin1)."""
import socket, sys, time

host, port, delay_ms, timeout_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
data = sys.stdin.buffer.read()
received, outcome = [], "ok"
try:
    s = socket.create_connection((host, port), timeout=timeout_s)
    if delay_ms > 0:
        for i in range(len(data)):
            s.sendall(data[i:i + 1])
            time.sleep(delay_ms / 1000)
    else:
        s.sendall(data)
    while (chunk := s.recv(65536)):
        received.append(chunk)
except ConnectionRefusedError:
    outcome = "refused"
except (ConnectionResetError, BrokenPipeError):
    outcome = "reset"
except socket.timeout:
    outcome = "timeout"
sys.stdout.write(f"@@outcome {outcome}\n")
sys.stdout.write(b"".join(received).decode("latin1"))
