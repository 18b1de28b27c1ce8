#!/usr/bin/env python3
# The main process of a client container: runs the commands the harness sends on its stdin, as `docker exec` would,
# and sends their output back on its stdout. A `docker exec` costs the engine about 50 ms of CPU (runc, the shim,
# dockerd) and three API round trips; a fork here costs a few milliseconds. The container's stdin and stdout are the
# harness's attach stream; its log driver is "none", so nothing of this passes through the engine's logs.
#
# In (harness -> agent), a header line then its bytes:
#     r <id> <argv bytes> <stdin bytes, -1: none>\n<argv as JSON><stdin>     run a command
#     k <id>\n                                                              kill its process group
# Out (agent -> harness):
#     <id> o <n>\n<n bytes>     stdout          <id> e <n>\n<n bytes>     stderr
#     <id> x <status>\n         its end (128 + the signal when one ended it, as docker exec says)
#     0 h 0\n                   ready (sent once, first)
import json
import os
import signal
import subprocess
import sys
import threading

out = sys.stdout.buffer
out_lock = threading.Lock()
jobs = {}
jobs_lock = threading.Lock()


def send(header, data=b""):
    with out_lock:
        out.write(header + b"\n" + data)
        out.flush()


def pump(job_id, stream, kind):
    while True:
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            break
        send(b"%d %s %d" % (job_id, kind, len(chunk)), chunk)
    stream.close()


def feed(stream, data):
    try:
        stream.write(data)
        stream.close()
    except OSError:
        pass  # the command ended without reading all of it, as with a closed pipe under docker exec


def run(job_id, argv, data):
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL if data is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd="/",
            start_new_session=True,
        )
    except OSError as error:
        message = ("exec: %s: %s\n" % (argv[0] if argv else "", error.strerror)).encode()
        send(b"%d e %d" % (job_id, len(message)), message)
        send(b"%d x %d" % (job_id, 126 if isinstance(error, PermissionError) else 127))
        return
    with jobs_lock:
        jobs[job_id] = process
    threads = [threading.Thread(target=pump, args=(job_id, process.stdout, b"o")), threading.Thread(target=pump, args=(job_id, process.stderr, b"e"))]
    if data is not None:
        threads.append(threading.Thread(target=feed, args=(process.stdin, data)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    status = process.wait()
    with jobs_lock:
        jobs.pop(job_id, None)
    send(b"%d x %d" % (job_id, 128 - status if status < 0 else status))


def kill(job_id):
    with jobs_lock:
        process = jobs.get(job_id)
    if process is not None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass


def main():
    source = sys.stdin.buffer
    send(b"0 h 0")
    while True:
        line = source.readline()
        if not line:
            break
        words = line.split()
        if words[0] == b"k":
            kill(int(words[1]))
            continue
        job_id, argv_bytes, stdin_bytes = int(words[1]), int(words[2]), int(words[3])
        argv = json.loads(source.read(argv_bytes))
        data = None if stdin_bytes < 0 else source.read(stdin_bytes)
        threading.Thread(target=run, args=(job_id, argv, data), daemon=True).start()
    # The harness let go of the stream: the container stays, as `sleep infinity` did, until it is removed.
    while True:
        signal.pause()


main()
