# A batch's curl command lines (harness/clients/client-batch.ts) run inside the exec agent through libcurl, the
# library the curl program is made of, instead of a curl process each. A curl run costs the machine 7-12 ms, nearly
# all of it loading its 33 shared libraries and starting up; the same transfer through the loaded library takes
# well under a millisecond. A fleet sends twenty requests per config, and curl was the largest single part of its
# CPU.
#
# What goes on the wire, what comes back and what the harness reads are curl's: the options below are those curl
# 7.88.1's command line sets for the arguments a batch uses (src/tool_operate.c), the library builds the request
# and reads the answer as the program does, and the outputs are the program's: the answer with its headers as
# received (-i --raw) in the file `o`, curl's error line in `e`, its exit status, and `-w '%{time_total}
# %{local_port}'`. An argument list with anything else in it (an option not below, a URL without --globoff), or a
# container without libcurl, runs the program as before (run_curl returns None).
# test/containers/clients/agent-curl.test.ts holds the two side by side on the same requests.
import ctypes
import os
import threading

# Option and info numbers of include/curl/curl.h (7.88.1).
LONG, OBJECT, FUNCTION, OFF_T = 0, 10000, 20000, 30000
CURLOPT_WRITEDATA = OBJECT + 1
CURLOPT_URL = OBJECT + 2
CURLOPT_USERPWD = OBJECT + 5
CURLOPT_ERRORBUFFER = OBJECT + 10
CURLOPT_WRITEFUNCTION = FUNCTION + 11
CURLOPT_POSTFIELDS = OBJECT + 15
CURLOPT_USERAGENT = OBJECT + 18
CURLOPT_HTTPHEADER = OBJECT + 23
CURLOPT_CUSTOMREQUEST = OBJECT + 36
CURLOPT_NOPROGRESS = LONG + 43
CURLOPT_NOBODY = LONG + 44
CURLOPT_SSL_VERIFYPEER = LONG + 64
CURLOPT_MAXREDIRS = LONG + 68
CURLOPT_HEADERFUNCTION = FUNCTION + 79
CURLOPT_SSL_VERIFYHOST = LONG + 81
CURLOPT_HTTP_VERSION = LONG + 84
CURLOPT_BUFFERSIZE = LONG + 98
CURLOPT_NOSIGNAL = LONG + 99
CURLOPT_POSTFIELDSIZE_LARGE = OFF_T + 120
CURLOPT_TIMEOUT_MS = LONG + 155
CURLOPT_HTTP_TRANSFER_DECODING = LONG + 157
CURLOPT_HTTP_CONTENT_DECODING = LONG + 158
CURLOPT_CERTINFO = LONG + 172
CURLOPT_RESOLVE = OBJECT + 203
CURLOPT_TCP_KEEPALIVE = LONG + 213
CURLOPT_XFERINFOFUNCTION = FUNCTION + 219
CURLOPT_PATH_AS_IS = LONG + 234
CURLOPT_HTTPAUTH = LONG + 107
CURLAUTH_DIGEST = 1 << 1
CURLINFO_LOCAL_PORT = 0x200000 + 42
CURLINFO_TOTAL_TIME_T = 0x600000 + 50
CURL_HTTP_VERSION = {"--http1.0": 1, "--http1.1": 2}
CURL_ERROR_SIZE = 256
CURL_GLOBAL_DEFAULT = 3
# The writeout a batch asks for, and what curl's program uses as the buffer size (BUFFER_SIZE).
WRITEOUT = "%{time_total} %{local_port}"
BUFFER_SIZE = 100 * 1024

DATA = ctypes.CFUNCTYPE(ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p)
PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)

_library = None
_loaded = False
_load_lock = threading.Lock()


def _load():
    """libcurl with its version's user agent, loaded and initialised once; None where it cannot be."""
    global _library, _loaded
    with _load_lock:
        if not _loaded:
            _loaded = True
            try:
                lib = ctypes.CDLL("libcurl.so.4")
                lib.curl_easy_init.restype = ctypes.c_void_p
                lib.curl_easy_perform.argtypes = [ctypes.c_void_p]
                lib.curl_easy_cleanup.argtypes = [ctypes.c_void_p]
                lib.curl_easy_strerror.restype = ctypes.c_char_p
                lib.curl_slist_append.restype = ctypes.c_void_p
                lib.curl_slist_append.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
                lib.curl_slist_free_all.argtypes = [ctypes.c_void_p]
                lib.curl_version.restype = ctypes.c_char_p
                if lib.curl_global_init(ctypes.c_long(CURL_GLOBAL_DEFAULT)) != 0:
                    raise OSError("curl_global_init failed")
                # "libcurl/7.88.1 OpenSSL/3.0.x ...": the program says "curl/<its version>", the library's own.
                version = lib.curl_version().split(b" ")[0].split(b"/")[1]
                _library = (lib, b"curl/" + version)
            except (OSError, AttributeError, IndexError):
                _library = None
    return _library


