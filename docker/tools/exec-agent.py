#!/usr/bin/env python3
# The main process of a client container: runs the commands the harness sends on its stdin, as `docker exec` would,
# and sends their output back on its stdout. A `docker exec` costs the engine about 50 ms of CPU (runc, the shim,
# dockerd) and three API round trips; a fork here costs a few milliseconds. The container's stdin and stdout are the
# harness's attach stream; its log driver is "none", so nothing of this passes through the engine's logs.
#
# In (harness -> agent), a header line then its bytes:
#     r <id> <argv bytes> <stdin bytes, -1: none>\n<argv as JSON><stdin>     run a command
#     b <id> <batch bytes>\n<batch as JSON>                                   send a request batch (below)
#     k <id>\n                                                              kill its process group
# Out (agent -> harness):
#     <id> o <n>\n<n bytes>     stdout          <id> e <n>\n<n bytes>     stderr
#     <id> x <status>\n         its end (128 + the signal when one ended it, as docker exec says)
#     0 h 0\n                   ready (sent once, first)
import base64
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

try:
    import agent_curl  # a batch's curl command lines through libcurl in this process (agent_curl.py)
except ImportError:
    agent_curl = None

out = sys.stdout.buffer
CHUNK = 1 << 20
F_SETPIPE_SZ = 1031
out_lock = threading.Lock()
jobs = {}
jobs_lock = threading.Lock()


def send(header, data=b""):
    with out_lock:
        out.write(header + b"\n")
        # A large piece goes straight to the stream, not copied into the buffer first.
        out.write(data)
        out.flush()


def pump(job_id, stream, kind):
    try:
        # Larger pipe reads, fewer frames: a 100 MB answer in 1 MiB pieces rather than 64 KiB ones.
        fcntl.fcntl(stream.fileno(), F_SETPIPE_SZ, CHUNK)
    except OSError:
        pass
    while True:
        chunk = os.read(stream.fileno(), CHUNK)
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


def status_of(returncode):
    return 128 - returncode if returncode < 0 else returncode


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
        jobs[job_id] = lambda: os.killpg(process.pid, signal.SIGKILL)
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
    send(b"%d x %d" % (job_id, status_of(status)))


# A request batch (harness/clients/client-batch.ts): one curl per item, `gap` seconds apart, in a directory of its
# own; each item's answer and stderr go to files, then one record on the job's stdout:
#     @@hb <index> <curl exit> <answer bytes> <stderr bytes> <time_total> <local_port>\n<answer><stderr>
# or `@@hb <index> skip` for an item marked skip after one that timed out (curl exit 28). The same records the
# batch's sh script prints, without the shell, sleep, wc and cat processes it runs for every request, and where it
# can without a curl process either: agent_curl.py runs the command line through libcurl here (`"program": true` in
# the batch runs the program for every item, as the side-by-side test of the two does).
def batch(job_id, spec):
    state = {"cancelled": False, "process": None}

    def cancel():
        state["cancelled"] = True
        process = state["process"]
        if process is not None:
            os.killpg(process.pid, signal.SIGKILL)

    with jobs_lock:
        jobs[job_id] = cancel
    status = 0
    try:
        directory = tempfile.mkdtemp()
    except OSError as error:
        message = ("batch: %s\n" % error).encode()
        send(b"%d e %d" % (job_id, len(message)), message)
        directory = None
        status = 97
    if directory is not None:
        try:
            last = 0
            for index, item in enumerate(spec["items"]):
                if state["cancelled"]:
                    break
                if item["skip"] and last == 28:
                    record = b"@@hb %d skip\n" % index
                    send(b"%d o %d" % (job_id, len(record)), record)
                    continue
                if index > 0 and spec["gap"] > 0:
                    time.sleep(spec["gap"])
                if item["body"] is not None:
                    with open(os.path.join(directory, "b"), "wb") as body:
                        body.write(base64.b64decode(item["body"]))
                ran = None if agent_curl is None or spec.get("program") else agent_curl.run_curl(item["argv"], directory, lambda: state["cancelled"])
                if ran is not None:
                    # A cancelled transfer ends as the killed program would have.
                    last, timing = (137 if state["cancelled"] else ran[0]), ran[1]
                else:
                    with open(os.path.join(directory, "e"), "wb") as errors:
                        open(os.path.join(directory, "o"), "wb").close()
                        process = subprocess.Popen(item["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, cwd=directory, start_new_session=True)
                        state["process"] = process
                        written = process.communicate()[0]
                        state["process"] = None
                    last = status_of(process.returncode)
                    timing = written.decode("latin-1").rstrip("\n") or "0 0"
                sizes = [os.path.getsize(os.path.join(directory, name)) for name in ("o", "e")]
                header = b"@@hb %d %d %d %d %s\n" % (index, last, sizes[0], sizes[1], timing.encode("latin-1"))
                send(b"%d o %d" % (job_id, len(header)), header)
                # The answer may be large: passed on in pieces, as `cat` did.
                for name in ("o", "e"):
                    with open(os.path.join(directory, name), "rb") as part:
                        while True:
                            chunk = part.read(CHUNK)
                            if not chunk:
                                break
                            send(b"%d o %d" % (job_id, len(chunk)), chunk)
        except Exception as error:  # a curl that cannot be run: said on stderr, as the shell would
            message = ("batch: %s\n" % error).encode()
            send(b"%d e %d" % (job_id, len(message)), message)
            status = 1
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    with jobs_lock:
        jobs.pop(job_id, None)
    send(b"%d x %d" % (job_id, 137 if state["cancelled"] else status))


def kill(job_id):
    with jobs_lock:
        cancel = jobs.get(job_id)
    if cancel is not None:
        try:
            cancel()
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
        if words[0] == b"b":
            spec = json.loads(source.read(int(words[2])))
            threading.Thread(target=batch, args=(int(words[1]), spec), daemon=True).start()
            continue
        job_id, argv_bytes, stdin_bytes = int(words[1]), int(words[2]), int(words[3])
        argv = json.loads(source.read(argv_bytes))
        data = None if stdin_bytes < 0 else source.read(stdin_bytes)
        threading.Thread(target=run, args=(job_id, argv, data), daemon=True).start()
    # The harness let go of the stream: the container stays, as `sleep infinity` did, until it is removed.
    while True:
        signal.pause()


main()
