#!/usr/bin/env python3
# Times a real `sotvet lsp` from its start to the first publishDiagnostics
# of a document opened at once, and to the answer of a request (the
# complete run): wall-clock and the process CPU (user + system) then, and
# the process's peak RSS.
# usage: lsp-first-publish.py SOTVET ROOT REL CACHE_DIR (empty dir: a first start)
# LSP_LOG=1 prints the server's log messages on stderr, timed; LSP_WAIT=S
# waits S seconds before killing the server (let it save its cache).
import json, os, subprocess, sys, time
binary, root, rel = sys.argv[1], sys.argv[2], sys.argv[3]
env = dict(os.environ, SOTVET_CACHE=sys.argv[4])
text = open(os.path.join(root, rel)).read()
uri = "file://" + os.path.join(root, rel)
def frame(o):
    b = json.dumps(o).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b
t0 = time.time()
p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
p.stdin.write(frame({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":None,"rootUri":"file://"+root,"capabilities":{}}}))
p.stdin.write(frame({"jsonrpc":"2.0","method":"initialized","params":{}}))
p.stdin.write(frame({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"markdown","version":1,"text":text}}}))
p.stdin.write(frame({"jsonrpc":"2.0","id":2,"method":"textDocument/documentLink","params":{"textDocument":{"uri":uri}}}))
p.stdin.flush()
def cpu():
    f = open("/proc/%d/stat" % p.pid).read().rsplit(")",1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
first = None
while True:
    line = p.stdout.readline()
    if not line.startswith(b"Content-Length"):
        continue
    n = int(line.split(b":")[1]); p.stdout.readline()
    msg = json.loads(p.stdout.read(n))
    if msg.get("method") == "window/logMessage" and os.environ.get("LSP_LOG"):
        print("%.3f s: %s" % (time.time() - t0, msg["params"]["message"]), file=sys.stderr)
    if msg.get("method") == "textDocument/publishDiagnostics" and first is None:
        first = (time.time() - t0, cpu(), len(msg["params"]["diagnostics"]))
    if msg.get("id") == 2:
        full = (time.time() - t0, cpu())
        break
# The server saves its summary cache after its first complete run: a
# first start killed at once may leave none for the restart to measure.
# LSP_WAIT=S waits S seconds first (the peak RSS is read after it).
time.sleep(float(os.environ.get("LSP_WAIT", "0")))
hwm = [l.split()[1] for l in open("/proc/%d/status" % p.pid) if l.startswith("VmHWM:")][0]
p.kill()
print("first publish %.3f s wall %.2f s cpu (%d diags); complete %.3f s wall %.2f s cpu, peak RSS %d MB" % (first[0], first[1], first[2], full[0], full[1], int(hwm) // 1024))