class _Plan:
    def __init__(self):
        self.url = None
        self.max_time = None
        self.head = False
        self.method = None
        self.version = None
        self.insecure = False
        self.resolve = []
        self.headers = []
        self.userpwd = None
        self.digest = False
        self.body_file = None


# Options taking no value, and what each sets.
_FLAGS = {"-sS": None, "-i": None, "--raw": None, "--path-as-is": None, "--globoff": None, "--head": "head", "-k": "insecure", "--http1.0": "version", "--http1.1": "version", "--digest": "digest"}


def parse(argv):
    """The plan of a batch item's argument list, or None when it holds anything this module does not run."""
    if not argv or argv[0] != "curl":
        return None
    plan = _Plan()
    seen = set()
    writeout = output = None
    index = 1
    while index < len(argv):
        arg = argv[index]
        if arg in _FLAGS:
            seen.add(arg)
            what = _FLAGS[arg]
            if what == "head":
                plan.head = True
            elif what == "insecure":
                plan.insecure = True
            elif what == "digest":
                plan.digest = True
            elif what == "version":
                plan.version = CURL_HTTP_VERSION[arg]
            index += 1
            continue
        if arg in ("--max-time", "-X", "--resolve", "-H", "-u", "--data-binary", "-o", "-w"):
            if index + 1 >= len(argv):
                return None
            value = argv[index + 1]
            if arg == "--max-time":
                if not value.isdigit():
                    return None
                plan.max_time = int(value)
            elif arg == "-X":
                plan.method = value
            elif arg == "--resolve":
                plan.resolve.append(value)
            elif arg == "-H":
                plan.headers.append(value)
            elif arg == "-u":
                plan.userpwd = value
            elif arg == "--data-binary":
                if not value.startswith("@") or value == "@-":
                    return None
                plan.body_file = value[1:]
            elif arg == "-o":
                output = value
            elif arg == "-w":
                writeout = value
            index += 2
            continue
        if arg.startswith("-") or plan.url is not None:
            return None
        if not (arg.startswith("http://") or arg.startswith("https://")):
            return None
        plan.url = arg
        index += 1
    # The batch's fixed parts: silent with errors shown, headers and the raw answer to the file o, its writeout, and
    # the URL as written (without --globoff curl would glob its [] and {}).
    if not {"-sS", "-i", "--raw", "--path-as-is", "--globoff"} <= seen or output != "o" or writeout != WRITEOUT or plan.url is None or plan.version is None:
        return None
    if plan.max_time is None or (plan.head and plan.method is not None) or (not plan.head and plan.method is None):
        return None
    return plan


def run_curl(argv, directory, cancelled):
    """Runs a batch item's curl command line in this process: (exit status, writeout text) with the answer in
    directory/o and curl's stderr in directory/e, as the program leaves them; None when it must be the program."""
    plan = parse(argv)
    loaded = _load() if plan is not None else None
    if loaded is None:
        return None
    lib, useragent = loaded
    body = None
    if plan.body_file is not None:
        with open("%s/%s" % (directory, plan.body_file), "rb") as source:
            body = source.read()
    handle = lib.curl_easy_init()
    if not handle:
        return None
    keep = []  # what libcurl points at during the transfer
    # Every argument as the program gets it from exec: the file system's encoding (os.fsencode, as subprocess does).

    def setopt(option, value):
        if isinstance(value, bytes):
            buffer = ctypes.c_char_p(value)
            keep.append(buffer)
            return lib.curl_easy_setopt(ctypes.c_void_p(handle), ctypes.c_int(option), buffer)
        if option >= OFF_T:
            return lib.curl_easy_setopt(ctypes.c_void_p(handle), ctypes.c_int(option), ctypes.c_int64(value))
        if option >= OBJECT:
            return lib.curl_easy_setopt(ctypes.c_void_p(handle), ctypes.c_int(option), ctypes.c_void_p(value))
        return lib.curl_easy_setopt(ctypes.c_void_p(handle), ctypes.c_int(option), ctypes.c_long(value))

    slists = []

    def slist(items):
        head = None
        for item in items:
            head = lib.curl_slist_append(head, os.fsencode(item))
        slists.append(head)
        return head

    errors = ctypes.create_string_buffer(CURL_ERROR_SIZE)
    with open("%s/o" % directory, "wb") as answer:

        def write(data, size, count, _user):
            length = size * count
            answer.write(ctypes.string_at(data, length))
            return length

        def progress(_user, _dltotal, _dlnow, _ultotal, _ulnow):
            return 1 if cancelled() else 0

        write_cb = DATA(write)
        progress_cb = PROGRESS(progress)
        try:
            # In the order curl's program sets them; options it leaves at the library's default are left too.
            setopt(CURLOPT_BUFFERSIZE, BUFFER_SIZE)
            setopt(CURLOPT_URL, os.fsencode(plan.url))
            if plan.head:
                setopt(CURLOPT_NOBODY, 1)
            if plan.userpwd is not None:
                setopt(CURLOPT_USERPWD, os.fsencode(plan.userpwd))
            if plan.digest:
                # --digest: the request goes without credentials, then again answering the server's challenge.
                setopt(CURLOPT_HTTPAUTH, CURLAUTH_DIGEST)
            setopt(CURLOPT_ERRORBUFFER, ctypes.addressof(errors))
            setopt(CURLOPT_TIMEOUT_MS, plan.max_time * 1000)
            if body is not None:
                setopt(CURLOPT_POSTFIELDS, body)
                setopt(CURLOPT_POSTFIELDSIZE_LARGE, len(body))
            if plan.headers:
                setopt(CURLOPT_HTTPHEADER, slist(plan.headers))
            setopt(CURLOPT_USERAGENT, useragent)
            setopt(CURLOPT_MAXREDIRS, 50)
            setopt(CURLOPT_HTTP_VERSION, plan.version)
            setopt(CURLOPT_CERTINFO, 1)
            if plan.insecure:
                setopt(CURLOPT_SSL_VERIFYPEER, 0)
                setopt(CURLOPT_SSL_VERIFYHOST, 0)
            setopt(CURLOPT_PATH_AS_IS, 1)
            if plan.method is not None:
                setopt(CURLOPT_CUSTOMREQUEST, os.fsencode(plan.method))
            setopt(CURLOPT_HTTP_CONTENT_DECODING, 0)
            setopt(CURLOPT_HTTP_TRANSFER_DECODING, 0)
            setopt(CURLOPT_TCP_KEEPALIVE, 1)
            if plan.resolve:
                setopt(CURLOPT_RESOLVE, slist(plan.resolve))
            # -i: the headers of every answer, interim ones too, go to the output as received.
            setopt(CURLOPT_WRITEFUNCTION, ctypes.cast(write_cb, ctypes.c_void_p).value)
            setopt(CURLOPT_HEADERFUNCTION, ctypes.cast(write_cb, ctypes.c_void_p).value)
            # Not the program's: a transfer the harness cancels stops at once (the program is killed instead), and
            # a thread may not touch signals. Neither changes what is sent or received.
            setopt(CURLOPT_NOPROGRESS, 0)
            setopt(CURLOPT_XFERINFOFUNCTION, ctypes.cast(progress_cb, ctypes.c_void_p).value)
            setopt(CURLOPT_NOSIGNAL, 1)
            result = lib.curl_easy_perform(ctypes.c_void_p(handle))
            total = ctypes.c_int64(0)
            port = ctypes.c_long(0)
            lib.curl_easy_getinfo(ctypes.c_void_p(handle), ctypes.c_int(CURLINFO_TOTAL_TIME_T), ctypes.byref(total))
            lib.curl_easy_getinfo(ctypes.c_void_p(handle), ctypes.c_int(CURLINFO_LOCAL_PORT), ctypes.byref(port))
        finally:
            lib.curl_easy_cleanup(ctypes.c_void_p(handle))
            for head in slists:
                lib.curl_slist_free_all(head)
    with open("%s/e" % directory, "wb") as stderr:
        if result != 0:
            message = errors.value or lib.curl_easy_strerror(ctypes.c_int(result))
            stderr.write(b"curl: (%d) %s\n" % (result, message))
    return result, "%d.%06d %d" % (total.value // 1000000, total.value % 1000000, port.value)
